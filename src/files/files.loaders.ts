import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { ImageVariant } from './image-variant.entity.js';
import { StoredFile } from './stored-file.entity.js';

const VARIANT_ORDER = ['original', 'thumbnail', 'small', 'medium', 'large'];

/**
 * Per-request loaders of the files module. They key on ids the caller reached through an
 * owner-checked read (a file, a progress photo's file), so they need no user scope of their own.
 */
export function createFilesLoaders(em: EntityManager) {
  return {
    /** The variants made so far of each file, original first then by size; one query for many files. */
    variantsByFileId: new DataLoader<string, ImageVariant[]>(async (fileIds) => {
      // Plain rows (read-rows.ts): a list polled for variant states should not hydrate entities.
      const rows = await readRows(em, ImageVariant, { where: 'fileId', values: fileIds });
      const byFile = new Map<string, ImageVariant[]>(fileIds.map((id) => [id, []]));
      for (const row of rows) byFile.get(row.fileId)?.push(row);
      for (const list of byFile.values()) list.sort((a, b) => VARIANT_ORDER.indexOf(a.variant) - VARIANT_ORDER.indexOf(b.variant));
      return fileIds.map((id) => byFile.get(id)!);
    }),

    /** A file by id, or null when it no longer exists. */
    fileById: new DataLoader<string, StoredFile | null>(async (ids) => {
      const rows = await em.find(StoredFile, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((f) => [f.id, f]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}

export type FilesLoaders = ReturnType<typeof createFilesLoaders>;
