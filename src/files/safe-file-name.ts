import { basename } from 'node:path';

const MAX_NAME = 255;

/**
 * Invisible format characters (Unicode category Cf): the bidi controls that make `exe.pdf` of
 * `fdp.exe` (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), zero-width spaces, soft hyphens, BOMs.
 * The zero-width (non-)joiners stay: scripts and emoji sequences need them.
 */
const INVISIBLE_FORMAT = /(?![\u200c\u200d])\p{Cf}/gu;

/** `text` without invisible format characters (bidi controls and the like); see INVISIBLE_FORMAT. */
export function withoutInvisibleFormat(text: string): string {
  return text.replace(INVISIBLE_FORMAT, '');
}

/**
 * The client's file name, kept as metadata: the last path segment (either separator), control and
 * invisible format characters (bidi controls) removed, whitespace collapsed, at most 255 characters. Never used as a path.
 */
export function cleanFileName(raw: string): string {
  const last = basename(raw.replace(/\\/g, '/'));
  const cleaned = withoutInvisibleFormat(last.normalize('NFC'))
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const name = cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
  const chars = Array.from(name);
  if (chars.length <= MAX_NAME) return name;
  // Too long: keep the extension, shorten the stem.
  const ext = /\.[^.\s]{1,16}$/.exec(name)?.[0] ?? '';
  return Array.from(name.slice(0, name.length - ext.length)).slice(0, MAX_NAME - ext.length).join('') + ext;
}

/**
 * A Content-Disposition value that no file name can break: an ASCII fallback (quotes, backslashes and
 * non-ASCII replaced) plus the exact name in RFC 5987 `filename*`.
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  // Per code point, so an emoji becomes one `_`.
  const ascii = Array.from(fileName, (c) => (/^[\x20-\x7e]$/.test(c) && !/["\\/;]/.test(c) ? c : '_')).join('') || 'file';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
