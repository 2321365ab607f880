import type { RequestHandler } from 'express';
import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { Config } from '../../core/config.js';

/** At most this many JSON-RPC messages in one POST /mcp (the SDK's clients send one at a time). */
export const MCP_MAX_BATCH = 20;

const rpcError = (message: string) => ({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/**
 * The connector's call limit: every JSON-RPC message counts, batched or not, against its user (the
 * token's), at the session API's numbers (RATE_LIMIT_MAX per RATE_LIMIT_TIME_WINDOW): an assistant
 * works for one person, so one person's budget. Over it: 429 with Retry-After and a JSON-RPC error.
 * A batch over MCP_MAX_BATCH messages is refused whole (400, JSON-RPC "Invalid Request"). Runs after
 * the bearer check and the JSON body parser. No limit with DISABLE_RATE_LIMIT.
 */
export function mcpCallLimit(config: Config, store: Store | undefined): RequestHandler {
  const rl = config.rateLimit;
  const counter = store ?? new MemoryStore();
  void counter.init?.({ windowMs: rl.windowMs } as Options);
  return async (req, res, next) => {
    const messages = Array.isArray(req.body) ? req.body.length : 1;
    if (messages > MCP_MAX_BATCH) {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: at most ${MCP_MAX_BATCH} messages in a batch` }, id: null });
      return;
    }
    if (rl.disabled) return next();
    try {
      const key = String(req.auth?.extra?.userId);
      let hits = { totalHits: 0, resetTime: undefined as Date | undefined };
      for (let i = 0; i < messages; i++) hits = await counter.increment(key);
      if (hits.totalHits <= rl.max) return next();
      const retryAfter = Math.max(1, Math.ceil(((hits.resetTime?.getTime() ?? Date.now() + rl.windowMs) - Date.now()) / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      res.status(429).json(rpcError(`Too many requests: at most ${rl.max} calls per ${Math.round(rl.windowMs / 1000)} seconds`));
    } catch (error) {
      next(error);
    }
  };
}
