import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { Day } from './day.entity.js';
import { Week } from './week.entity.js';

/** The planning hub's hand-written SQL. */

/** Whether the day is the user's: one plain statement (most writes need only this check). */
export async function isOwnDay(em: EntityManager, userId: string, dayId: string): Promise<boolean> {
  const day = rowShape(em, Day);
  const rows = await queryRows(em, `select 1 from ${day.table} as t where t.id = $1 and t.${day.column('userId')} = $2`, [dayId, userId]);
  return rows.length > 0;
}

/**
 * The user's day on `date` with its week, in one statement (today's read: the week's stress flag
 * answers the bedtime targets, which then need no statement of their own); undefined when not planned.
 */
export async function dayWithWeekAt(em: EntityManager, userId: string, date: string): Promise<{ day: Day; week: Week } | undefined> {
  const day = rowShape(em, Day);
  const week = rowShape(em, Week);
  const [row] = await queryRows(
    em,
    `select ${day.columns('t')}, ${week.prefixedColumns('w', 'week')} from ${day.table} as t join ${week.table} as w on w.id = t.${day.column('weekId')} where t.${day.column('userId')} = $1 and t.${day.column('date')} = $2 limit 1`,
    [userId, date],
  );
  if (!row) return undefined;
  const joined = week.fromPrefixed(row, 'week');
  return { day: day.toEntity(row), week: joined };
}
