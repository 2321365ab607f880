import type { EntityManager } from '@mikro-orm/postgresql';

/** The connector's token store SQL: lookups joined with the connection and the user's plan, and the sweeps. */

export interface TokenRow {
  id: string;
  kind: string;
  client_id: string;
  resource: string;
  expires_at: Date;
  revoked_at: Date | null;
  connection_id: string;
  connection_revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: string;
  plan: 'free' | 'pro';
  plan_expires_at: Date | null;
  /** The token's scopes (null: issued before scopes existed) and the connection's current grant. */
  scopes: string[] | null;
  connection_scopes: string[];
}

/** Removes clients registered more than `hours` ago that nobody approved (no connection). */
export async function deleteUnapprovedClients(em: EntityManager, hours: number): Promise<void> {
  await em.getConnection().execute(
    `delete from oauth_clients c where c.created_at < now() - make_interval(hours => ?)
       and not exists (select 1 from oauth_connections k where k.client_id = c.id)`,
    [hours],
  );
}

/** A connection's revocation and its user's plan, the connection row share-locked for the grant's transaction. */
export async function connectionStanding(
  em: EntityManager,
  connectionId: string,
): Promise<{ revoked_at: Date | null; plan: 'free' | 'pro'; plan_expires_at: Date | null } | undefined> {
  const [row] = await em.execute<{ revoked_at: Date | null; plan: 'free' | 'pro'; plan_expires_at: Date | null }[]>(
    'select c.revoked_at, u.plan, u.plan_expires_at from oauth_connections c join users u on u.id = c.user_id where c.id = ? for share of c',
    [connectionId],
  );
  return row;
}

/** The token with this hash, with its connection and the user's plan: one indexed lookup. */
export async function tokenByHash(em: EntityManager, tokenHash: string): Promise<TokenRow | undefined> {
  const rows: TokenRow[] = await em.getConnection().execute(
    `select t.id, t.kind, t.client_id, t.resource, t.expires_at, t.revoked_at, t.connection_id, t.scopes,
            c.revoked_at as connection_revoked_at, c.last_used_at, c.user_id, c.scopes as connection_scopes, u.plan, u.plan_expires_at
       from oauth_tokens t join oauth_connections c on c.id = t.connection_id join users u on u.id = c.user_id
      where t.token_hash = ? limit 1`,
    [tokenHash],
  );
  return rows[0];
}

/** Records a connection's use, at most once a minute. */
export async function recordConnectionUse(em: EntityManager, connectionId: string): Promise<void> {
  await em
    .getConnection()
    .execute("update oauth_connections set last_used_at = now() where id = ? and (last_used_at is null or last_used_at < now() - interval '1 minute')", [connectionId]);
}
