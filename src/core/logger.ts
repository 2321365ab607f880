import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Credentials that must never reach the logs, wherever a log line carries the request or response
 * (pino-http's `req`/`res`, or an error from the body parser, whose `body` is the raw request).
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'err.body',
  '*.body',
];

/** Structured JSON logs; one root logger, children carry a request id. `destination` defaults to stdout. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'life-planner' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
