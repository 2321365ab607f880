import express, { Router, type Request, type RequestHandler } from 'express';
import type { AppDeps } from '../../core/context.js';
import type { Logger } from '../../core/logger.js';
import type { LimiterStores } from '../../http/rate-limits.js';
import { mcpCallLimit } from './mcp-call-limit.js';

/**
 * The MCP server, its tools (with their zod schemas) and the SDK's transport are loaded on the first
 * POST /mcp, not at start-up (issue 18: the SDK and zod are ~250 modules no other request needs).
 */
let runtime: Promise<[typeof import('./mcp-server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const mcpRuntime = () => (runtime ??= Promise.all([import('./mcp-server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/**
 * `/mcp`: the Streamable HTTP transport in stateless mode (a server and transport per POST, JSON
 * answers). `requireToken` (the connector's bearer check) runs first on every method, then the call
 * limit (mcp-call-limit.ts); GET and DELETE
 * (server-sent streams and sessions) answer 405.
 */
export function mcpRoutes(deps: AppDeps, requireToken: RequestHandler, options: { maxBodyBytes: number; version: string; stores: LimiterStores }): Router {
  const router = Router();
  const callLimit = mcpCallLimit(deps.config, options.stores.store(`mcp:${deps.config.rateLimit.windowMs}`));
  router.post('/', requireToken, express.json({ limit: options.maxBodyBytes }), callLimit, async (req, res, next) => {
    const userId = String(req.auth?.extra?.userId);
    const log = (req as Request & { log?: Logger }).log ?? deps.logger;
    try {
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await mcpRuntime();
      const server = createMcpServer(deps, userId, req.auth?.scopes ?? [], log, options.version);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  });
  router.all('/', requireToken, (_req, res) => {
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  });
  return router;
}
