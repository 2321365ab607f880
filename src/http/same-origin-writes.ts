import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../core/config.js';
import { ForbiddenError } from '../core/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Origins whose pages may write with the session cookie: BASE_URL's and TRUSTED_ORIGINS. */
export function allowedOrigins(config: Config): Set<string> {
  return new Set([new URL(config.baseUrl).origin, ...config.trustedOrigins]);
}

/** The serialised origin (scheme, host, port) of `raw`, or null for "null" and garbage. */
function originOf(raw: string): string | null {
  try {
    const origin = new URL(raw).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null; // "null" (sandboxed frame, privacy redirect) or garbage: not a known origin.
  }
}

/**
 * Why a browser request comes from another origin, or null when it does not. `Origin` decides when
 * present, compared as a whole origin (scheme, host and port): one of `allowed`, or exactly the
 * address the request was sent to (its scheme as express sees it, TRUST_PROXY included, and its
 * Host), so a page on http:// cannot write to the same host's https:// service. Otherwise
 * `Sec-Fetch-Site`. A request with neither (curl, scripts, server-to-server) is not a browser's
 * cross-origin request and passes.
 */
export function crossOriginReason(req: Request, allowed: Set<string>): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const sent = originOf(origin);
    if (sent && allowed.has(sent)) return null;
    const own = req.headers.host ? originOf(`${req.protocol}://${req.headers.host}`) : null;
    if (sent && own && sent === own) return null;
    return `Origin ${origin.slice(0, 200)} is not allowed to change data here`;
  }
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return null;
  return `A ${String(site).slice(0, 20)} request is not allowed to change data here`;
}

/**
 * CSRF defence for the cookie-authenticated surfaces (/graphql, /api/v1 and the deprecated /api/...,
 * uploads included): a state-changing request sent by a page of another origin is refused 403
 * FORBIDDEN. SameSite=Lax cookies still travel between sibling subdomains and ports of one host, and a
 * sign-in needs no cookie at all (login CSRF), so the cookie alone is not the guard. The Public API is
 * not mounted behind this: it is authenticated by a bearer key, which a browser never adds by itself.
 */
export function sameOriginWrites(config: Config): RequestHandler {
  let allowed: Set<string> | undefined;
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // Read on first use: with BASE_URL unset the base URL follows the port the server took.
    allowed ??= allowedOrigins(config);
    const reason = crossOriginReason(req, allowed);
    next(reason ? new ForbiddenError(reason) : undefined);
  };
}
