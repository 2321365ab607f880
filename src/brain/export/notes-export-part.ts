import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZipFile } from 'yazl';
import { stringify } from 'yaml';
import { BrainFolder } from '../notes/brain-folder.entity.js';
import { BrainNote } from '../notes/brain-note.entity.js';
import { BrainTag } from '../notes/brain-tag.entity.js';
import type { BrainExportPart } from './brain-export-part.js';
import { safeSegment, UniqueNames } from './zip-names.js';

/** The zip folder holding the notes. */
export const NOTES_DIR = 'notes';

/** A note as Markdown with YAML front matter (the yaml package quotes what needs quoting). */
export function noteMarkdown(note: BrainNote, folderPath: string | null, tags: string[]): string {
  const front = stringify(
    { title: note.title, id: note.id, folder: folderPath, tags, created: note.createdAt.toISOString(), updated: note.updatedAt.toISOString() },
    { lineWidth: 0 },
  );
  return `---\n${front}---\n\n${note.content}${note.content.endsWith('\n') || !note.content ? '' : '\n'}`;
}

/**
 * `notes/<folder>/<sub-folder>/<title>.md`: one Markdown file per note with front matter (title, id,
 * folder path, tag names, created, updated), folders as zip folders (empty ones too). Names are made
 * safe for every file system and unique per folder, ignoring case.
 */
export const notesExportPart: BrainExportPart = {
  async write(zip: ZipFile, em: EntityManager, userId: string): Promise<void> {
    const [folders, notes, tags] = await Promise.all([
      em.find(BrainFolder, { userId }, { orderBy: { name: 'asc', id: 'asc' } }),
      em.find(BrainNote, { userId }, { orderBy: { title: 'asc', id: 'asc' } }),
      em.find(BrainTag, { userId }),
    ]);
    const tagName = new Map(tags.map((t) => [t.id, t.name]));

    // Each folder's path: its display path (front matter) and its zip path (safe, unique segments).
    const children = new Map<string | null, BrainFolder[]>();
    for (const f of folders) (children.get(f.parentId ?? null) ?? children.set(f.parentId ?? null, []).get(f.parentId ?? null)!).push(f);
    const paths = new Map<string | null, { display: string | null; zip: string }>([[null, { display: null, zip: NOTES_DIR }]]);
    const namesIn = new Map<string | null, UniqueNames>();
    const names = (folderId: string | null) => namesIn.get(folderId) ?? namesIn.set(folderId, new UniqueNames()).get(folderId)!;
    const walk = (parentId: string | null) => {
      const parent = paths.get(parentId)!;
      for (const f of children.get(parentId) ?? []) {
        const segment = names(parentId).take(safeSegment(f.name, 'Folder'));
        paths.set(f.id, { display: parent.display ? `${parent.display}/${f.name}` : f.name, zip: `${parent.zip}/${segment}` });
        zip.addEmptyDirectory(`${parent.zip}/${segment}`, { mtime: f.updatedAt });
        walk(f.id);
      }
    };
    walk(null);

    for (const note of notes) {
      const folder = paths.get(note.folderId ?? null) ?? paths.get(null)!;
      const file = names(note.folderId ?? null).take(safeSegment(note.title, 'Untitled'), '.md');
      const noteTags = note.tagIds.map((id) => tagName.get(id)).filter((n): n is string => n !== undefined);
      zip.addBuffer(Buffer.from(noteMarkdown(note, folder.display, noteTags), 'utf8'), `${folder.zip}/${file}`, { mtime: note.updatedAt });
    }
  },
};
