import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, parse, validate, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { AppContext, AppDeps, Authenticated } from '../core/context.js';
import type { Logger } from '../core/logger.js';
import type { LiveConnection, LiveHub } from '../core/live/live-hub.js';
import type { SessionLimiters } from '../http/rate-limits.js';
import { buildContext, cookielessBridge } from '../http/request-context.js';
import { errorBodyFromGraphQLError } from '../graphql/error-body.js';
import { LIMITED_PARSE_OPTIONS } from '../graphql/operation-limits.js';
import { operationRefusal, subscribeWithinLimits } from '../graphql/limited-execution.js';
import { dedupedResults } from './deduped-results.js';
import { subscribeSharingReads } from './shared-execution.js';
import { dropSlowConsumer } from './slow-consumer.js';
import { sessionCookieOf, upgradeOriginRefusal } from './upgrade-checks.js';

export const GRAPHQL_WS_PATH = '/graphql';
/** A subscribe message is small; a megabyte query is an attack. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Subscribe messages one socket may send per second (a client re-subscribing in a loop is cut off). */
const MAX_SUBSCRIBES_PER_SECOND = 20;

interface SocketState {
  auth: Authenticated;
  connection: LiveConnection;
  subscribes: { second: number; count: number };
}

const states = new WeakMap<WebSocket, SocketState>();

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

function formatted(errors: readonly GraphQLError[], logger: Logger) {
  return errors.map((error) => {
    const { body, internal } = errorBodyFromGraphQLError(error);
    if (internal) logger.error({ err: error.originalError ?? error }, 'unhandled error in a subscription');
    return { message: body.message, path: error.path, extensions: { code: body.code, status: body.status, ...(body.details ? { details: body.details } : {}) } };
  });
}

/**
 * GraphQL subscriptions over WebSocket at /graphql with the graphql-ws protocol (what Apollo Client and
 * urql speak). The upgrade is checked like a cookie write: a page of another origin is refused, the
 * session cookie must sign in, and the person's and the instance's socket limits apply; then each
 * subscription runs through the one executor (src/graphql/limited-execution.ts: /graphql's operation
 * limits, and each event within the answer ceiling, here no larger than what the socket may hold
 * unsent), at most `maxSubscriptionsPerSocket` run at once, and only subscriptions are run here
 * (queries and mutations go to HTTP, with its rate limits).
 */
export function attachGraphqlWs(server: Server, deps: AppDeps, schema: GraphQLSchema, hub: LiveHub, limiters: SessionLimiters | null): { close(): Promise<void> } {
  const limits = deps.config.live;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== GRAPHQL_WS_PATH) return refuse(socket, 404, 'Not Found');
    void (async () => {
      const refusal = upgradeOriginRefusal(req, deps.config);
      if (refusal) return refuse(socket, 403, 'Forbidden');
      // The token's signature first (no database), then the person's upgrade count, then the session row:
      // opening and closing sockets in a loop costs a statement only within the global rate limit.
      const token = sessionCookieOf(req);
      const claims = token ? deps.sessionTokens.verify(token) : null;
      if (!claims) return refuse(socket, 401, 'Unauthorized');
      if (await limiters?.hitSocketOpen(claims.userId)) return refuse(socket, 429, 'Too Many Requests');
      const auth = await deps.authenticateSession(deps.orm.em.fork(), token).catch(() => null);
      if (!auth) return refuse(socket, 401, 'Unauthorized');
      wss.handleUpgrade(req, socket, head, (ws) => {
        const connection: LiveConnection = { userId: auth.user.id, sessionId: auth.sessionId, close: (code, reason) => ws.close(code, reason) };
        const full = hub.open(connection);
        if (full) return ws.close(1013, full);
        states.set(ws, { auth, connection, subscribes: { second: 0, count: 0 } });
        dropSlowConsumer(ws, limits.maxBufferedBytes);
        ws.once('close', () => hub.closed(connection));
        wss.emit('connection', ws, req);
      });
    })().catch(() => socket.destroy());
  };
  server.on('upgrade', onUpgrade);

  const contextFor = (auth: Authenticated): AppContext => buildContext(deps, { auth, http: cookielessBridge(), log: () => deps.logger, live: true });

  const disposable = useServer(
    {
      schema,
      subscribe: async (args: ExecutionArgs) => {
        const result = await subscribeWithinLimits(args, { maxBytes: limits.maxBufferedBytes }, subscribeSharingReads);
        return Symbol.asyncIterator in result ? dedupedResults(result) : result;
      },
      onSubscribe: (ctx, id, payload): ExecutionArgs | readonly GraphQLError[] => {
        const state = states.get(ctx.extra.socket as WebSocket);
        if (!state) return [new GraphQLError('Not signed in', { extensions: { code: 'UNAUTHORIZED' } })];
        const second = Math.floor(Date.now() / 1000);
        if (state.subscribes.second !== second) state.subscribes = { second, count: 0 };
        if (++state.subscribes.count > MAX_SUBSCRIBES_PER_SECOND) {
          ctx.extra.socket.close(4429, 'Too many subscribe messages');
          return [new GraphQLError('Too many subscribe messages', { extensions: { code: 'RATE_LIMIT_EXCEEDED' } })];
        }
        // graphql-ws reserves the new subscription's id in `ctx.subscriptions` before asking.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptionsPerSocket) {
          return [limitError(`At most ${limits.maxSubscriptionsPerSocket} subscriptions at once on one socket`)];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, LIMITED_PARSE_OPTIONS);
        } catch (error) {
          return [error as GraphQLError];
        }
        const invalid = validate(schema, document);
        if (invalid.length) return invalid;
        const operation = document.definitions.find((d) => d.kind === 'OperationDefinition' && (!payload.operationName || d.name?.value === payload.operationName));
        if (!operation || operation.kind !== 'OperationDefinition' || operation.operation !== 'subscription') {
          return [limitError('Only subscriptions run over the WebSocket; send queries and mutations to POST /graphql')];
        }
        const args = { schema, document, operationName: payload.operationName, variableValues: payload.variables };
        // Refused here as the protocol's error message; the executor checks again (cached) when it runs.
        const refusal = operationRefusal(args);
        if (refusal) return [refusal];
        return { ...args, contextValue: contextFor(state.auth) };
      },
      // A client that does not read its socket is dropped, not buffered for: dropSlowConsumer, around each send.
      onNext: (_ctx, _id, _payload, _args, result) => {
        return result.errors ? { ...result, errors: formatted(result.errors, deps.logger) } : undefined;
      },
      onError: (_ctx, _id, _payload, errors) => formatted(errors, deps.logger),
    },
    wss,
    limits.keepAliveMs,
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      await hub.stop();
      await disposable.dispose();
    },
  };
}

function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}
