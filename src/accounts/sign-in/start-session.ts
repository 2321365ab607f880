import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext, AppDeps } from '../../core/context.js';
import { LoginSession } from '../login-session.entity.js';
import { SESSION_TTL_MS } from '../session-token.js';
import type { User } from '../user.entity.js';
import { ipRangeOf } from './ip-range.js';

/** What a new session remembers about where it was opened (shown in the sessions list). */
export interface SessionMeta {
  userAgent?: string;
  ip?: string;
}

export interface StartedSession {
  user: User;
  token: string;
  expiresAt: Date;
}

const USER_AGENT_MAX = 255;

/** The request's User-Agent and client address (express's `req.ip`, which follows TRUST_PROXY). */
export function sessionMetaOf(ctx: AppContext): SessionMeta {
  return { userAgent: ctx.http.userAgent, ip: ctx.http.ip };
}

/**
 * The one place a session begins: its row, then the cookie's JWT naming it. Every sign-in path (password,
 * second step, passkey, OpenID Connect, the connector's form) ends here, and only once every factor the
 * account asks for has passed.
 */
export async function startSession(em: EntityManager, deps: AppDeps, user: User, meta: SessionMeta): Promise<StartedSession> {
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const session = em.create(LoginSession, {
    user,
    expiresAt,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, USER_AGENT_MAX) : null,
    ipRange: ipRangeOf(meta.ip),
  });
  await em.flush();
  const token = await deps.sessionTokens.sign({ userId: user.id, sessionId: session.id }, expiresAt);
  return { user, token, expiresAt };
}
