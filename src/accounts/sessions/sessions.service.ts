import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError } from '../../core/errors.js';
import { LoginSession } from '../login-session.entity.js';
import { forgetSessionsHere } from '../session-auth.js';
import type { AccountSession } from './sessions.types.js';

/** The sessions list answers at most this many (newest first): more signed-in devices than anyone has. */
export const SESSIONS_SHOWN = 100;

/**
 * The person's signed-in sessions: list them and end them. Ending a session deletes its row, and every
 * request checks the row (session-auth.ts), so its cookie is refused from the next request on.
 */
export class SessionsService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, currentSessionId: string): Promise<AccountSession[]> {
    const rows = await this.em.find(LoginSession, { user: userId, expiresAt: { $gt: new Date() } }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: SESSIONS_SHOWN });
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt ?? null,
      userAgent: row.userAgent ?? null,
      ipRange: row.ipRange ?? null,
      current: row.id === currentSessionId,
    }));
  }

  /** Another person's session answers 404 like a missing one. */
  async revoke(userId: string, sessionId: string): Promise<Deleted> {
    const removed = await this.em.nativeDelete(LoginSession, { id: sessionId, user: userId });
    if (!removed) throw new NotFoundError('Session');
    forgetSessionsHere(userId);
    return deleted(sessionId, 'Session');
  }

  async revokeOthers(userId: string, currentSessionId: string): Promise<number> {
    const ended = await this.em.nativeDelete(LoginSession, { user: userId, id: { $ne: currentSessionId } });
    forgetSessionsHere(userId);
    return ended;
  }
}
