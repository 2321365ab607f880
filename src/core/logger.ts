import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

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
  'req.headers["x-brain-access-password"]',
  'res.headers["set-cookie"]',
  'err.body',
  '*.body',
];

/** A database error (the driver's, or the ORM's wrapping of it): it carries a SQLSTATE and a severity. */
function isDatabaseError(error: Record<string, unknown>): boolean {
  return typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && typeof error.severity === 'string';
}

/** Fields of a database error that name where it happened, never what a user wrote. */
const DATABASE_ERROR_FIELDS = ['type', 'code', 'severity', 'schema', 'table', 'column', 'constraint', 'routine'] as const;

/**
 * Errors as pino writes them, except database errors: the query builder puts the statement with its
 * values (what the user wrote) before the server's message, and the server's `detail` repeats the row
 * (`Failing row contains (…)`, `Key (email)=(…)`). Those lines keep the server's message and the
 * names of the table, column and constraint, and lose the statement, its values and the detail.
 * Takes an error or one pino has serialised already (pino-http hands its serialisers the latter).
 */
export function serializeError(error: unknown): unknown {
  const serialized = (error instanceof Error ? stdSerializers.err(error) : error) as Record<string, unknown> | null;
  if (!serialized || typeof serialized !== 'object' || !isDatabaseError(serialized)) return serialized;
  const full = String(serialized.message ?? '');
  const separator = full.lastIndexOf(' - ');
  const message = separator >= 0 ? full.slice(separator + 3) : full;
  const frames = String(serialized.stack ?? '').split('\n').filter((line) => line.trim().startsWith('at '));
  const fields = Object.fromEntries(DATABASE_ERROR_FIELDS.filter((k) => serialized[k] !== undefined).map((k) => [k, serialized[k]]));
  return { ...fields, message, stack: [`${String(serialized.type ?? 'Error')}: ${message}`, ...frames].join('\n') };
}

/** Structured JSON logs; one root logger, children carry a request id. `destination` defaults to stdout. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'life-planner' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: serializeError } };
  return destination ? pino(options, destination) : pino(options);
}
