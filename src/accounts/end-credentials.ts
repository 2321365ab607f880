import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * What a password reset or change may end beside sessions: the grants of the assistant connector and
 * the Public API keys. Both live above this hub (connector, api-keys), so they are named by their
 * entity names, not imported. Run inside the caller's transaction.
 */

/** Revokes every connector grant of the user: their connections and each token issued through one. */
export async function endConnectorGrants(em: EntityManager, userId: string, now = new Date()): Promise<void> {
  const connections = await em.find<{ id: string; userId: string }>('OAuthConnection', { userId });
  if (!connections.length) return;
  await em.nativeUpdate('OAuthConnection', { userId, revokedAt: null }, { revokedAt: now });
  await em.nativeUpdate('OAuthToken', { connectionId: { $in: connections.map((c) => c.id) }, revokedAt: null }, { revokedAt: now });
}

/** Revokes every Public API key of the user (the database tells each instance's key cache at once). */
export async function revokeApiKeys(em: EntityManager, userId: string, now = new Date()): Promise<void> {
  await em.nativeUpdate('ApiKey', { userId, revoked: false }, { revoked: true, revokedAt: now });
}
