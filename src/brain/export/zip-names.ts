import { withoutInvisibleFormat } from '../../files/safe-file-name.js';

/** Characters no file system takes in a name (Windows is the strictest), and control characters. */
const UNSAFE = /[\\/:*?"<>|\u0000-\u001F\u007F]/g;
const NAME_MAX = 100;

/**
 * A title or folder name as one safe path segment: unsafe characters become `-`, invisible format
 * characters (bidi controls) are dropped, never empty, `.` or `..`.
 */
export function safeSegment(name: string, fallback: string): string {
  // Bidi controls and other invisible format characters go: a name shows what it is (`fdp.exe` stays that).
  let segment = withoutInvisibleFormat(name.normalize('NFC')).replace(/\s+/g, ' ').replace(UNSAFE, '-').trim();
  // Windows drops trailing dots and spaces; a leading dot hides the file.
  segment = segment.replace(/^[.\s]+|[.\s]+$/g, '');
  segment = [...segment].slice(0, NAME_MAX).join('').trim();
  return segment || fallback;
}

/** Hands out names unique within one folder, ignoring case (`Plan`, `Plan (2)`, …). */
export class UniqueNames {
  private readonly used = new Set<string>();

  take(base: string, extension = ''): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${base}${extension}` : `${base} (${n})${extension}`;
      if (!this.used.has(name.toLowerCase())) {
        this.used.add(name.toLowerCase());
        return name;
      }
    }
  }
}
