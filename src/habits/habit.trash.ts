import { defineTrashKind } from '../trash/trash-kinds.js';

/**
 * A habit comes back with its entries and day marks (its delete cascaded to them) and its streak as it
 * was: the streak columns are part of its row. Refused when it would be a 101st habit (`habit_limit`).
 */
export const HABIT_TRASH = defineTrashKind({ kind: 'habit', table: 'habits' });
