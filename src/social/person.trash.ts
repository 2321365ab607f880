import { PerimeterTask } from '../planning/perimeter-task.entity.js';
import { defineTrashKind } from '../trash/trash-kinds.js';
import { addGuestBack } from './social.queries.js';

/** What a person's delete took beyond their row: their guest places and their perimeter tasks' link. */
export interface PersonTrashExtra {
  happeningIds: string[];
  perimeterTaskIds: string[];
}

/** A person comes back among the guests of the happenings they were on and on their perimeter tasks (those still there). */
export const PERSON_TRASH = defineTrashKind({
  kind: 'person',
  table: 'people',
  async afterRestore(em, userId, snapshot) {
    const personId = String(snapshot.rows[0].row.id);
    const extra = (snapshot.extra ?? { happeningIds: [], perimeterTaskIds: [] }) as unknown as PersonTrashExtra;
    await addGuestBack(em, userId, personId, extra.happeningIds);
    if (extra.perimeterTaskIds.length) {
      await em.nativeUpdate(PerimeterTask, { id: { $in: extra.perimeterTaskIds }, userId, personId: null }, { personId });
    }
  },
});
