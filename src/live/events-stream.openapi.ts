import type { Json } from '../openapi/rest-openapi.js';
import { ref } from '../openapi/hand-route-docs.js';

/** The OpenAPI path item of events-stream.routes.ts (merged into the Session API document). */
export const EVENTS_STREAM_PATHS: Json = {
  '/events/stream': {
    get: {
      operationId: 'eventsStream',
      summary: 'Your committed changes as Server-Sent Events (the `myChanges` subscription for REST clients)',
      description:
        'A `text/event-stream` that stays open. Each committed change to one of your records is one `change` event whose data is ' +
        '`{ "entity": "Task", "id": "…", "kind": "created" | "updated" | "deleted", "committedAt": "…", "cursor": "1843" }`; `entity` "*" means many records ' +
        'changed at once (refetch what you show). `cursor` is the change feed\'s (`GET /sync?since=`): once you applied the event, syncing from it ' +
        'misses and repeats nothing; null when the event says nothing of the feed (keep the cursor you had). An event over the answer ceiling (the smaller of 16 MB and LIVE_MAX_BUFFERED_BYTES) is sent as ' +
        'one `error` event instead, `{ "code": "VALIDATION_ERROR", "message": "Answer size limit of … exceeded: …" }` (refetch), and the stream goes on. ' +
        'Lines starting with `:` are keep-alive comments. The stream ends when your session ends ' +
        '(logout, revocation, password change) and when the server shuts down; reconnect with backoff. At most LIVE_MAX_SOCKETS_PER_USER ' +
        'streams and sockets per person per instance (429 beyond).',
      security: [{ session: [] }],
      responses: {
        '200': {
          description: 'The event stream.',
          content: { 'text/event-stream': { schema: { type: 'string', example: 'event: change\ndata: {"entity":"ChecklistItem","id":"…","kind":"updated","committedAt":"2026-11-27T09:00:00.000Z","cursor":"1843"}\n\n' } } },
        },
        '401': ref('Unauthorized'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
};
