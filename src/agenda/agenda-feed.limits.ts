import type { RequestHandler, Response } from 'express';
import { MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { Config } from '../core/config.js';
import { errorEnvelope } from '../http/envelope.js';
import { RateLimitError } from '../core/errors.js';
import { clientKey, type LimiterStores } from '../http/rate-limits.js';

/**
 * One feed is fetched by its calendar app every 5 minutes to a few hours; 60 in an hour leaves room
 * for several devices subscribed to it and manual refreshes, and bounds what a leaked URL costs.
 */
export const FEED_FETCHES_PER_TOKEN = 60;
export const FEED_TOKEN_WINDOW_MS = 3_600_000;

export interface FeedLimiters {
  /** Every fetch of an address, at the session API's limit (RATE_LIMIT_MAX per RATE_LIMIT_TIME_WINDOW). */
  byAddress: RequestHandler[];
  /**
   * Counts an unknown token from this address (at the auth limit, as password guesses are): answers
   * 429 and returns true past it. Only misses count, so a storm of made-up tokens is refused while the
   * real feeds fetched from the same address (a household, a calendar service) still answer.
   */
  missLimited(ip: string | undefined, res: Response): Promise<boolean>;
  /** Counts a fetch of this feed; answers 429 and returns true past FEED_FETCHES_PER_TOKEN an hour. */
  tokenLimited(userId: string, res: Response): Promise<boolean>;
}

function tooMany(res: Response, max: number, windowMs: number, retryAfterSeconds: number): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(429).json(errorEnvelope(new RateLimitError(`Too many requests: at most ${max} per ${Math.round(windowMs / 1000)} seconds`)));
}

/** A counter the route consults itself (after it knows whether the token was known). */
function counted(store: Store | undefined, max: number, windowMs: number): (key: string, res: Response) => Promise<boolean> {
  const counter = store ?? new MemoryStore();
  void counter.init?.({ windowMs } as Options);
  return async (key, res) => {
    const { totalHits, resetTime } = await counter.increment(key);
    if (totalHits <= max) return false;
    tooMany(res, max, windowMs, Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000)));
    return true;
  };
}

/** The calendar feed's limits (docs/agenda.md, "Calendar feed"); none with DISABLE_RATE_LIMIT. */
export function feedLimiters(config: Config, stores: LimiterStores): FeedLimiters {
  const rl = config.rateLimit;
  if (rl.disabled) return { byAddress: [], missLimited: async () => false, tokenLimited: async () => false };
  const misses = counted(stores.store(`feed-miss:${rl.authWindowMs}`), rl.authMax, rl.authWindowMs);
  const fetches = counted(stores.store(`feed-token:${FEED_TOKEN_WINDOW_MS}`), FEED_FETCHES_PER_TOKEN, FEED_TOKEN_WINDOW_MS);
  return {
    byAddress: [
      rateLimit({
        windowMs: rl.windowMs,
        limit: rl.max,
        standardHeaders: 'draft-6',
        legacyHeaders: false,
        store: stores.store(`feed:${rl.windowMs}`),
        keyGenerator: (req) => clientKey(req.ip),
        validate: { keyGeneratorIpFallback: false },
        handler: (_req, res) => tooMany(res, rl.max, rl.windowMs, Math.ceil(rl.windowMs / 1000)),
      }),
    ],
    missLimited: (ip, res) => misses(clientKey(ip), res),
    tokenLimited: (userId, res) => fetches(userId, res),
  };
}
