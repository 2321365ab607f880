import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { ALL_SCOPES, allows, isScope, normalizeScopes } from '../scopes/connector-scopes.js';
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

  /** Keeps only `scopes` of the connection's grant; its tokens are held to the narrower grant from the next call. */
  async narrow(userId: string, connectionId: string, scopes: string[]): Promise<OAuthConnection> {
    return this.em.transactional(async (em) => {
      const row = await em.findOne(OAuthConnection, { id: connectionId, userId, revokedAt: null });
      if (!row) throw new NotFoundError('Connection');
      const errors: FieldError[] = scopes.flatMap((scope, index) =>
        !isScope(scope)
          ? [{ path: ['scopes', index], message: `${scope} is not a scope (${ALL_SCOPES.join(', ')})` }]
          : !allows(row.scopes, scope)
            ? [{ path: ['scopes', index], message: `${scope} is not granted to this connection: a wider grant needs a new consent` }]
            : [],
      );
      if (errors.length) throw new ValidationError(errors.map((e) => e.message).join('; '), errors);
      row.scopes = normalizeScopes(scopes);
      return row;
    });
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
