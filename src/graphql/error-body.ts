import { GraphQLError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { AppError, appErrorBody, internalErrorBody, type ErrorBody, type FieldError } from '../core/errors.js';

function flattenValidationErrors(errors: ClassValidatorError[], parent: (string | number)[] = []): FieldError[] {
  return errors.flatMap((error) => {
    const path = [...parent, /^\d+$/.test(error.property) ? Number(error.property) : error.property];
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

const VARIABLE_RE = /^Variable "\$([A-Za-z_][A-Za-z0-9_]*)"/;

/**
 * The one mapping from a GraphQL execution error to the documented error body, used by the REST
 * envelope and by Apollo's formatError alike. Unknown failures become INTERNAL_ERROR (and are logged
 * by the caller); their message never leaks.
 */
export function errorBodyFromGraphQLError(error: unknown): { body: ErrorBody; internal: boolean } {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof AppError) return { body: appErrorBody(original), internal: false };
  if (original instanceof ArgumentValidationError) {
    const errors = flattenValidationErrors(original.extensions.validationErrors);
    return {
      body: { status: 400, code: 'VALIDATION_ERROR', message: errors[0]?.message ?? 'Invalid input', details: { errors } },
      internal: false,
    };
  }
  if (error instanceof GraphQLError) {
    const httpStatus = (error.extensions?.http as { status?: number } | undefined)?.status;
    // No path: the request failed before any resolver ran (bad JSON, variable coercion), so the
    // caller's input is at fault.
    if (httpStatus === 400 || (!error.path && !error.originalError)) {
      const variable = VARIABLE_RE.exec(error.message)?.[1];
      const message = error.message.replace(/^Variable "\$[^"]+" got invalid value [^;]*; /, '');
      return {
        body: {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: variable ? `${variable}: ${message}` : message,
          details: { errors: [{ path: variable ? [variable] : [], message }] },
        },
        internal: false,
      };
    }
  }
  return { body: internalErrorBody(), internal: true };
}
