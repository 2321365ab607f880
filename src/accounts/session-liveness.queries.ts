import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { LoginSession } from './login-session.entity.js';

/**
 * Which of these sessions still exist and have not expired: the live sockets' periodic check (one
 * statement for every socket of an instance), so a socket ends with its session however it ended.
 */
export async function liveSessionIds(em: EntityManager, sessionIds: string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const s = rowShape(em, LoginSession);
  const rows = await queryRows(em, `select ${s.column('id')} as id from ${s.table} where ${s.column('id')} = any($1::uuid[]) and ${s.column('expiresAt')} > now()`, [sessionIds]);
  return new Set(rows.map((row) => String(row.id)));
}
