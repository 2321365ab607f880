import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { RouteTable } from './route-table.js';
import { buildRestOpenApi, errorResponse, type Json } from '../src/openapi/rest-openapi.js';
import { UNDO_KINDS } from '../src/undo/undo-kinds.js';
import { UNDO_TOKEN_HEADER } from '../src/graphql/undo-token-holder.js';

/** The writes that answer an undo token (docs/undo.md): their success documents the header. */
const UNDOABLE = new Set(UNDO_KINDS.map((kind) => kind.mutation));

const ROUTE_SUMMARIES: Record<string, string> = {
  publicSearchExercises: 'Search the exercise catalog',
  publicLogWater: 'Log water',
  publicLogWorkout: 'Log a workout',
  publicLogSteps: 'Log steps',
  publicLogMeditation: 'Log meditation',
  publicLogCardio: 'Log cardio',
  publicLogMood: 'Log mood and energy',
  publicLogSleep: 'Log sleep',
  publicLogBodyMetrics: 'Log body metrics',
  publicUndo: 'Undo a write',
};

const RATE_HEADERS: Json = {
  'x-ratelimit-limit': { description: 'Requests allowed per window for this key.', schema: { type: 'integer' } },
  'x-ratelimit-remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'x-ratelimit-reset': { description: 'Unix time (seconds) when the window resets.', schema: { type: 'integer' } },
  'API-Version': { description: 'Always v1.', schema: { type: 'string', enum: ['v1'] } },
};

const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/**
 * The Public API's OpenAPI 3.0 document (src/openapi/rest-openapi.ts) with its own parts: the bearer
 * key on every route, the per-key rate-limit headers, and the 400/401/429/500 answers.
 */
export function buildPublicOpenApi(
  sofaDocument: Json,
  schema: GraphQLSchema,
  routes: RouteTable,
  basePath: string,
  documents: Map<string, DocumentNode>,
): { document: Json; yaml: () => Promise<string> } {
  return buildRestOpenApi({
    documents,
    sofaDocument,
    schema,
    routes,
    basePath,
    tag: 'Public API',
    summaries: ROUTE_SUMMARIES,
    info: {
      title: 'Life Planner Public API',
      version: 'v1',
      description: [
        'Write-only API for scripts and devices (plus one exercise lookup). Every request carries',
        '`Authorization: Bearer <API key>` (create keys in Settings → Developer → API Keys; a plan with API',
        'keys is needed) and `Content-Type: application/json`. Data is attached to the key owner\'s today, in',
        'their time zone; `dayId` is never sent. Answers are `{ ok: true, data }`; errors are',
        '`{ ok: false, error: { code, message, details? } }`. Each key may make a limited number of requests',
        'per window (see the `x-ratelimit-*` headers).',
      ].join(' '),
    },
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_ followed by 43 base64url characters' } },
    security: () => [{ apiKey: [] }],
    successHeaders: RATE_HEADERS,
    routeSuccessHeaders: (field) =>
      UNDOABLE.has(field)
        ? { [UNDO_TOKEN_HEADER]: { description: "A token to revert this write within 10 minutes (docs/undo.md): the key owner's undo, as the app's own writes answer it; send it to `POST /undo` as it is (an opaque signed string). Absent when this call offers no undo.", schema: { type: 'string' } } }
        : undefined,
    errors: (route) => ({
      ...(route.hasBody || route.hasQueryParameters || route.hasPathParameters ? { '400': ref('ValidationError') } : {}),
      '401': ref('Unauthorized'),
      ...(route.referencesRecord ? { '404': ref('NotFound') } : {}),
      ...(route.field === 'publicUndo' ? { '404': ref('UndoNotFound'), '409': ref('UndoConflict'), '410': ref('UndoExpired') } : {}),
      ...(route.field === 'publicQuickAdd' ? { '422': ref('NotUnderstood') } : {}),
      '429': ref('RateLimited'),
      '500': ref('InternalError'),
    }),
    responses: {
      NotUnderstood: errorResponse('NOT_UNDERSTOOD: quick add did not understand the line, or a name in it matches none or several of your own records; nothing was written. `details` holds `text`, `tokens` (each span: `start`, `end`, `text`, `meaning`, `field`, `value`), `unknown` (the spans not understood), and where a name was the trouble `kind`, `candidates` (`{ id, name }`) and `alternatives`.'),
      ValidationError: errorResponse(
        'VALIDATION_ERROR: the input failed validation; `details.errors` lists `{ path, message }` per field.',
        {},
        'ValidationErrorEnvelope',
      ),
      Unauthorized: errorResponse(
        'UNAUTHORIZED: the API key is missing, malformed, unknown, revoked or expired, or its owner\'s plan has lapsed.',
        { headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } },
      ),
      RateLimited: {
        description: 'RATE_LIMIT_EXCEEDED: too many requests for this key in the window.',
        headers: { ...RATE_HEADERS, 'retry-after': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/RateLimitExceeded' } } },
      },
      NotFound: errorResponse('NOT_FOUND: a record the body names (an `exerciseId`) does not exist or is not the key owner\'s.'),
      InternalError: errorResponse('INTERNAL_ERROR'),
      UndoNotFound: errorResponse('NOT_FOUND: the undo token was used, does not exist or is not the key owner\'s (the same answer for all three).'),
      UndoConflict: errorResponse('UNDO_CONFLICT: the record changed since the write (its version moved on, or its trash entry was deleted for good); nothing was undone. `details.version` is its current version when it has one.'),
      UndoExpired: errorResponse('UNDO_EXPIRED: the token is older than 10 minutes; nothing was undone.'),
    },
    schemas: {
      RateLimitExceeded: {
        type: 'object',
        required: ['statusCode', 'error', 'message', 'retryAfter'],
        properties: {
          statusCode: { type: 'integer', enum: [429] },
          error: { type: 'string', enum: ['RATE_LIMIT_EXCEEDED'] },
          message: { type: 'string', description: 'Names the maximum and the window in seconds.' },
          retryAfter: { type: 'integer', description: 'Seconds until the window resets.' },
        },
      },
    },
  });
}
