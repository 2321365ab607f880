import { Router } from 'express';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { buildRestOpenApi, errorResponse, type Json } from '../src/openapi/rest-openapi.js';
import { FORM_SUBMIT_ERRORS } from '../src/brain/forms/public-forms.openapi.js';
import { docsRoutes } from '../src/openapi/swagger-ui.js';
import { errorEnvelope } from '../src/http/envelope.js';
import { NoRouteError } from '../src/core/errors.js';
import { operationNeedsSession, operationPlanFeatures } from '../src/core/authorization.js';
import type { RouteTable } from './route-table.js';
import { UNDO_KINDS } from '../src/undo/undo-kinds.js';
import { UNDO_TOKEN_HEADER } from '../src/graphql/undo-token-holder.js';

/** The writes that answer an undo token (docs/undo.md): their success documents the header. */
const UNDOABLE = new Set(UNDO_KINDS.map((kind) => kind.mutation));

/** The routes that answer a sign-in's second step: refused per account too (src/accounts/sign-in/second-factor-lockout.ts). */
const SECOND_FACTOR_ANSWERS = ['completeSignIn', 'completeSignInWithPasskey', 'startSecondFactorPasskey'];

export const SESSION_API_BASE = '/api/v1';

/**
 * Operations answered without a session (signing up, in and out, tokens sent by mail): those their
 * resolver declares `@Anonymous()` (src/core/authorization.ts).
 */
const withoutSession = (field: string) => !operationNeedsSession(field);

/** Operations that need a plan with a feature: declared `@PlanGated(feature)` (src/accounts/subscription.ts). */
const planGated = (field: string) => operationPlanFeatures(field).length > 0;

const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/**
 * The Session API's OpenAPI 3.0 document: every route of `routes` (rest/session-routes.ts) described
 * from the same schema the surface serves (src/openapi/rest-openapi.ts), with the session cookie, and
 * the error answers each route can give. Routes with an `answer` shape describe the fields they select.
 */
/**
 * `handWritten`: the path items of the routes Sofa does not serve (src/app/hand-written-routes.ts), each
 * declared beside its handler.
 */
