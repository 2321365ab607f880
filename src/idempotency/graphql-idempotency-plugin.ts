import { HeaderMap, type ApolloServerPlugin, type GraphQLRequest, type GraphQLResponse } from '@apollo/server';
import type { FormattedExecutionResult } from 'graphql';
import type { AppContext } from '../core/context.js';
import type { AppError } from '../core/errors.js';
import { canonicalJson, claimOnce, finishOnce, fingerprintOf, invalidKeyError, validKey, type KeyedRequest, type StoredAnswer } from './run-once.js';

const KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * A refusal as /graphql answers any AppError (code, status and details in `extensions`), with its status
 * as the HTTP status; answered, not thrown: Apollo answers a throw from `responseForOperation` with 500.
 */
function refusal(error: AppError): GraphQLResponse {
  const { code, status, details } = error;
  const singleResult: FormattedExecutionResult = { errors: [{ message: error.message, extensions: { code, status, ...(details ? { details } : {}) } }] };
  return { http: { status, headers: new HeaderMap([['content-type', 'application/json; charset=utf-8']]) }, body: { kind: 'single', singleResult } };
}

/**
 * The request as compared for "the same request": the query text, the variables (key order ignored)
 * and the operation name. Whitespace in the query counts (a client retries the same bytes).
 */
function fingerprint(request: GraphQLRequest): string {
  return fingerprintOf('POST', '/graphql', canonicalJson({ query: request.query ?? null, variables: request.variables ?? null, operationName: request.operationName ?? null }));
}

/**
 * Whether the answer is final (kept for repeats) as REST's rules say (docs/idempotency.md): kept when a
 * field wrote (its data is not null) or every error is a refusal by the operation's rules (404, 409,
 * 422…); given up when nothing wrote and an error is bad input (400), a refusal before the operation
 * (401, 403, 413, 429) or a failure (5xx): a retry may run.
 */
function isFinal(status: number, result: FormattedExecutionResult): boolean {
  if (status === 400 || status >= 500) return false;
  const wrote = Object.values(result.data ?? {}).some((value) => value !== null);
  if (wrote) return true;
  return (result.errors ?? []).every((error) => {
    const errorStatus = error.extensions?.status;
    return typeof errorStatus === 'number' && errorStatus !== 400 && errorStatus !== 401 && errorStatus !== 403 && errorStatus !== 413 && errorStatus !== 429 && errorStatus < 500;
  });
}

/**
 * `Idempotency-Key` on `POST /graphql` (docs/idempotency.md): a request that carries it and runs a
 * mutation runs once per person and key, with REST's rules (src/idempotency/run-once.ts). The claim is
 * made once the operation passed every check (`responseForOperation`), the answer kept when it is sent;
 * a repeat answers the kept answer (status and body, `extensions.undoToken` with it) with
 * `Idempotent-Replayed: true`. A query, or a request without a person, ignores the header. The keys are
 * the person's, apart from REST's (`graphql:` prefix): a REST body is not a GraphQL body.
 */
export function graphqlIdempotencyPlugin(): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart({ request }) {
      const key = request.http?.method === 'POST' ? request.http.headers.get(KEY_HEADER) : undefined;
      if (key === undefined) return {};
      let claimed: KeyedRequest | undefined;
      return {
        async responseForOperation({ operation, contextValue }) {
          if (operation.operation !== 'mutation') return null;
          if (!validKey(key)) return refusal(invalidKeyError('Idempotency-Key'));
          const userId = contextValue.apiKey?.userId ?? contextValue.auth?.user?.id;
          if (!userId) return null;
          const keyed: KeyedRequest = { userId, key: `graphql:${key}`, fingerprint: fingerprint(request), now: new Date() };
          const claim = await claimOnce(contextValue.em, keyed);
          if (claim.kind === 'refused') return refusal(claim.error);
          if (claim.kind === 'claimed') {
            claimed = keyed;
            return null;
          }
          const headers = new HeaderMap([['content-type', claim.answer.headers['content-type'] ?? 'application/json; charset=utf-8'], [REPLAYED_HEADER, 'true']]);
          return { http: { status: claim.answer.status, headers }, body: { kind: 'single', singleResult: JSON.parse(claim.answer.body) as FormattedExecutionResult } };
        },
        // After undoTokenPlugin (its place in the plugin list): the kept body holds `extensions.undoToken`.
        async willSendResponse({ response, contextValue }) {
          if (!claimed) return;
          const keyed = claimed;
          claimed = undefined;
          const status = response.http.status ?? 200;
          let kept: StoredAnswer | undefined;
          if (response.body.kind === 'single' && isFinal(status, response.body.singleResult)) {
            const contentType = response.http.headers.get('content-type');
            kept = { status, headers: contentType ? { 'content-type': contentType } : {}, body: JSON.stringify(response.body.singleResult) };
          }
          await finishOnce(contextValue.em, keyed, kept);
        },
      };
    },
  };
}
