import { recordLiveChange } from '../core/live/change-collector.js';
import { defineTrashKind } from '../trash/trash-kinds.js';
import { makeRoomInColumn } from './projects.queries.js';

/** A card comes back at its place in its column (the cards below move down again, as its delete moved them up). */
export const PROJECT_TASK_TRASH = defineTrashKind({
  kind: 'projectTask',
  table: 'project_tasks',
  async beforeRestore(em, userId, { row }) {
    const { place, movedIds } = await makeRoomInColumn(em, String(row.column_id), Number(row.position));
    row.position = String(place);
    for (const id of movedIds) recordLiveChange(em, userId, { entity: 'ProjectTask', id, kind: 'updated' });
  },
});
