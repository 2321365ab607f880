import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { AuthToken, type AuthTokenKind } from './auth-token.entity.js';
import { LoginSession } from './login-session.entity.js';
import { User } from './user.entity.js';

/** The accounts domain's hand-written SQL. */

export interface TokenForEmail {
  email: string;
  kind: AuthTokenKind;
  hash: string;
  expiresAt: Date;
  /** Only for an account whose email is not verified yet. */
  onlyUnverified: boolean;
}

/**
 * Inserts a mail token for the account with this address, if there is one, in one statement that
 * runs the same whether or not it inserts (so the answer's timing does not tell). True when it did.
 */
export async function insertTokenForEmail(em: EntityManager, { email, kind, hash, expiresAt, onlyUnverified }: TokenForEmail): Promise<boolean> {
  const t = rowShape(em, AuthToken);
  const u = rowShape(em, User);
  const unverified = onlyUnverified ? ` and u.${u.column('emailVerifiedAt')} is null` : '';
  const rows = await em.getConnection().execute<unknown[]>(
    `insert into ${t.table} (${t.column('id')}, ${t.column('user')}, ${t.column('kind')}, ${t.column('tokenHash')}, ${t.column('expiresAt')}, ${t.column('createdAt')}) ` +
      `select ?, u.${u.column('id')}, ?, ?, ?, now() from ${u.table} as u where u.${u.column('email')} = ?${unverified} returning ${t.column('id')}`,
    [randomUUID(), kind, hash, expiresAt, email],
  );
  return rows.length > 0;
}

/** A session's `lastUsedAt` is written at most this often (the sessions list needs minutes, not requests). */
export const SESSION_TOUCH_INTERVAL_SECONDS = 60;

/**
 * The user of a session that still exists and has not expired, as a plain (unmanaged) User, or null.
 * One statement: every signed-in request runs it. It also stamps the session's `lastUsedAt` when that
 * is over a minute old, in the same statement (a data-modifying CTE, which runs whether or not the
 * select reads it): no round trip is added, and a write happens once a minute per session at most.
 */
export async function liveSessionUser(em: EntityManager, sessionId: string, userId: string): Promise<User | null> {
  const session = rowShape(em, LoginSession);
  const user = rowShape(em, User);
  const lastUsed = session.column('lastUsedAt');
  const [row] = await queryRows(
    em,
    `with touched as (update ${session.table} set ${lastUsed} = now() where id = $1 and ${session.column('user')} = $2 and ${session.column('expiresAt')} > now()` +
      ` and (${lastUsed} is null or ${lastUsed} < now() - interval '${SESSION_TOUCH_INTERVAL_SECONDS} seconds'))` +
      ` select ${user.columns('u')} from ${session.table} as s join ${user.table} as u on u.id = s.${session.column('user')}` +
      ` where s.id = $1 and s.${session.column('user')} = $2 and s.${session.column('expiresAt')} > now()`,
    [sessionId, userId],
  );
  return row ? user.toEntity(row) : null;
}
