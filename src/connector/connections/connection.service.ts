import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../../core/errors.js';
import type { Deleted } from '../../core/deleted.js';
import { OAuthConnection } from '../oauth/oauth-connection.entity.js';
import { OAuthToken } from '../oauth/oauth-grant.entity.js';

/** Active connections the list answers, newest first (each assistant a user connects is one). */
export const CONNECTIONS_SHOWN = 100;

/**
 * The assistants a user connected. Listing shows the active connections; revoking one ends every
 * token issued through it at once (the bearer check reads the connection on each call). Another
 * user's connection is NOT_FOUND, like a missing one. Both stay open whatever the plan, so a user
 * whose plan lapsed can still clean up.
 */
export class ConnectionService {
  constructor(private readonly em: EntityManager) {}

  list(userId: string): Promise<OAuthConnection[]> {
    return this.em.find(OAuthConnection, { userId, revokedAt: null }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: CONNECTIONS_SHOWN });
  }

  async revoke(userId: string, connectionId: string): Promise<Deleted> {
    return this.em.transactional(async (em) => {
      const row = await em.findOne(OAuthConnection, { id: connectionId, userId, revokedAt: null });
      if (!row) throw new NotFoundError('Connection');
      const now = new Date();
      row.revokedAt = now;
      await em.nativeUpdate(OAuthToken, { connectionId: row.id, revokedAt: null }, { revokedAt: now });
      return { id: row.id, message: 'Connection revoked' };
    });
  }
}
