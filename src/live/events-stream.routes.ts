import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { AppError } from '../core/errors.js';
import type { LiveConnection } from '../core/live/live-hub.js';
import { LiveTickStream } from '../core/live/live-ticks.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { methodNotAllowed, sessionRoute } from '../http/session-route.js';
import { EVENTS_STREAM_PATHS } from './events-stream.openapi.js';
import { MY_CHANGES_TOPIC } from './my-changes.js';

export const EVENTS_STREAM_PATH = '/events/stream';

/**
 * GET /api/v1/events/stream: the "my changes" feed as Server-Sent Events for REST clients (issue 27).
 * One `change` event per committed change (`{ entity, id, kind, committedAt }`), a comment line as
 * keep-alive, the same per-person connection limit as the sockets, and the stream ends when the session
 * does or when the client stops reading (a slow consumer is dropped, not buffered for).
 */
export function eventsStreamRoutes(deps: AppDeps): Router {
  const router = Router();
  const limits = deps.config.live;
  router.get(
    EVENTS_STREAM_PATH,
    sessionRoute(deps, async ({ ctx }, req, res) => {
      const hub = deps.live;
      if (!hub) throw new Error('live updates are not running');
      const auth = ctx.auth!;
      let ended = false;
      const ticks = new LiveTickStream(MY_CHANGES_TOPIC, (listener) => hub.listen(auth.user.id, listener), () => undefined);
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        void ticks.return();
        hub.closed(connection);
        res.end();
      };
      const connection: LiveConnection = { userId: auth.user.id, sessionId: auth.sessionId, close: end };
      const full = hub.open(connection);
      if (full) throw new AppError('RATE_LIMIT_EXCEEDED', 429, full);
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no', // nginx: pass each event on at once
      });
      res.write(': live\n\n');
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), limits.keepAliveMs);
      req.once('close', end);
      res.once('close', end);
      void (async () => {
        for (;;) {
          const { value: tick, done } = await ticks.next();
          if (done || ended) return;
          const committedAt = new Date(tick.committedAt ?? Date.now()).toISOString();
          for (const change of tick.changes) res.write(`event: change\ndata: ${JSON.stringify({ ...change, committedAt })}\n\n`);
          if (res.writableLength > limits.maxBufferedBytes) end();
        }
      })();
    }),
  );
  router.all(EVENTS_STREAM_PATH, methodNotAllowed('GET'));
  return router;
}

export const eventsStreamRouteGroup: HandWrittenRoutes = { router: eventsStreamRoutes, openapi: EVENTS_STREAM_PATHS };
