import { ARRANGEMENTS } from './kinds/arrangements.js';
import { checklistToggle } from './kinds/checklist-toggle.js';
import { RECORD_WRITES } from './kinds/record-kinds.js';
import { KEPT_DELETES } from './kinds/kept-deletes.js';
import { DAY_LOGS } from './kinds/day-logs.js';
import { FIELD_UPDATES } from './kinds/field-updates.js';
import { formSubmit } from './kinds/form-submit.js';
import { HABIT_WRITES } from './kinds/habits.js';
import { QUICK_ADDS } from './kinds/quick-add.js';
import { TRASHED_DELETES } from './kinds/trashed-deletes.js';
import type { UndoKind } from './undo-kind.js';

export type { UndoKind, UndoOffer } from './undo-kind.js';

/** Every write that answers an undo token (docs/undo.md lists them); any other write answers none. */
export const UNDO_KINDS: readonly UndoKind[] = [
  checklistToggle,
  ...RECORD_WRITES,
  ...TRASHED_DELETES,
  ...KEPT_DELETES,
  ...DAY_LOGS,
  ...HABIT_WRITES,
  ...FIELD_UPDATES,
  ...ARRANGEMENTS,
  formSubmit,
  ...QUICK_ADDS,
];

const byKind = new Map(UNDO_KINDS.map((kind) => [kind.kind, kind]));
export const undoKind = (kind: string): UndoKind | undefined => byKind.get(kind);
