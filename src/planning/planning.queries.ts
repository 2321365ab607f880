import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { Day } from './day.entity.js';

/** The planning hub's hand-written SQL. */

/** Whether the day is the user's: one plain statement (most writes need only this check). */
export async function isOwnDay(em: EntityManager, userId: string, dayId: string): Promise<boolean> {
  const day = rowShape(em, Day);
  const rows = await queryRows(em, `select 1 from ${day.table} as t where t.id = $1 and t.${day.column('userId')} = $2`, [dayId, userId]);
  return rows.length > 0;
}
