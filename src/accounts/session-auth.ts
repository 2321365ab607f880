import type { EntityManager } from '@mikro-orm/postgresql';
import type { Authenticated } from '../core/context.js';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { LoginSession } from './login-session.entity.js';
import type { SessionTokens } from './session-token.js';
import { User } from './user.entity.js';

/**
 * Reads the session cookie's JWT and checks its session still exists (one statement). Every signed-in
 * request runs this, so it is one plain query rather than an ORM find; the user row is then merged into
 * the request's entity manager as a managed entity, as services expect.
 */
export async function authenticateSession(
  em: EntityManager,
  tokens: SessionTokens,
  token: string | undefined,
): Promise<Authenticated | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const session = rowShape(em, LoginSession);
  const user = rowShape(em, User);
  const [row] = await queryRows(
    em,
    `select ${user.columns('u')} from ${session.table} as s join ${user.table} as u on u.id = s.${session.column('user')}` +
      ` where s.id = $1 and s.${session.column('user')} = $2 and s.${session.column('expiresAt')} > now()`,
    [claims.sessionId, claims.userId],
  );
  return row ? { user: em.merge(User, user.toEntity(row)), sessionId: claims.sessionId } : null;
}

declare module '../core/context.js' {
  interface Authenticated {
    user: User;
  }
}
