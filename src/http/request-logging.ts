import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { stdSerializers } from 'pino';
import { pinoHttp } from 'pino-http';
import { serializeError, type Logger } from '../core/logger.js';

/** Query parameters whose value is a credential (a password, a token, a signed URL's signature). */
const SECRET_QUERY_NAME = /pass|secret|token|key|code|auth|sig|session|credential/i;

/** Paths whose segment is a credential: the calendar feed's secret token (calendar apps cannot send a header). */
const SECRET_PATH = /(\/agenda\/feed\/)[^/?#]+?(\.ics)?(?=$|[?#])/;

/** The URL as logged: a credential in the path and the values of credential-like query parameters are replaced. */
export function scrubUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  url = url.replace(SECRET_PATH, '$1[redacted]$2');
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

/** The id a request is known by in logs and in `X-Request-Id`: the caller's, if well-formed, else a new one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The response as logged: a redirect's `Location` scrubbed like a URL (an OAuth redirect carries `?code=…`). */
const serializeResponse = (res: { statusCode: number; headers?: Record<string, unknown> }) => {
  const location = res.headers?.location;
  return { statusCode: res.statusCode, headers: typeof location === 'string' ? { ...res.headers, location: scrubUrl(location) } : res.headers };
};

const serializeRequest = (req: SerializedRequest) => ({
  id: req.id,
  method: req.method,
  url: scrubUrl(req.url),
  headers: req.headers,
  // The client's address as express derives it (TRUST_PROXY), not the proxy's socket address.
  remoteAddress: req.raw?.ip ?? req.remoteAddress,
  remotePort: req.remotePort,
});

/**
 * One line per request with its id, method, scrubbed URL and headers (the credential headers are
 * redacted by the logger, src/core/logger.ts). Bodies are never logged; the parsed query and params
 * are left out too (the URL carries them, scrubbed).
 *
 * The request lines are `info`. When the logger is above that level, pino-http would still serialise
 * every request into a child logger for lines never written (about 8% of a small request's CPU,
 * issue 18): then only the id is set, and `req.log`, the same request-bound logger, is made on first use
 * (by a request that logs an error).
 */
export function requestLogging(logger: Logger): RequestHandler {
  if (logger.isLevelEnabled('info')) {
    return pinoHttp({
      logger,
      genReqId: requestId,
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/healthz' || req.url === '/readyz' },
      // pino-http hands each the standard serialisation of its object.
      serializers: { req: serializeRequest, res: serializeResponse, err: serializeError },
    }) as unknown as RequestHandler;
  }
  const requestLogger = logger.child({}, { serializers: { req: stdSerializers.wrapRequestSerializer(serializeRequest as never) } });
  return (req, res, next) => {
    const id = requestId(req, res);
    (req as Request & { id: string }).id = id;
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (log ??= requestLogger.child({ req })),
      set: (value: Logger) => void (log = value),
    });
    next();
  };
}
