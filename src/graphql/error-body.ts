import { GraphQLError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { AppError, appErrorBody, internalErrorBody, ValidationError, type ErrorBody, type FieldError } from '../core/errors.js';
import { rowCapViolation } from '../core/database/row-caps.js';

function flattenValidationErrors(errors: ClassValidatorError[], parent: (string | number)[] = []): FieldError[] {
  return errors.flatMap((error) => {
    const path = [...parent, /^\d+$/.test(error.property) ? Number(error.property) : error.property];
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

/** Builds the VALIDATION_ERROR body; the message names the first field. */
export function validationErrorBody(errors: FieldError[]): ErrorBody {
  const first = errors[0];
  const message = !first
    ? 'Invalid input'
    : first.path.length && !first.message.startsWith(String(first.path[0]))
      ? `${printPath(first.path)}: ${first.message}`
      : first.message;
  return appErrorBody(new ValidationError(message, errors));
}

/** `['a', 0, 'b']` → `a[0].b`, the way field paths are named in messages. */
export function printPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** `a.b[0].c` → ['a', 'b', 0, 'c'] (graphql-js prints variable paths this way). */
function parsePath(printed: string): (string | number)[] {
  return [...printed.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

// graphql-js, coerceVariableValues: `Variable "$x" got invalid value <v>[ at "x.path"]; <reason>` and
// `Variable "$x" of required type "T!" was not provided.` / `... must not be null.`
const INVALID_VALUE_RE = /^Variable "\$([A-Za-z_]\w*)" got invalid value [\s\S]*?(?: at "([^"]+)")?; ([\s\S]*)$/;
const VARIABLE_RE = /^Variable "\$([A-Za-z_]\w*)" ([\s\S]*)$/;

/** A request-level variable error → the field it names and the reason, without echoing the value. */
function variableFieldError(message: string): FieldError | null {
  const invalid = INVALID_VALUE_RE.exec(message);
  if (invalid) {
    return { path: invalid[2] ? parsePath(invalid[2]) : [invalid[1]!], message: invalid[3]! };
  }
  const other = VARIABLE_RE.exec(message);
  if (other) {
    const reason = other[2]!.replace(/^of required type "[^"]+" /, '');
    return { path: [other[1]!], message: /was not provided/.test(reason) ? `${other[1]} is required` : `${other[1]} ${reason}` };
  }
  return null;
}

/** GraphQLErrors wrap one another (Apollo wraps graphql-js's); walk to the innermost cause. */
function unwrap(error: unknown): { chain: GraphQLError[]; cause: unknown } {
  const chain: GraphQLError[] = [];
  let current = error;
  while (current instanceof GraphQLError && chain.length < 10) {
    chain.push(current);
    if (!current.originalError) break;
    current = current.originalError;
  }
  return { chain, cause: current };
}

/**
 * PostgreSQL refusals that only bad input can cause, as a last line behind argument validation
 * (a number out of its column's range).
 */
const INPUT_SQLSTATES: Record<string, string> = {
  '22003': 'A number is out of the allowed range',
};

function databaseInputError(cause: unknown): ErrorBody | null {
  const code = (cause as { code?: unknown } | null)?.code;
  const message = typeof code === 'string' ? INPUT_SQLSTATES[code] : undefined;
  return message ? validationErrorBody([{ path: [], message }]) : null;
}

/**
 * The one mapping from a GraphQL execution error to the documented error body, used by the REST
 * envelope and by Apollo's formatError alike. Unknown failures become INTERNAL_ERROR (and are logged
 * by the caller); their message never leaks.
 */
export function errorBodyFromGraphQLError(error: unknown): { body: ErrorBody; internal: boolean } {
  const { chain, cause } = unwrap(error);
  if (cause instanceof AppError) return { body: appErrorBody(cause), internal: false };
  if (cause instanceof ArgumentValidationError) {
    return { body: validationErrorBody(flattenValidationErrors(cause.extensions.validationErrors)), internal: false };
  }
  const cap = rowCapViolation(cause);
  if (cap) return { body: appErrorBody(cap), internal: false };
  const database = databaseInputError(cause);
  if (database) return { body: database, internal: false };
  // Variable coercion (before any resolver runs): the caller's input is at fault; name the field.
  for (const gql of chain) {
    const field = variableFieldError(gql.message);
    if (field) return { body: validationErrorBody([field]), internal: false };
  }
  const requestLevel = chain.some((gql) => {
    const ext = gql.extensions as { http?: { status?: number }; code?: unknown } | undefined;
    return ext?.http?.status === 400 || ext?.code === 'BAD_USER_INPUT';
  });
  // A pure GraphQL error with no path failed before execution (bad document, bad JSON).
  const innermost = chain.at(-1);
  if (requestLevel || (innermost && cause === innermost && !innermost.path)) {
    const message = (innermost ?? (error as Error)).message;
    return { body: validationErrorBody([{ path: [], message }]), internal: false };
  }
  return { body: internalErrorBody(), internal: true };
}
