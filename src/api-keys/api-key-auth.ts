import type { Orm } from '../core/database/orm.js';
import type { Logger } from '../core/logger.js';
import { hasFeature } from '../accounts/subscription.js';
import { API_KEY_PATTERN, hashApiKey } from './api-key-secret.js';

/** Who a valid API key speaks for. */
export interface ApiKeyAuth {
  keyId: string;
  userId: string;
  /** The owner's time zone setting, read in the same query (saves the Public API a lookup for "today"). */
  timezone: string;
}

export type ApiKeyRefusal = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' | 'plan_lapsed';

export type ApiKeyCheck = { ok: true; auth: ApiKeyAuth } | { ok: false; reason: ApiKeyRefusal };

/** `lastUsedAt` is written at most this often per key, so a busy key costs no write per request. */
export const LAST_USED_DEBOUNCE_MS = 60_000;

interface KeyRow {
  id: string;
  user_id: string;
  revoked: boolean;
  expires_at: Date | null;
  last_used_at: Date | null;
  plan: 'free' | 'pro';
  plan_expires_at: Date | null;
  timezone: string | null;
}

/** `Authorization: Bearer <key>` → the key, or why there is none. */
export function bearerKey(header: string | undefined): { key: string } | { reason: 'missing' | 'malformed' } {
  if (!header || !header.trim()) return { reason: 'missing' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!match || !API_KEY_PATTERN.test(match[1]!)) return { reason: 'malformed' };
  return { key: match[1]! };
}

/**
 * Checks Public API keys: one indexed lookup by the key's hash (joined with the owner's plan), and a
 * debounced, fire-and-forget `lastUsedAt` update. A revoked, expired or unknown key, or an owner whose
 * plan no longer includes API keys, is refused at once; nothing is cached, so a revocation made by any
 * instance takes effect on the next request everywhere.
 */
export class ApiKeyAuthenticator {
  private readonly touching = new Set<string>();

  constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
  ) {}

  async check(authorization: string | undefined, now = new Date()): Promise<ApiKeyCheck> {
    const bearer = bearerKey(authorization);
    if ('reason' in bearer) return { ok: false, reason: bearer.reason };
    const rows: KeyRow[] = await this.orm.em.getConnection().execute(
      `select k.id, k.user_id, k.revoked, k.expires_at, k.last_used_at, u.plan, u.plan_expires_at, s.timezone
         from api_keys k join users u on u.id = k.user_id left join user_settings s on s.user_id = k.user_id
        where k.key_hash = ? limit 1`,
      [hashApiKey(bearer.key)],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked) return { ok: false, reason: 'revoked' };
    if (row.expires_at && new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    const owner = { plan: row.plan, planExpiresAt: row.plan_expires_at ? new Date(row.plan_expires_at) : null };
    if (!hasFeature(owner, 'api_keys', now)) return { ok: false, reason: 'plan_lapsed' };
    this.touch(row, now);
    return { ok: true, auth: { keyId: row.id, userId: row.user_id, timezone: row.timezone ?? 'UTC' } };
  }

  private touch(row: KeyRow, now: Date): void {
    const last = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
    if (now.getTime() - last < LAST_USED_DEBOUNCE_MS || this.touching.has(row.id)) return;
    this.touching.add(row.id);
    // Only moves forward, so a slow write cannot set an older time over a newer one.
    this.orm.em
      .getConnection()
      .execute('update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)', [
        now,
        row.id,
        new Date(now.getTime() - LAST_USED_DEBOUNCE_MS),
      ])
      .catch((error: unknown) => this.logger.warn({ err: error, keyId: row.id }, 'could not record API key use'))
      .finally(() => {
        // Keep the key marked for the debounce window so concurrent requests do not repeat the write.
        setTimeout(() => this.touching.delete(row.id), LAST_USED_DEBOUNCE_MS).unref();
      });
  }
}
