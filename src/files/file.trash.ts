import { defineTrashKind } from '../trash/trash-kinds.js';
import { filePrefix } from './storage/storage.js';

/**
 * A file comes back with its image variants and progress photo (its delete cascaded to them) and as the
 * picture or cover of what showed it (set back where still empty). Its stored bytes stay until the purge
 * (or a delete from the trash): only then are the original and every variant removed.
 */
export const FILE_TRASH = defineTrashKind({
  kind: 'file',
  table: 'files',
  storage(userId, row) {
    return [{ adapter: String(row.storage_adapter), prefix: filePrefix(userId, String(row.id)) }];
  },
});
