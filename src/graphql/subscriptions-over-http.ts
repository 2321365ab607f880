import type { ApolloServerPlugin } from '@apollo/server';
import { operationLimitError } from './operation-limits.js';

/**
 * A subscription sent to POST /graphql would run its resolver once without an event: it is refused
 * 400 before it runs, naming where subscriptions go (graphql-ws on the same path, src/live/).
 */
export function subscriptionsOverWebSocketOnly<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') {
            throw operationLimitError('Subscriptions run over a WebSocket to /graphql with the graphql-ws protocol, not over HTTP');
          }
        },
      };
    },
  };
}
