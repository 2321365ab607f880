import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../core/config.js';
import type { LimiterStores } from '../http/rate-limits.js';
import type { ApiKeyAuth } from '../api-keys/api-key-auth.js';
import { API_KEY_LOCAL } from './public-auth.js';

/** The 429 body of the spec, exactly: not the error envelope. */
export interface RateLimitBody {
  statusCode: 429;
  error: 'RATE_LIMIT_EXCEEDED';
  message: string;
  retryAfter: number;
}

export function rateLimitMessage(max: number, windowMs: number): string {
  return `Rate limit exceeded: at most ${max} requests per ${Math.round(windowMs / 1000)} seconds for this API key`;
}

/**
 * RATE_LIMIT_PUBLIC_API_MAX requests per RATE_LIMIT_PUBLIC_API_TIME_WINDOW per API key (not per IP),
 * counted in Redis when REDIS_URL is set so instances share the count. Every counted answer carries
 * `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` (Unix seconds); a 429 adds
 * `retry-after`. Runs after key authentication; null when DISABLE_RATE_LIMIT is true.
 */
export function publicApiRateLimiter(config: Config, stores: LimiterStores): RequestHandler | null {
  const rl = config.rateLimit;
  if (rl.disabled) return null;
  const max = rl.publicApiMax;
  const windowMs = rl.publicApiWindowMs;
  return rateLimit({
    windowMs,
    limit: max,
    // x-ratelimit-* with the reset as Unix seconds (the spec's names), and Retry-After on 429.
    legacyHeaders: true,
    standardHeaders: false,
    // Same key format as the session limiters: rl:<name>:<window>:<key id>. The key's id, never the key.
    store: stores.store(`public:${windowMs}`),
    keyGenerator: (_req: Request, res: Response) => (res.locals[API_KEY_LOCAL] as ApiKeyAuth).keyId,
    handler(req: Request, res: Response) {
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : Math.ceil(windowMs / 1000);
      res.setHeader('Retry-After', String(retryAfter));
      const body: RateLimitBody = { statusCode: 429, error: 'RATE_LIMIT_EXCEEDED', message: rateLimitMessage(max, windowMs), retryAfter };
      res.status(429).json(body);
    },
  });
}
