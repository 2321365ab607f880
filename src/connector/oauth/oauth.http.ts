import express, { Router, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AppDeps } from '../../core/context.js';
import { clientKey, type LimiterStores, type SessionLimiters } from '../../http/rate-limits.js';
import { ALL_SCOPES } from '../scopes/connector-scopes.js';
import { authorizeGuard } from './authorize-guard.js';
import { registrationPolicy } from './client-registration.js';
import { ConnectorOAuthProvider } from './oauth-provider.js';
import { hashSecret } from './oauth-secrets.js';

/** Paths the SDK's router answers (it is mounted at the root; other requests never enter it). */
const SDK_PATHS = new Set(['/authorize', '/token', '/register', '/revoke', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp']);

export const MCP_PATH = '/mcp';

/** What depends on BASE_URL: the SDK's router, the two metadata documents and the bearer check. */
interface OAuthParts {
  sdk: RequestHandler;
  asMetadata: object;
  prMetadata: object;
  bearer: RequestHandler;
}

export interface ConnectorOAuth {
  router: Router;
  /** Bearer check for `/mcp`: 401 with `WWW-Authenticate` naming the resource metadata otherwise. */
  requireToken: RequestHandler;
}

/**
 * Per-IP limits of the OAuth endpoints (the session API's settings): /token and /register count like
 * the auth routes, /authorize and /revoke like the global limit. A refusal is an OAuth error body.
 * Made here, at start-up (the SDK's own limiters are turned off: they keep counters in memory only).
 */
function limits(deps: AppDeps, stores: LimiterStores): { auth: RequestHandler; global: RequestHandler } | null {
  const rl = deps.config.rateLimit;
  if (rl.disabled) return null;
  const limiter = (name: string, limit: number, windowMs: number): RequestHandler => {
    const store = stores.store(`oauth-${name}:${windowMs}`);
    return rateLimit({
      windowMs,
      limit,
      standardHeaders: 'draft-6',
      legacyHeaders: false,
      keyGenerator: (req) => clientKey(req.ip),
      validate: { keyGeneratorIpFallback: false },
      ...(store ? { store } : {}),
      handler(_req, res) {
        res.status(429).json({ error: 'too_many_requests', error_description: `Too many requests: at most ${limit} per ${Math.round(windowMs / 1000)} seconds` });
      },
    });
  };
  return { auth: limiter('auth', rl.authMax, rl.authWindowMs), global: limiter('global', rl.max, rl.windowMs) };
}

/**
 * The connector's authorization server: the MCP SDK's router (its handlers for /authorize, /token,
 * /register, /revoke) over our PostgreSQL provider, plus the metadata documents served here with
 * BASE_URL as the issuer, at every path the contract names. This module is the only user of the
 * SDK's server-side auth helpers (its next major drops them).
 */
export function connectorOAuth(deps: AppDeps, options: { limiters: SessionLimiters | null; stores: LimiterStores }): ConnectorOAuth {
  const base = () => deps.config.baseUrl;
  const resource = () => base() + MCP_PATH;
  const csrf = deps.formCsrf;
  const provider = new ConnectorOAuthProvider({ deps, resource, csrf, limiters: options.limiters });
  const limit = limits(deps, options.stores);

  // BASE_URL is final only once the server listens: the SDK router and documents are made on first use.
  // The SDK's router (its handlers and their zod schemas, ~250 modules) is loaded then too (issue 18:
  // a start does not load what no request has needed yet).
  let built: { base: string; parts: Promise<OAuthParts> } | undefined;
  const current = (): Promise<OAuthParts> => {
    if (built?.base !== base()) built = { base: base(), parts: buildParts() };
    return built.parts;
  };
  const buildParts = async (): Promise<OAuthParts> => {
    const { createOAuthMetadata, mcpAuthRouter } = await import('@modelcontextprotocol/sdk/server/auth/router.js');
    const issuerUrl = new URL(base());
    const asMetadata = { ...createOAuthMetadata({ provider, issuerUrl, scopesSupported: [...ALL_SCOPES] }), issuer: base() };
    const prMetadata = {
      resource: resource(),
      authorization_servers: [base()],
      bearer_methods_supported: ['header'],
      resource_name: 'Life planner assistant connector',
      scopes_supported: [...ALL_SCOPES],
    };
    const sdk = mcpAuthRouter({
      provider,
      issuerUrl,
      resourceServerUrl: new URL(resource()),
      resourceName: prMetadata.resource_name,
      scopesSupported: [...ALL_SCOPES],
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    });
    const bearer = requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: `${base()}/.well-known/oauth-protected-resource${MCP_PATH}`,
      expectedResource: new URL(resource()),
    });
    return { sdk, asMetadata, prMetadata, bearer };
  };

  const router = Router();
  if (limit) {
    router.post(['/token', '/register'], limit.auth);
    router.use(['/authorize', '/revoke'], limit.global);
  }
  const metadata = (pick: (parts: OAuthParts) => object): RequestHandler => async (_req, res) => {
    const parts = await current();
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(pick(parts));
  };
  router.get(['/.well-known/oauth-authorization-server', '/.well-known/oauth'], metadata((b) => b.asMetadata));
  router.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, metadata((b) => b.prMetadata));
  // RFC 9728 §3.3: a document's `resource` is the identifier its URL was built from; for the path-less
  // URL that is the origin (clients look for the `/mcp` one first, as its 401 names it).
  router.get('/.well-known/oauth-protected-resource', metadata((b) => ({ ...b.prMetadata, resource: base() })));

  // Client secrets are stored hashed: the secret a client presents is hashed before the SDK compares it.
  router.post(['/token', '/revoke'], express.urlencoded({ extended: false, limit: 100_000 }), (req, _res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (body && typeof body.client_secret === 'string') body.client_secret = hashSecret(body.client_secret);
    next();
  });
  // The sign-in and consent forms post back to /authorize with their CSRF token.
  router.post('/authorize', ...csrf.protect);
  router.get('/authorize', authorizeGuard(deps, provider.clientsStore, resource));
  router.post('/authorize', express.urlencoded({ extended: false, limit: 100_000 }), authorizeGuard(deps, provider.clientsStore, resource));
  // Registrations are checked (redirect URIs, auth method, size, storable text) before the SDK stores them.
  router.post('/register', ...registrationPolicy());
  // Express 5 passes a rejected handler promise to the error handler.
  router.use(async (req, res, next) => (SDK_PATHS.has(req.path) ? (await current()).sdk(req, res, next) : next()));

  return { router, requireToken: async (req, res, next) => (await current()).bearer(req, res, next) };
}
