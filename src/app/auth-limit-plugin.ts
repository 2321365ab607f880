import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { AppContext } from '../core/context.js';
import { authMutationCount } from './auth-operations.js';
import type { SessionLimiters } from '../http/rate-limits.js';

/**
 * The auth limit on /graphql, counted on the operation Apollo is about to run (so a persisted query
 * sent by hash alone counts too): one auth mutation per operation, one hit per auth mutation. A
 * response whose operation failed carries no cookie.
 */
export function authLimitPlugin(limiters: SessionLimiters | null): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, contextValue }) {
          const count = operation ? authMutationCount(document, operation) : 0;
          if (count > 1) {
            throw new GraphQLError(`At most one auth mutation per operation, found ${count}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
          }
          if (count === 0 || !limiters) return;
          const hit = await limiters.hitAuth(contextValue.http.ip);
          if (hit.limited) {
            throw new GraphQLError(hit.message, {
              extensions: {
                code: 'RATE_LIMIT_EXCEEDED',
                status: 429,
                // Apollo reads `http.headers` as a Map (another package types it as a plain record).
                http: { status: 429, headers: new HeaderMap([['retry-after', String(hit.retryAfterSeconds)]]) as unknown as Record<string, string> },
              },
            });
          }
        },
        async willSendResponse({ response, contextValue }) {
          const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
          if (result?.errors?.length && result.data == null) contextValue.http.withdrawCookies();
        },
      };
    },
  };
}
