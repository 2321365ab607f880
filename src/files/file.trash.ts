import { defineTrashKind } from '../trash/trash-kinds.js';
import { filePrefix, type StorageAdapterName } from './storage/storage.js';

/**
 * A file comes back with its image variants and progress photo (its delete cascaded to them) and as the
 * picture or cover of what showed it (set back where still empty). Its stored bytes stay until the purge
 * (or a delete from the trash): only then are the original and every variant removed.
 */
export const FILE_TRASH = defineTrashKind({
  kind: 'file',
  table: 'files',
  async freed(deps, userId, snapshot) {
    const row = snapshot.rows[0].row;
    await deps.files.adapter(String(row.storage_adapter) as StorageAdapterName).deletePrefix(filePrefix(userId, String(row.id)));
  },
});
