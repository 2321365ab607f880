import type { RequestHandler } from 'express';
import { errorEnvelope } from '../http/envelope.js';
import { UnauthorizedError } from '../core/errors.js';
import type { ApiKeyAuthenticator, ApiKeyRefusal } from '../api-keys/api-key-auth.js';

/** res.locals key carrying the authenticated API key to the limiter and the request context. */
export const API_KEY_LOCAL = 'apiKey';

const REFUSALS: Record<ApiKeyRefusal, string> = {
  missing: 'An API key is required: send Authorization: Bearer <key>',
  malformed: 'Malformed API key: expected Authorization: Bearer svc_…',
  unknown: 'Invalid API key',
  revoked: 'This API key has been revoked',
  expired: 'This API key has expired',
  plan_lapsed: 'The subscription of this API key\'s owner has lapsed',
};

/** Public API authentication: a missing, malformed, unknown, revoked or expired key, or a lapsed plan → 401 at once. */
export function apiKeyAuthentication(authenticator: ApiKeyAuthenticator): RequestHandler {
  return (req, res, next) => {
    authenticator.check(req.headers.authorization).then((result) => {
      if (result.ok) {
        res.locals[API_KEY_LOCAL] = result.auth;
        next();
        return;
      }
      res.setHeader('WWW-Authenticate', result.reason === 'missing' ? 'Bearer realm="public-api"' : 'Bearer realm="public-api", error="invalid_token"');
      res.status(401).json(errorEnvelope(new UnauthorizedError(REFUSALS[result.reason], { reason: result.reason })));
    }, next);
  };
}
