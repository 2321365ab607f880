import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import type { LimiterStores, SessionLimiters } from '../http/rate-limits.js';
import { connectorOAuth, MCP_PATH } from './oauth/index.js';
import { mcpRoutes } from './mcp/mcp.http.js';

/**
 * The assistant connector, mounted at the root: its OAuth authorization server (`/authorize`,
 * `/token`, `/register`, `/revoke`, the `/.well-known/…` documents) and the MCP endpoint `/mcp`.
 */
export function connectorRoutes(
  deps: AppDeps,
  options: { limiters: SessionLimiters | null; stores: LimiterStores; maxBodyBytes: number; version: string },
): Router {
  const oauth = connectorOAuth(deps, options);
  const router = Router();
  router.use(oauth.router);
  router.use(MCP_PATH, mcpRoutes(deps, oauth.requireToken, options));
  return router;
}
