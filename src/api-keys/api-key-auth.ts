import type { Orm } from '../core/database/orm.js';
import type { Logger } from '../core/logger.js';
import { hasFeature } from '../accounts/subscription.js';
import { API_KEY_PATTERN, hashApiKey } from './api-key-secret.js';
import { keyByHash, recordKeyUse, type KeyRow } from './api-key.queries.js';
import { forgetOwnerHere, OwnerCache } from '../core/database/owner-cache.js';

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

/** `Authorization: Bearer <key>` → the key, or why there is none. */
export function bearerKey(header: string | undefined): { key: string } | { reason: 'missing' | 'malformed' } {
  if (!header || !header.trim()) return { reason: 'missing' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!match || !API_KEY_PATTERN.test(match[1]!)) return { reason: 'malformed' };
  return { key: match[1]! };
}

/** Keys kept per instance at most (a full cache drops its oldest entry). */
export const KEY_CACHE_MAX = 10_000;
/** A cached lookup is read again after this long even without a notification (a safety net only). */
export const KEY_CACHE_TTL_MS = 10 * 60_000;
/** Channel the database NOTIFYs (with the owner's id) on every change to a key, a plan or a time zone. */
export const API_KEY_AUTH_CHANNEL = 'lp_api_key_auth';

/** Call after a change to a user's keys has committed (revoke, rotate, delete): this process forgets them at once. */
export function forgetApiKeysHere(userId: string): void {
  forgetOwnerHere(API_KEY_AUTH_CHANNEL, userId);
}

/**
 * Checks Public API keys: one indexed lookup by the key's hash (joined with the owner's plan and time
 * zone), cached per instance, and a debounced, fire-and-forget `lastUsedAt` update.
 *
 * The cache stops a revoked, rotated or deleted key, or a changed plan, at once on every instance: the
 * database NOTIFYs `lp_api_key_auth` with the owner's id on any such change, whoever makes it (triggers,
 * migration 20261124004800), and each instance drops that owner's keys when it arrives (core
 * OwnerCache: used only while it listens, a lookup in flight during a notification not kept). Expiry of
 * a key or of a plan is checked against the clock on every request, cached or not. An unknown key is
 * never cached (a key created a moment later must work).
 */
export class ApiKeyAuthenticator {
  private readonly touching = new Set<string>();
  private readonly cache: OwnerCache<KeyRow>;

  constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
    options: { cache?: boolean } = {},
  ) {
    const connectionString = options.cache !== false ? orm.config.get('clientUrl') : undefined;
    this.cache = new OwnerCache({ connectionString, channel: API_KEY_AUTH_CHANNEL, logger, maxEntries: KEY_CACHE_MAX, ttlMs: KEY_CACHE_TTL_MS });
  }

  /** Starts the invalidation listener (the cache is used once it listens). */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Keys cached now (tests). */
  get cachedKeys(): number {
    return this.cache.size;
  }

  private lookup(hash: string, now: Date): Promise<KeyRow | undefined> {
    return this.cache.get(hash, now.getTime(), async () => {
      const row = await keyByHash(this.orm.em, hash);
      return row && { ownerId: row.user_id, value: row };
    });
  }

  async check(authorization: string | undefined, now = new Date()): Promise<ApiKeyCheck> {
    const bearer = bearerKey(authorization);
    if ('reason' in bearer) return { ok: false, reason: bearer.reason };
    const row = await this.lookup(hashApiKey(bearer.key), now);
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked) return { ok: false, reason: 'revoked' };
    if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    const owner = { plan: row.plan, planExpiresAt: row.plan_expires_at };
    if (!hasFeature(owner, 'api_keys', now)) return { ok: false, reason: 'plan_lapsed' };
    this.touch(row, now);
    return { ok: true, auth: { keyId: row.id, userId: row.user_id, timezone: row.timezone ?? 'UTC' } };
  }

  private touch(row: KeyRow, now: Date): void {
    const last = row.last_used_at ? row.last_used_at.getTime() : 0;
    if (now.getTime() - last < LAST_USED_DEBOUNCE_MS || this.touching.has(row.id)) return;
    this.touching.add(row.id);
    // The cached row remembers the use, so the next requests of the window skip this.
    row.last_used_at = now;
    // Only moves forward, so a slow write cannot set an older time over a newer one.
    recordKeyUse(this.orm.em, row.id, now, new Date(now.getTime() - LAST_USED_DEBOUNCE_MS))
      .catch((error: unknown) => this.logger.warn({ err: error, keyId: row.id }, 'could not record API key use'))
      .finally(() => {
        // Keep the key marked for the debounce window so concurrent requests do not repeat the write.
        setTimeout(() => this.touching.delete(row.id), LAST_USED_DEBOUNCE_MS).unref();
      });
  }
}

declare module '../core/context.js' {
  interface AppContext {
    /** Set only on the Public API surface (`/api/public/v1`), from `Authorization: Bearer <key>`. */
    apiKey?: ApiKeyAuth | null;
  }
}
