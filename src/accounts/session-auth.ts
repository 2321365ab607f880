import type { EntityManager } from '@mikro-orm/postgresql';
import type { Authenticated } from '../core/context.js';
import { LoginSession } from './login-session.entity.js';
import type { SessionTokens } from './session-token.js';

/** Reads the session cookie's JWT and checks its session still exists (one query). */
export async function authenticateSession(
  em: EntityManager,
  tokens: SessionTokens,
  token: string | undefined,
): Promise<Authenticated | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const session = await em.findOne(
    LoginSession,
    { id: claims.sessionId, user: claims.userId, expiresAt: { $gt: new Date() } },
    { populate: ['user'] },
  );
  return session ? { user: session.user, sessionId: session.id } : null;
}
