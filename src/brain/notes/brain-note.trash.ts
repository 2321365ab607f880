import { defineTrashKind } from '../../trash/trash-kinds.js';

/** A note comes back with its tags (they are its row's tag ids); refused when its folder is gone. */
export const NOTE_TRASH = defineTrashKind({ kind: 'note', table: 'brain_note' });
