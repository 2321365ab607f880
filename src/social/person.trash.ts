import { recordLiveChange } from '../core/live/change-collector.js';
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
  async afterRestore(em, userId, { row, extra: kept }) {
    const personId = String(row.id);
    const extra = (kept ?? { happeningIds: [], perimeterTaskIds: [] }) as unknown as PersonTrashExtra;
    // Raw writes: the live updates and the change feed hear them from here.
    for (const id of await addGuestBack(em, userId, personId, extra.happeningIds)) recordLiveChange(em, userId, { entity: 'SocialHappening', id, kind: 'updated' });
    if (extra.perimeterTaskIds.length) {
      await em.nativeUpdate(PerimeterTask, { id: { $in: extra.perimeterTaskIds }, userId, personId: null }, { personId });
      for (const id of extra.perimeterTaskIds) recordLiveChange(em, userId, { entity: 'PerimeterTask', id, kind: 'updated' });
    }
  },
});