export function buildSessionOpenApi(sofaDocument: Json, schema: GraphQLSchema, routes: RouteTable, documents: Map<string, DocumentNode>, handWritten: Json): { document: Json; yaml: () => Promise<string> } {
  return buildRestOpenApi({
    sofaDocument,
    schema,
    routes,
    basePath: SESSION_API_BASE,
    tag: 'Session API',
    info: {
      title: 'Life Planner Session API',
      version: 'v1',
      description: [
        'The REST API of the web and mobile apps. Sign in with `POST /auth/login` (or `/auth/register`): the',
        'answer sets the `lp_session` cookie, which authenticates every other request (an account with two-factor',
        'sign-in answers 401 `SECOND_FACTOR_REQUIRED` instead, and `POST /auth/login/second-factor` sets it). Bodies are JSON',
        '(`Content-Type: application/json`). Answers are `{ ok: true, data, meta? }` (lists add',
        '`meta: { page, limit, total }`); errors are `{ ok: false, error: { code, message, details? } }`.',
        'Multipart uploads (`POST /files/upload`, `POST /body-composition/photos`) take `multipart/form-data`.',
      ].join(' '),
    },
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lp_session' } },
    security: (route) => (withoutSession(route.field) ? [] : [{ session: [] }]),
    extraPaths: handWritten,
    documents,
    successHeaders: { 'API-Version': { description: 'Always v1.', schema: { type: 'string', enum: ['v1'] } } },
    routeSuccessHeaders: (field) =>
      UNDOABLE.has(field)
        ? { [UNDO_TOKEN_HEADER]: { description: 'A token to revert this write with `POST /undo` within 10 minutes (docs/undo.md). An opaque signed string: send it back as it is. Absent when this call offers no undo (e.g. an update of a field with no plain previous value, such as a recurrence).', schema: { type: 'string' } } }
        : undefined,
    errors: (route) => ({
      // (starting a TOTP enrolment takes no input but is refused while two-factor is on: rule totp_enabled;
      // starting a passkey registration, past the passkey cap: rule passkey_limit)
      ...(route.hasBody || route.hasQueryParameters || route.hasPathParameters || route.field === 'startTotpEnrolment' || route.field === 'startPasskeyRegistration' ? { '400': ref('ValidationError') } : {}),
      ...(route.field === 'login' ? { '401': ref('InvalidCredentials') } : route.field === 'completeSignIn' || route.field === 'completeSignInWithPasskey' ? { '401': ref('WrongSecondFactor') } : route.field === 'finishPasskeySignIn' ? { '401': ref('PasskeyRefused') } : withoutSession(route.field) ? {} : { '401': ref('Unauthorized') }),
      ...(planGated(route.field)
        ? { '403': ref(route.method === 'GET' ? 'SubscriptionRequired' : 'ForeignOriginOrSubscription') }
        : route.field === 'login' || route.field === 'register'
          ? { '403': ref('ForeignOriginOrPasswordOff') }
          : route.method !== 'GET'
            ? { '403': ref('ForeignOrigin') }
            : {}),
      ...(route.hasPathParameters || route.referencesRecord ? { '404': ref('NotFound') } : {}),
      ...(route.field === 'register' ? { '409': ref('EmailExists') } : route.field === 'createReminder' ? { '409': ref('ReminderExists') } : {}),
      ...(route.hasBody ? { '413': ref('PayloadTooLarge') } : {}),
      ...(route.method !== 'GET' ? { '415': ref('NotJson') } : {}),
      ...(route.field === 'submitBrainForm' ? FORM_SUBMIT_ERRORS : {}),
      ...(route.field === 'sync' ? { '410': ref('SyncCursorExpired') } : {}),
      ...(route.field === 'undo' ? { '404': ref('NotFound'), '409': ref('UndoConflict'), '410': ref('UndoExpired') } : {}),
      ...(route.field === 'quickAdd' ? { '422': ref('NotUnderstood') } : {}),
      '429': ref(SECOND_FACTOR_ANSWERS.includes(route.field) ? 'RateLimitedOrSecondFactorLocked' : 'RateLimited'),
      '500': ref('InternalError'),
    }),
    responses: {
      ValidationError: errorResponse(
        'VALIDATION_ERROR: the input failed validation or a rule; `details.errors` lists `{ path, message }`, `details.rule` names the rule.',
        {},
        'ValidationErrorEnvelope',
      ),
      Unauthorized: errorResponse('UNAUTHORIZED: no session cookie, or the session ended.'),
      InvalidCredentials: errorResponse(
        'INVALID_CREDENTIALS: wrong email or password. SECOND_FACTOR_REQUIRED: the password was right and the account has two-factor sign-in: no cookie is set; `details` holds `challengeToken` (valid 5 minutes, single use), `methods` (`totp`, `recovery_code`, `passkey`) and `expiresAt`. Finish with `POST /auth/login/second-factor`.',
      ),
      PasskeyRefused: errorResponse('INVALID_CREDENTIALS: the passkey\'s answer did not verify (unknown passkey, another origin, a spent or expired challenge, a bad signature); no cookie is set.'),
      WrongSecondFactor: errorResponse('INVALID_CREDENTIALS: the code is wrong or was already used; `details.attemptsLeft` says how many more the step takes (after five wrong answers it is refused as expired: sign in again).'),
      SubscriptionRequired: errorResponse('SUBSCRIPTION_REQUIRED: the plan does not include this feature (`details.feature`).'),
      ForeignOrigin: errorResponse('FORBIDDEN: the request came from a page of another origin (its `Origin` or `Referer` is not this service\'s); nothing was changed.'),
      ForeignOriginOrPasswordOff: errorResponse('FORBIDDEN: the request came from a page of another origin. PASSWORD_SIGN_IN_DISABLED: this server signs in through single sign-on only (`PASSWORD_SIGN_IN_DISABLED`); use `GET /auth/oidc/start`.'),
      ForeignOriginOrSubscription: errorResponse('SUBSCRIPTION_REQUIRED: the plan does not include this feature (`details.feature`); FORBIDDEN: the request came from a page of another origin.'),
      NotJson: errorResponse('UNSUPPORTED_MEDIA_TYPE: a body was sent that is not `application/json` (form posts from other sites cannot reach the API).'),
      NotFound: errorResponse('NOT_FOUND: no such record, or it belongs to another user.'),
      UndoConflict: errorResponse('UNDO_CONFLICT: the record changed since the write (its version, or its updatedAt where it has no version, moved on; or its trash entry was deleted for good); nothing was undone. `details.version` is its current version when it has one.'),
      UndoExpired: errorResponse('UNDO_EXPIRED: the token is older than 10 minutes; nothing was undone.'),
      NotUnderstood: errorResponse('NOT_UNDERSTOOD: quick add did not understand the line, or a name in it matches none or several of your own records; nothing was written. `details` holds `text`, `tokens` (each span: `start`, `end`, `text`, `meaning`, `field`, `value`), `unknown` (the spans not understood), and where a name was the trouble `kind`, `candidates` (`{ id, name }`) and `alternatives`.'),
      SyncCursorExpired: errorResponse(
        'SYNC_CURSOR_EXPIRED: the change feed cannot answer what changed since this cursor (older than SYNC_RETENTION_DAYS, from before your feed began, newer than any change of yours, or a change that named no rows). `details.cursor` is your newest cursor: read everything again (your lists), then sync from it. docs/sync.md.',
      ),
      EmailExists: errorResponse('EMAIL_EXISTS: this email is already registered.'),
      ReminderExists: errorResponse('REMINDER_EXISTS: the person already holds a reminder of this daily kind (bedtime_in_bed, bedtime_lights_out, morning_brief, evening_review: one of each); `details: { kind, reminderId, field }` names the one to change instead.'),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: the body is over 2 MB.'),
      RateLimited: errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address in the window.', {
        headers: {
          'RateLimit-Limit': { schema: { type: 'integer' } },
          'RateLimit-Remaining': { schema: { type: 'integer' } },
          'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
          'Retry-After': { schema: { type: 'integer' } },
        },
      }),
      RateLimitedOrSecondFactorLocked: errorResponse(
        'RATE_LIMIT_EXCEEDED: too many requests from this address in the window. SECOND_FACTOR_LOCKED: too many wrong second factors for this account, from any address and sign-in step: `details.reason` is `backoff` (wait before the next try) or `locked` (SECOND_FACTOR_MAX_FAILURES reached: refused, the right answer too, for SECOND_FACTOR_LOCK_MS; the person was mailed); `details.retryAfterSeconds` and `Retry-After` say how long.',
        { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } },
      ),
      InternalError: errorResponse('INTERNAL_ERROR'),
    },
  });
}

/**
 * `GET /api/v1/openapi.yaml` and `/api/v1/docs` (no session needed). Mounted on /api/v1 before the
 * REST surface, whose 404 for unknown routes would otherwise answer them.
 */
export function sessionDocsRouter(schema: GraphQLSchema, routes: RouteTable, sofaDocument: () => Promise<Json>, handWritten: Json): Router {
  const router = Router();
  let yaml: string | undefined;
  router.get('/openapi.yaml', async (_req, res) => {
    // Sofa and the route documents are loaded when the document is first asked for, not at start-up.
    const { sofaRouteOperations } = await import('./sofa-operations.js');
    yaml ??= await buildSessionOpenApi(await sofaDocument(), schema, routes, sofaRouteOperations(schema, routes), handWritten).yaml();
    res.type('application/yaml').send(yaml);
  });
  router.use(
    docsRoutes({
      base: SESSION_API_BASE,
      title: 'Session API v1 reference',
      notFound: (req, res) => res.status(404).json(errorEnvelope(new NoRouteError(req.method, req.originalUrl.split('?')[0]!))),
    }),
  );
  return router;
}
