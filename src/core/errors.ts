import { recordFields } from './database/record-fields.js';

/**
 * One error type per failure kind. REST (rest/sofa-surface.ts, src/http/envelope.ts) and GraphQL
 * (src/graphql/format-error.ts) both map them through `appErrorBody` (src/graphql/error-body.ts), so a
 * rule answers the same on every surface.
 */
export type ErrorCode =
  | 'UNAUTHORIZED'
  // A change-feed cursor the feed no longer answers (older than its retention, or a "read everything" change): 410.
  | 'SYNC_CURSOR_EXPIRED'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'INTERNAL_ERROR'
  | 'EMAIL_EXISTS'
  | 'INVALID_CREDENTIALS'
  // The password was right; the account asks for a second factor (src/accounts/sign-in/second-step.ts).
  | 'SECOND_FACTOR_REQUIRED'
  // Too many wrong second factors for the account, across steps and addresses (429 with Retry-After).
  | 'SECOND_FACTOR_LOCKED'
  // A second reminder of a daily kind for one person (src/reminders/daily-kinds.ts): 409.
  | 'REMINDER_EXISTS'
  | 'RATE_LIMIT_EXCEEDED'
  | 'SUBSCRIPTION_REQUIRED'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'FORBIDDEN'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // The Brain form submit codes (spec: Brain form submit errors).
  | 'VALIDATION'
  | 'ALREADY_SUBMITTED'
  | 'CLOSED'
  // The connector: a name that fits several records, a tool outside the connection's grant.
  | 'AMBIGUOUS_NAME'
  | 'INSUFFICIENT_SCOPE'
  // Quick add (src/quick-add): a line, or a name in it, that was not understood (422, with what was).
  | 'NOT_UNDERSTOOD'
  // OpenID Connect sign-in (src/accounts/oidc/oidc-errors.ts): refused, the email's account needs its
  // password first, the identity provider unreachable (503) or answering nonsense (502).
  | 'OIDC_SIGN_IN_FAILED'
  | 'OIDC_LINK_REQUIRED'
  | 'IDENTITY_PROVIDER_UNAVAILABLE'
  | 'PASSWORD_SIGN_IN_DISABLED'
  // Idempotency keys (src/idempotency): the same key with another request (422), its first request
  // still running (409), its first answer too large to have been kept (409).
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'IDEMPOTENCY_ANSWER_NOT_STORED'
  // A write with `expectedVersion` (REST: If-Match) whose record changed since (412, with the current record).
  | 'VERSION_CONFLICT'
  // An undo token (src/undo, docs/undo.md) past its time (410), or its record changed since the write (409).
  | 'UNDO_EXPIRED'
  | 'UNDO_CONFLICT'
  // The file store (S3) did not answer: 503, nothing written (src/files/storage/storage-errors.ts).
  | 'STORAGE_UNAVAILABLE';

export interface FieldError {
  path: (string | number)[];
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, details?: Record<string, unknown>) {
    super('NOT_FOUND', 404, `${resource} not found`, { resource, ...details });
  }
}

/** The record `read` answers, or null where it answers NOT_FOUND (missing, or not the user's). */
export async function nullIfNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The record changed since the version the write expected (docs/concurrency.md): 412 on REST (If-Match's
 * Precondition Failed), VERSION_CONFLICT on GraphQL, with the current record and its version.
 */
export class VersionConflictError extends AppError {
  constructor(resource: string, current: { version: number }, view: object = recordFields(current)) {
    super('VERSION_CONFLICT', 412, `${resource} was changed by someone else (now version ${current.version}): read it again`, {
      resource,
      version: current.version,
      current: view,
    });
  }
}

/** Input that fails schema validation; `errors` name each field and the rule it broke. */
export class ValidationError extends AppError {
  constructor(message: string, errors: FieldError[], extra?: Record<string, unknown>) {
    super('VALIDATION_ERROR', 400, message, { ...extra, errors });
  }
}

/** A domain rule of the spec (perimeter size, lunch slot, deferral) refused the change. */
export class RuleViolationError extends ValidationError {
  constructor(rule: string, message: string, path: (string | number)[] = []) {
    super(message, [{ path, message }], { rule });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', details?: Record<string, unknown>) {
    super('UNAUTHORIZED', 401, message, details);
  }
}

/** A wrong password or second factor; `details` may say how many tries are left. */
export class InvalidCredentialsError extends AppError {
  constructor(message = 'Wrong email or password', details?: Record<string, unknown>) {
    super('INVALID_CREDENTIALS', 401, message, details);
  }
}

/**
 * A sign-in whose first factor passed and whose account wants a second one: no session yet, only a
 * short-lived challenge to finish with (the "mfa_required" answer of Auth0 and kin).
 */
export class SecondFactorRequiredError extends AppError {
  constructor(details: { challengeToken: string; methods: string[]; expiresAt: string }) {
    super('SECOND_FACTOR_REQUIRED', 401, 'A second factor is required to finish signing in', details);
  }
}

export class EmailExistsError extends AppError {
  constructor() {
    super('EMAIL_EXISTS', 409, 'This email is already registered');
  }
}

export class SubscriptionRequiredError extends AppError {
  constructor(feature: string) {
    super('SUBSCRIPTION_REQUIRED', 403, `Your plan does not include ${feature}`, { feature });
  }
}

/** The request came from a page of another origin (CSRF), or carries no valid form token. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('FORBIDDEN', 403, message);
  }
}

/** A body that is not JSON where JSON is required. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(contentType: string | undefined) {
    super('UNSUPPORTED_MEDIA_TYPE', 415, `Request bodies must be sent as Content-Type: application/json (got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : 'none'})`);
  }
}

/** Too many requests (a rate limit, a cap on open streams, too many wrong passwords): 429. */
export class RateLimitError extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('RATE_LIMIT_EXCEEDED', 429, message, details);
  }
}

/** A name (the connector's `book: "Dune"`) that fits several records: the caller names one by id. */
export class AmbiguousNameError extends AppError {
  constructor(message: string, details: { name: string; candidates: unknown[] }) {
    super('AMBIGUOUS_NAME', 400, message, details);
  }
}

/** A path no route answers. */
export class NoRouteError extends AppError {
  constructor(method: string, path: string) {
    super('NOT_FOUND', 404, `No route ${method} ${path}`);
  }
}

/** A method the path does not take; `allow` lists those it does (the Allow header). */
export class MethodNotAllowedError extends AppError {
  constructor(method: string, path: string, allow: string) {
    super('METHOD_NOT_ALLOWED', 405, `${method} is not allowed on ${path}; use ${allow}`);
  }
}

/** A request body over the surface's limit, refused before it is read. */
export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super('PAYLOAD_TOO_LARGE', 413, `Request body over ${limitBytes} bytes`);
  }
}

export interface ErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export function internalErrorBody(): ErrorBody {
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' };
}

export function appErrorBody(error: AppError): ErrorBody {
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}
