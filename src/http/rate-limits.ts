import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RedisClientType } from 'redis';
import type { Config } from '../core/config.js';
import { errorEnvelope } from '../../rest/envelope.js';

export interface LimiterStores {
  store(prefix: string): Store | undefined;
}

/** With REDIS_URL the counters live in Redis, so several instances share one limit. */
export function limiterStores(redis: RedisClientType | undefined): LimiterStores {
  return {
    store(prefix) {
      if (!redis) return undefined;
      return new RedisStore({
        prefix: `rl:${prefix}:`,
        sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
      });
    },
  };
}

function sessionLimiter(name: string, max: number, windowMs: number, stores: LimiterStores): RequestHandler {
  return rateLimit({
    windowMs,
    limit: max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    // The window is part of the key: instances share a counter only when they count the same window,
    // and a changed window starts fresh instead of inheriting the old window's expiry.
    store: stores.store(`${name}:${windowMs}`),
    handler(_req, res) {
      res.status(429).json(
        errorEnvelope({
          status: 429,
          code: 'RATE_LIMIT_EXCEEDED',
          message: `Too many requests: at most ${max} per ${Math.round(windowMs / 1000)} seconds`,
        }),
      );
    },
  });
}

/** The session API's global limiter and the stricter one on /auth routes (spec: Limits). */
export function sessionRateLimiters(config: Config, stores: LimiterStores): { global: RequestHandler; auth: RequestHandler } | null {
  const rl = config.rateLimit;
  if (rl.disabled) return null;
  return {
    global: sessionLimiter('session', rl.max, rl.windowMs, stores),
    auth: sessionLimiter('auth', rl.authMax, rl.authWindowMs, stores),
  };
}
