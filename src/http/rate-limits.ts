import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RedisClientType } from 'redis';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { errorEnvelope } from './envelope.js';
import { RateLimitError } from '../core/errors.js';
import { FailoverStore } from './failover-store.js';

export interface LimiterStores {
  store(prefix: string): Store | undefined;
}

/**
 * With REDIS_URL the counters live in Redis, so several instances share one limit; while Redis is
 * unavailable they fall back to this instance's memory (FailoverStore), so an outage of Redis never
 * refuses or delays a request.
 */
export function limiterStores(redis: RedisClientType | undefined, logger: Logger): LimiterStores {
  return {
    store(prefix) {
      if (!redis) return undefined;
      const shared = new RedisStore({
        prefix: `rl:${prefix}:`,
        sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
      });
      return new FailoverStore(shared, () => redis.isReady, logger, prefix);
    },
  };
}

/**
 * The client a limit counts: the address express derives (`req.ip`, which follows TRUST_PROXY), an
 * IPv6 client by its /56 as express-rate-limit does by default.
 */
export function clientKey(ip: string | undefined): string {
  return ip ? ipKeyGenerator(ip) : 'unknown';
}

function limitMessage(max: number, windowMs: number): string {
  return `Too many requests: at most ${max} per ${Math.round(windowMs / 1000)} seconds`;
}

function sessionLimiter(max: number, windowMs: number, store: Store | undefined): RequestHandler {
  return rateLimit({
    windowMs,
    limit: max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    // The window is part of the key: instances share a counter only when they count the same window,
    // and a changed window starts fresh instead of inheriting the old window's expiry.
    store,
    keyGenerator: (req: Request) => clientKey(req.ip),
    // The check reads the key generator's source for ipKeyGenerator; clientKey calls it.
    validate: { keyGeneratorIpFallback: false },
    handler(_req, res) {
      res.status(429).json(errorEnvelope(new RateLimitError(limitMessage(max, windowMs))));
    },
  });
}

/** One counted auth operation: refused when over the limit, with the seconds until the window ends. */
export type AuthHit = { limited: false } | { limited: true; message: string; retryAfterSeconds: number; max: number };

export interface SessionLimiters {
  global: RequestHandler;
  /** The auth limit as middleware, for the REST routes of auth mutations. */
  auth: RequestHandler;
  /** The public Brain form routes (REST and page): the auth routes' limit, counted apart. */
  publicForms: RequestHandler;
  /** Counts one auth mutation of a client (GraphQL, where one request may carry it by hash alone). */
  hitAuth(ip: string | undefined): Promise<AuthHit>;
  /**
   * Counts one WebSocket upgrade of a person (upgrades never pass express's limiters): the global
   * limit, counted per person in the global store (shared through Redis). True when over it.
   */
  hitSocketOpen(userId: string): Promise<boolean>;
}

/** The session API's global limiter and the stricter one on auth mutations (spec: Limits). */
export function sessionRateLimiters(config: Config, stores: LimiterStores): SessionLimiters | null {
  const rl = config.rateLimit;
  if (rl.disabled) return null;
  // One store for both ways of counting auth operations, so they share a counter.
  const authStore = stores.store(`auth:${rl.authWindowMs}`) ?? new MemoryStore();
  const auth = sessionLimiter(rl.authMax, rl.authWindowMs, authStore);
  const globalStore = stores.store(`session:${rl.windowMs}`) ?? new MemoryStore();
  return {
    global: sessionLimiter(rl.max, rl.windowMs, globalStore),
    auth,
    publicForms: sessionLimiter(rl.authMax, rl.authWindowMs, stores.store(`brain-public:${rl.authWindowMs}`)),
    async hitAuth(ip) {
      const { totalHits, resetTime } = await authStore.increment(clientKey(ip));
      if (totalHits <= rl.authMax) return { limited: false };
      const retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + rl.authWindowMs) - Date.now()) / 1000));
      return { limited: true, message: limitMessage(rl.authMax, rl.authWindowMs), retryAfterSeconds, max: rl.authMax };
    },
    async hitSocketOpen(userId) {
      const { totalHits } = await globalStore.increment(`live-socket:${userId}`);
      return totalHits > rl.max;
    },
  };
}
