import type { ApolloServerPlugin } from '@apollo/server';
import { operationLimitViolation } from './operation-limits.js';

/**
 * Apollo's step between validation and execution, for every request however its document arrived
 * (query text, GET, or an automatic persisted query's hash): an operation over a limit is refused 400
 * before it runs. The token limit is Apollo's `parseOptions`, applied while parsing.
 */
export function operationLimitsPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operationName, request }) {
          const violation = operationLimitViolation(schema, document, operationName, request.variables);
          if (violation) throw violation;
        },
      };
    },
  };
}
