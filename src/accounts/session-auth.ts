import type { EntityManager } from '@mikro-orm/postgresql';
import type { Authenticated } from '../core/context.js';
import { liveSessionUser } from './accounts.queries.js';
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
  const user = await liveSessionUser(em, claims.sessionId, claims.userId);
  return user ? { user: em.merge(User, user), sessionId: claims.sessionId } : null;
}

declare module '../core/context.js' {
  interface Authenticated {
    user: User;
  }
}
