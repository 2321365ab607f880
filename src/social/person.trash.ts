import { defineTrashKind } from '../trash/trash-kinds.js';

/**
 * A person's delete takes them out of the guests of their happenings (a JSON array) and off their
 * perimeter tasks (a column without a foreign key): the trash keeps those places by SQL (`trash_links`,
 * however many there are) and a restore puts the person back where those rows are still there.
 */
export const PERSON_TRASH = defineTrashKind({
  kind: 'person',
  table: 'people',
  references: [
    { table: 'social_happenings', column: 'guest_ids', array: true },
    { table: 'perimeter_tasks', column: 'person_id' },
  ],
});
