import { defineTrashKind } from '../../trash/trash-kinds.js';

/** A database record comes back with its values; refused when its database is gone. */
export const RECORD_TRASH = defineTrashKind({ kind: 'record', table: 'brain_record' });
