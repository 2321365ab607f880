import type { EntityManager } from '@mikro-orm/postgresql';
import type { BoardColumn } from './board-column.entity.js';
import { statusOfColumn } from './board-status.js';
import { ProjectTask } from './project-task.entity.js';

/**
 * The projects domain's hand-written SQL. Each runs through `em.execute`, so inside a transaction it
 * is part of it (`em.getConnection().execute` without the transaction context would run beside it).
 */

/** Sets every task's status from its column's place on the board (one statement). */
export async function refreshStatuses(em: EntityManager, projectId: string, columns: BoardColumn[]): Promise<void> {
  const tasks = em.getMetadata(ProjectTask).tableName;
  const cases = columns.map(() => 'when ? then ?').join(' ');
  const params = columns.flatMap((c) => [c.id, statusOfColumn(c.order, columns.length)]);
  await em.execute(`update "${tasks}" set "status" = case "column_id" ${cases} else "status" end where "project_id" = ?`, [...params, projectId], 'run');
}

/** Takes the tag off every project task of the user that carries it (one statement). */
export async function removeTagFromTasks(em: EntityManager, userId: string, tagId: string): Promise<void> {
  const tasks = em.getMetadata(ProjectTask).tableName;
  await em.execute(`update "${tasks}" set "tag_ids" = array_remove("tag_ids", ?::uuid) where "user_id" = ? and ?::uuid = any("tag_ids")`, [tagId, userId, tagId], 'run');
}

/**
 * Makes room at `position` in a column for a card coming back from the trash: the cards from there on
 * move down one. Past the end it goes last. Answers the place it gets.
 */
export async function makeRoomInColumn(em: EntityManager, columnId: string, position: number): Promise<{ place: number; movedIds: string[] }> {
  const tasks = em.getMetadata(ProjectTask).tableName;
  const [{ n }] = await em.execute<{ n: number }[]>(`select count(*)::int as n from "${tasks}" where "column_id" = ?`, [columnId]);
  const place = Math.min(position, n);
  const moved = await em.execute<{ id: string }[]>(`update "${tasks}" set "position" = "position" + 1 where "column_id" = ? and "position" >= ? returning id`, [columnId, place]);
  return { place, movedIds: moved.map((row) => row.id) };
}
