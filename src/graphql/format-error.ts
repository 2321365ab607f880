import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from '../core/logger.js';
import { errorBodyFromGraphQLError } from './error-body.js';

/** Apollo's formatError: the same codes and details as the REST envelope, in `extensions`. */
export function createFormatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    // Apollo's own request-level failures (parse, validation) already carry a precise code.
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR' && code !== 'BAD_USER_INPUT') return formatted;
    const { body, internal } = errorBodyFromGraphQLError(error);
    if (internal) logger.error({ err: (error as { originalError?: unknown }).originalError ?? error }, 'unhandled error');
    return {
      message: body.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: body.code, status: body.status, ...(body.details ? { details: body.details } : {}) },
    };
  };
}
