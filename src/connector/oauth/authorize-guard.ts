import type { RequestHandler } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AppDeps } from '../../core/context.js';
import { authenticateSession } from '../../accounts/session-auth.js';
import { SESSION_COOKIE } from '../../accounts/session-token.js';
import { authorizeErrorPage } from './consent-pages.js';
import { OAuthConnection } from './oauth-connection.entity.js';

const sameResource = (a: string, b: string) => a.replace(/#.*$/, '').replace(/\/$/, '') === b.replace(/#.*$/, '').replace(/\/$/, '');

/** What the SDK would refuse in an authorization request once its client and redirect URI are known, or null. */
export function authorizeParamsProblem(params: Record<string, unknown>, resource: string): string | null {
  if (params.response_type !== 'code') return 'response_type must be code';
  if (typeof params.code_challenge !== 'string' || !params.code_challenge) return 'code_challenge is required (PKCE)';
  if (params.code_challenge_method !== 'S256') return 'code_challenge_method must be S256';
  if (params.resource !== undefined && (typeof params.resource !== 'string' || !sameResource(params.resource, resource))) return `This server issues tokens only for ${resource}`;
  return null;
}

/**
 * Before the SDK's /authorize: a request with a known client whose other parameters are wrong would
 * be redirected to the client's URI with the error (RFC 6749 §4.1.2.1). Any client can register any
 * https URI, so that redirect is an open redirect; unless the signed-in person has approved this client
 * before, the error is shown on our page instead. Unknown clients and unregistered redirect URIs the
 * SDK already answers with a 400 of its own.
 */
export function authorizeGuard(deps: AppDeps, clients: OAuthRegisteredClientsStore, resource: () => string): RequestHandler {
  return async (req, res, next) => {
    const params = ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<string, unknown>;
    const clientId = typeof params.client_id === 'string' ? params.client_id : undefined;
    const client = clientId ? await clients.getClient(clientId) : undefined;
    const problem = client ? authorizeParamsProblem(params, resource()) : null;
    if (!client || !problem) return next();
    const em = deps.orm.em.fork();
    const auth = await authenticateSession(em, deps.sessionTokens, (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE]);
    if (auth && (await em.count(OAuthConnection, { userId: auth.user.id, clientId: client.client_id, revokedAt: null }))) return next();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    res.status(400).type('html').send(authorizeErrorPage({ clientName: client.client_name || client.client_id, message: problem }));
  };
}
