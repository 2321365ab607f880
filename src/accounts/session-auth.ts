import type { EventArgs, EventSubscriber } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Authenticated } from '../core/context.js';
import type { Orm } from '../core/database/orm.js';
import type { Logger } from '../core/logger.js';
import { forgetOwnerHere, OwnerCache } from '../core/database/owner-cache.js';
import { liveSessionUser } from './accounts.queries.js';
import type { SessionTokens } from './session-token.js';
import { User } from './user.entity.js';

/**
 * Reads the session cookie's JWT and checks its session still exists (one statement). The user row is
 * merged into the request's entity manager as a managed entity, as services expect. Uncached: the
 * service's requests go through `SessionAuthenticator`.
 */
export async function authenticateSession(
  em: EntityManager,
  tokens: SessionTokens,
  token: string | undefined,
): Promise<Authenticated | null> {
  if (!token) return null;
  const claims = tokens.verify(token);
  if (!claims) return null;
  const user = await liveSessionUser(em, claims.sessionId, claims.userId);
  return user ? { user: em.merge(User, user), sessionId: claims.sessionId } : null;
}

/** Channel the database NOTIFYs (with the user's id) when a session ends or changes, or the user row does. */
export const SESSION_AUTH_CHANNEL = 'lp_session_auth';
/** Sessions kept per instance at most (a full cache drops its oldest entry). */
export const SESSION_CACHE_MAX = 10_000;
/**
 * A cached session is checked against the database again after this long. Short: the check also stamps
 * `lastUsedAt` (once a minute at most), which the sessions list shows.
 */
export const SESSION_CACHE_TTL_MS = 30_000;

interface CachedSession {
  sessionId: string;
  /** The user row as read (copied into each request's entity manager, never handed out itself). */
  user: User;
}

/** Call after a change that ends a user's sessions has committed (logout, revoke, password change, deletion). */
export function forgetSessionsHere(userId: string): void {
  forgetOwnerHere(SESSION_AUTH_CHANNEL, userId);
}

/**
 * Checks every signed-in request's session: the token verified and its session and user read once, then
 * kept per instance for a few seconds by token (issue 36: a hit costs neither an HMAC nor a statement).
 * An ended session stops at once on every instance: the database NOTIFYs `lp_session_auth` with the
 * user's id when a session is deleted or its expiry or owner changes, and on any change to the user row
 * (password, email, plan, deletion), whoever makes it (triggers, migration 20261128140000); each
 * instance drops that user's sessions. A token's own expiry ends its entry.
 */
export class SessionAuthenticator {
  private readonly cache: OwnerCache<CachedSession>;

  constructor(
    orm: Orm,
    private readonly tokens: SessionTokens,
    logger: Logger,
  ) {
    this.cache = new OwnerCache({ connectionString: orm.config.get('clientUrl'), channel: SESSION_AUTH_CHANNEL, logger, maxEntries: SESSION_CACHE_MAX, ttlMs: SESSION_CACHE_TTL_MS });
    orm.em.getEventManager().registerSubscriber(new UserRowChanges());
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Sessions cached now (tests). */
  get cachedSessions(): number {
    return this.cache.size;
  }

  async authenticate(em: EntityManager, token: string | undefined, now = Date.now()): Promise<Authenticated | null> {
    if (!token) return null;
    const session = await this.cache.get(token, now, async () => {
      const claims = this.tokens.verify(token, now);
      if (!claims) return undefined;
      const user = await liveSessionUser(em, claims.sessionId, claims.userId);
      return user ? { ownerId: claims.userId, value: { sessionId: claims.sessionId, user }, until: claims.expiresAtMs } : undefined;
    });
    // A copy per request: the entity manager takes over what it merges.
    return session ? { user: em.merge(User, { ...session.user }), sessionId: session.sessionId } : null;
  }
}

/**
 * A user row changed through the ORM (email verified, password, plan): this instance forgets the user's
 * sessions as the flush writes it, so its next request reads the row again; the trigger's NOTIFY after
 * the commit reaches every instance (and drops anything read here before the commit).
 */
class UserRowChanges implements EventSubscriber<User> {
  getSubscribedEntities() {
    return [User];
  }

  afterUpdate(args: EventArgs<User>): void {
    forgetSessionsHere(args.entity.id);
  }

  afterDelete(args: EventArgs<User>): void {
    forgetSessionsHere(args.entity.id);
  }
}

declare module '../core/context.js' {
  interface Authenticated {
    user: User;
  }
}
