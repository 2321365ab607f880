import { Router } from 'express';
import { parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { AppDeps } from '../core/context.js';
import { RateLimitError } from '../core/errors.js';
import type { LiveConnection } from '../core/live/live-hub.js';
import { errorBodyFromGraphQLError } from '../graphql/error-body.js';
import { subscribeWithinLimits } from '../graphql/limited-execution.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { methodNotAllowed, sessionRoute } from '../http/session-route.js';
import { EVENTS_STREAM_PATHS } from './events-stream.openapi.js';
import { subscribeSharingReads } from './shared-execution.js';

export const EVENTS_STREAM_PATH = '/events/stream';

/** What the stream runs: the `myChanges` subscription, through the one executor like a socket's. */
const MY_CHANGES = parse('subscription EventsStream { myChanges { entity id kind committedAt cursor } }');

type Change = { entity: string; id: string; kind: string; committedAt: string; cursor: string | null };

/** One result as SSE text: a `change` event per change, or one `error` event (`{ code, message }`). */
function eventsOf(result: ExecutionResult): string {
  if (result.errors?.length) {
    const { body } = errorBodyFromGraphQLError(result.errors[0]);
    return `event: error\ndata: ${JSON.stringify({ code: body.code, message: body.message })}\n\n`;
  }
  const changes = ((result.data as { myChanges?: Change[] } | null | undefined)?.myChanges ?? []);
  return changes.map((change) => `event: change\ndata: ${JSON.stringify(change)}\n\n`).join('');
}

/**
 * GET /api/v1/events/stream: the "my changes" feed as Server-Sent Events for REST clients (issue 27).
 * One `change` event per committed change (`{ entity, id, kind, committedAt, cursor }`: the change feed's cursor, docs/sync.md), a comment line as
 * keep-alive, the same per-person connection limit as the sockets, and the stream ends when the session
 * does or when the client stops reading (a slow consumer is dropped, not buffered for). Each event is
 * the `myChanges` subscription's, run by the one executor within the socket's ceiling: an event over it
 * is one `error` event instead.
 */
export function eventsStreamRoutes(deps: AppDeps, schema: GraphQLSchema): Router {
  const router = Router();
  const limits = deps.config.live;
  router.get(
    EVENTS_STREAM_PATH,
    sessionRoute(deps, async ({ ctx }, req, res) => {
      const hub = deps.live;
      if (!hub) throw new Error('live updates are not running');
      const auth = ctx.auth!;
      let ended = false;
      let keepAlive: NodeJS.Timeout | undefined;
      const subscribed = await subscribeWithinLimits({ schema, document: MY_CHANGES, contextValue: ctx }, { maxBytes: limits.maxBufferedBytes }, subscribeSharingReads);
      if (!(Symbol.asyncIterator in subscribed)) throw subscribed.errors?.[0]?.originalError ?? subscribed.errors?.[0] ?? new Error('the event stream did not start');
      const results = subscribed;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        void results.return?.();
        hub.closed(connection);
        res.end();
      };
      const connection: LiveConnection = { userId: auth.user.id, sessionId: auth.sessionId, close: end };
      const full = hub.open(connection);
      if (full) {
        void results.return?.();
        throw new RateLimitError(full);
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no', // nginx: pass each event on at once
      });
      // Unsent data past LIVE_MAX_BUFFERED_BYTES, before a write or after it: a slow consumer, dropped.
      const write = (text: string) => {
        if (ended || res.writableLength > limits.maxBufferedBytes) return end();
        if (text) res.write(text);
        if (res.writableLength > limits.maxBufferedBytes) end();
      };
      write(': live\n\n');
      keepAlive = setInterval(() => write(': keep-alive\n\n'), limits.keepAliveMs);
      req.once('close', end);
      res.once('close', end);
      void (async () => {
        for (;;) {
          const { value: result, done } = await results.next();
          if (done || ended) return;
          write(eventsOf(result));
        }
      })().catch((error: unknown) => {
        ctx.log.error({ err: error }, 'the event stream failed');
        end();
      });
    }),
  );
  router.all(EVENTS_STREAM_PATH, methodNotAllowed('GET'));
  return router;
}

export const eventsStreamRouteGroup: HandWrittenRoutes = { router: eventsStreamRoutes, openapi: EVENTS_STREAM_PATHS };
