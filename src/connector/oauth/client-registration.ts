import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { unstorableTextErrors } from '../../core/storable-text.js';

/** Bounds of a client's registration (RFC 7591 metadata): generous for real clients, small for a store. */
export const REGISTRATION_MAX_BYTES = 8 * 1024;
export const REGISTRATION_MAX_REDIRECT_URIS = 5;
const MAX_TEXT = 2000;
const MAX_LIST = 10;
/** The client authentication methods the token endpoint knows (its metadata's `token_endpoint_auth_methods_supported`). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_post'] as const;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes that are never a client's redirect target, whatever its form. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:', 'http:', 'https:', 'ftp:', 'ws:', 'wss:']);

type Refusal = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; error_description: string };

/**
 * Why a redirect URI may not be registered (RFC 9700 §2.1, RFC 8252 §7): https with a host, or http to
 * a loopback address (native apps, any port), or a native app's private-use scheme in reverse-domain
 * form (`com.example.app:/callback`); never userinfo, a fragment or a wildcard.
 */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || !uri) return 'must be a URL';
  if (uri.length > MAX_TEXT) return `must be at most ${MAX_TEXT} characters`;
  if (uri.includes('*')) return 'must not hold a wildcard';
  if (uri.includes('#')) return 'must not hold a fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be a URL';
  }
  if (url.username || url.password) return 'must not hold a user name or password';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'must be https, or http to a loopback address (127.0.0.1, [::1], localhost)';
  const scheme = url.protocol.slice(0, -1);
  if (FORBIDDEN_SCHEMES.has(url.protocol) || !/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) {
    return 'must be https, http to a loopback address, or a private-use scheme in reverse-domain form (com.example.app:/callback)';
  }
  return null;
}

/** What is wrong with a registration request's metadata, as RFC 7591 §3.2.2 names it, or null. */
export function registrationProblem(body: unknown): Refusal | null {
  const metadata = (msg: string): Refusal => ({ error: 'invalid_client_metadata', error_description: msg });
  if (!body || typeof body !== 'object' || Array.isArray(body)) return metadata('The registration must be a JSON object');
  const unstorable = unstorableTextErrors(body);
  if (unstorable.length) return metadata(`${unstorable[0]!.path.join('.')} ${unstorable[0]!.message}`);
  const fields = body as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value.length > MAX_TEXT) return metadata(`${name} must be at most ${MAX_TEXT} characters`);
    if (Array.isArray(value) && value.length > MAX_LIST) return metadata(`${name} must hold at most ${MAX_LIST} items`);
    if (value && typeof value === 'object' && !Array.isArray(value)) return metadata(`${name} must not be an object`);
  }
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && !(TOKEN_ENDPOINT_AUTH_METHODS as readonly unknown[]).includes(method)) {
    return metadata(`token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`);
  }
  const uris = fields.redirect_uris;
  if (!Array.isArray(uris) || !uris.length) return { error: 'invalid_redirect_uri', error_description: 'redirect_uris must list at least one URL' };
  if (uris.length > REGISTRATION_MAX_REDIRECT_URIS) return { error: 'invalid_redirect_uri', error_description: `redirect_uris may list at most ${REGISTRATION_MAX_REDIRECT_URIS} URLs` };
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return { error: 'invalid_redirect_uri', error_description: `redirect_uris.${i} ${problem}` };
  }
  return null;
}

/**
 * POST /register's checks before the SDK's handler: the body at most REGISTRATION_MAX_BYTES (parsed
 * here; the SDK's parser then leaves it), then `registrationProblem`. Refusals are RFC 7591 400s.
 */
export function registrationPolicy(): RequestHandler[] {
  const tooLarge: ErrorRequestHandler = (error, _req, res, next) => {
    if ((error as { type?: string }).type === 'entity.too.large') {
      res.status(400).json({ error: 'invalid_client_metadata', error_description: `The registration must be at most ${REGISTRATION_MAX_BYTES} bytes` });
    } else if ((error as { type?: string }).type === 'entity.parse.failed') {
      res.status(400).json({ error: 'invalid_client_metadata', error_description: 'The registration must be JSON' });
    } else next(error);
  };
  const check: RequestHandler = (req, res, next) => {
    const refusal = registrationProblem(req.body);
    if (refusal) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(400).json(refusal);
      return;
    }
    next();
  };
  return [express.json({ limit: REGISTRATION_MAX_BYTES }), tooLarge as unknown as RequestHandler, check];
}
