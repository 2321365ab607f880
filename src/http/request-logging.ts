import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../core/logger.js';

/** Query parameters whose value is a credential (a password, a token, a signed URL's signature). */
const SECRET_QUERY_NAME = /pass|secret|token|key|code|auth|sig|session|credential/i;

/** The URL as logged: values of credential-like query parameters are replaced. */
export function scrubUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let scrubbed = false;
  for (const name of new Set(params.keys())) {
    if (SECRET_QUERY_NAME.test(name)) {
      params.set(name, '[redacted]');
      scrubbed = true;
    }
  }
  return scrubbed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

interface SerializedRequest {
  id: unknown;
  method: string;
  url: string;
  headers: Record<string, unknown>;
  remoteAddress?: string;
  remotePort?: number;
  raw?: { ip?: string };
}

/**
 * One line per request with its id, method, scrubbed URL and headers (the credential headers are
 * redacted by the logger, src/core/logger.ts). Bodies are never logged; the parsed query and params
 * are left out too (the URL carries them, scrubbed).
 */
export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/healthz' || req.url === '/readyz' },
    serializers: {
      req: (req: SerializedRequest) => ({
        id: req.id,
        method: req.method,
        url: scrubUrl(req.url),
        headers: req.headers,
        // The client's address as express derives it (TRUST_PROXY), not the proxy's socket address.
        remoteAddress: req.raw?.ip ?? req.remoteAddress,
        remotePort: req.remotePort,
      }),
    },
  });
}
