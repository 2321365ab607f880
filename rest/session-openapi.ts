import { Router } from 'express';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { buildRestOpenApi, dataEnvelope, errorResponse, type Json } from '../src/openapi/rest-openapi.js';
import { docsRoutes } from '../src/openapi/swagger-ui.js';
import { errorEnvelope } from '../src/http/envelope.js';
import { operationNeedsSession } from '../src/core/current-user.js';
import type { RouteTable } from './route-table.js';

export const SESSION_API_BASE = '/api/v1';

/**
 * Operations answered without a session (signing up, in and out, tokens sent by mail): those whose
 * resolver takes no signed-in user (`@CurrentUserId()` and its kin in src/core/current-user.ts).
 */
const withoutSession = (field: string) => !operationNeedsSession(field);

/** Operations that need a plan with the feature (src/accounts/subscription.ts `requireFeature`). */
const PLAN_GATED = new Set(['createApiKey', 'rotateApiKey', 'webhooks', 'createWebhook', 'updateWebhook', 'deleteWebhook', 'webhookDeliveries', 'testWebhook']);

const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const FILE_ID: Json = { name: 'fileId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const EXPORT_ID: Json = { name: 'exportId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const EXPORT_STATE = (required: string[]): Json => ({
  type: 'object',
  required,
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['pending', 'running', 'done', 'failed'] },
    ...(required.includes('url') ? { url: { type: 'string', nullable: true, description: 'The signed download link once done (valid 24 hours from then), else null.' } } : {}),
  },
});
const BYTES: Json = { description: 'The file\'s bytes, with its own Content-Type.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };
const multipart = (properties: Json, required: string[]): Json => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', required, properties: { file: { type: 'string', format: 'binary', description: 'The file (at most MAX_FILE_SIZE bytes).' }, ...properties } } } },
});

const IMPORT_STATUS: Json = { type: 'string', enum: ['pending', 'running', 'done', 'failed'] };
const IMPORT_STARTED: Json = { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string', format: 'uuid' }, status: IMPORT_STATUS } };
const NAMES: Json = { type: 'array', items: { type: 'string' } };
const IMPORT_VIEW: Json = {
  type: 'object',
  required: ['id', 'status', 'created', 'skipped', 'refused', 'refusedTotal', 'progress'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: IMPORT_STATUS,
    created: { type: 'integer', description: 'Rows that created records.' },
    skipped: { type: 'integer', description: 'Rows already present (a re-import skips them all).' },
    refused: {
      type: 'array',
      description: 'The first 1,000 refused rows, in file order.',
      items: { type: 'object', required: ['row', 'reason'], properties: { row: { type: 'integer', description: 'Line in the file (the header is line 1).' }, reason: { type: 'string' } } },
    },
    refusedTotal: { type: 'integer', description: 'Every refused row, counted.' },
    progress: {
      type: 'object',
      required: ['rows', 'done'],
      description: 'Data rows in the file, and rows handled so far (committed in chunks of 500).',
      properties: { rows: { type: 'integer' }, done: { type: 'integer' } },
    },
    exercises: {
      type: 'object',
      required: ['matched', 'created', 'left'],
      description: 'Workout imports only (`strong`): what became of each exercise name of the file.',
      properties: {
        matched: { type: 'array', items: { type: 'object', required: ['name', 'exercise'], properties: { name: { type: 'string' }, exercise: { type: 'string', description: 'The exercise it became.' } } } },
        created: { ...NAMES, description: 'Names made your own exercises.' },
        left: { ...NAMES, description: 'Names only in refused rows: nothing was made of them.' },
      },
    },
  },
};

const PUBLIC_SLUG: Json = { name: 'publicSlug', in: 'path', required: true, schema: { type: 'string', maxLength: 32 } };
const ACCESS_PASSWORD_HEADER: Json = { name: 'X-Brain-Access-Password', in: 'header', required: false, schema: { type: 'string' }, description: 'The form\'s access password, if it has one.' };
const PUBLIC_FORM: Json = {
  type: 'object',
  required: ['publicSlug', 'name', 'closed', 'fields'],
  properties: {
    publicSlug: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    closed: { type: 'boolean' },
    closesAt: { type: 'string', format: 'date-time', nullable: true },
    requiresPassword: { type: 'boolean' },
    collectRespondentName: { type: 'boolean' },
    oneResponsePerPerson: { type: 'boolean' },
    isQuiz: { type: 'boolean' },
    alreadySubmitted: { type: 'boolean' },
    fields: {
      type: 'array',
      description: 'The questions, without the right answers.',
      items: { type: 'object', properties: { key: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, required: { type: 'boolean' }, options: { type: 'array', items: { type: 'string' } } } },
    },
  },
};
const PUBLIC_SUBMITTED: Json = {
  type: 'object',
  required: ['form', 'database', 'record', 'thankYouMessage'],
  properties: {
    form: { type: 'object', additionalProperties: true, description: 'id, name, publicSlug.' },
    database: { type: 'object', additionalProperties: true, description: 'id, name.' },
    record: { type: 'object', additionalProperties: true, description: 'id, values (without the respondent fingerprint fields), createdAt.' },
    quiz: { type: 'object', properties: { score: { type: 'number' }, max: { type: 'number' }, pct: { type: 'integer' } }, description: 'Only when the form shows its quiz score.' },
    thankYouMessage: { type: 'string' },
  },
};
/** The Brain form submit refusals (spec: Brain forms), shared by the session route's description. */
export const FORM_SUBMIT_ERRORS: Json = {
  '400': errorResponse('VALIDATION (not VALIDATION_ERROR): an answer is missing, of the wrong type, or a body field is unknown; `details.errors` lists `{ path, message }`.'),
  '404': ref('NotFound'),
  '409': errorResponse('ALREADY_SUBMITTED: this one-response form was already answered by this person.'),
  '410': errorResponse('CLOSED: the form is closed (`closed` or `closesAt` passed).'),
};

/**
 * The hand-written routes beside the route table (src/app/hand-written-routes.ts): multipart uploads and file bytes.
 * Sofa cannot serve them, so they are described here, with the same envelopes and errors.
 */
export const BYTE_ROUTES: Json = {
  // Brain forms, public side (src/brain/forms/public-forms.routes.ts): no login, the access password
  // header and the httpOnly respondent cookie are no GraphQL operation's business.
  '/brain/public/forms/{publicSlug}': {
    get: {
      operationId: 'publicBrainForm',
      summary: 'A published form\'s questions (no login; a session names the respondent)',
      security: [],
      parameters: [PUBLIC_SLUG, ACCESS_PASSWORD_HEADER, { name: 'accessPassword', in: 'query', required: false, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'Success: the questions; a closed form answers `closed: true`.', content: { 'application/json': { schema: dataEnvelope(PUBLIC_FORM) } } },
        '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong (`details.passwordRequired`).'),
        '404': ref('NotFound'),
        '429': errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address, or 10 wrong access passwords for this form in 15 minutes (from any address; `Retry-After`).'),
        '500': ref('InternalError'),
      },
    },
  },
  '/brain/public/forms/{publicSlug}/submit': {
    post: {
      operationId: 'submitPublicBrainForm',
      summary: 'Answer a published form (no login)',
      security: [],
      parameters: [PUBLIC_SLUG, ACCESS_PASSWORD_HEADER],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                values: { type: 'object', additionalProperties: true, description: 'Answers keyed by field key.' },
                accessPassword: { type: 'string' },
                respondentKey: { type: 'string', maxLength: 200, description: 'A stable key of this respondent (one-response forms); else the respondent cookie counts.' },
                respondentName: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '201': { description: 'Success: the record made; sets the httpOnly `lp_brain_respondent` cookie on one-response forms.', content: { 'application/json': { schema: dataEnvelope(PUBLIC_SUBMITTED) } } },
        ...FORM_SUBMIT_ERRORS,
        '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong.'),
        '413': ref('PayloadTooLarge'),
        '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not JSON.'),
        '429': errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address, or 10 wrong access passwords for this form in 15 minutes (from any address; `Retry-After`).'),
        '500': ref('InternalError'),
      },
    },
  },
  '/files/upload': {
    post: {
      operationId: 'uploadFile',
      summary: 'Upload a file (multipart)',
      security: [{ session: [] }],
      requestBody: multipart({ fileType: schemaRef('FileType') }, ['file']),
      responses: {
        '201': { description: 'Success: `{ ok: true, data }` with the stored file and a signed `url`.', content: { 'application/json': { schema: dataEnvelope(schemaRef('File')) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '413': ref('PayloadTooLarge'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/files/{fileId}/download': {
    get: {
      operationId: 'downloadFile',
      summary: 'Download a file\'s bytes',
      security: [{ session: [] }],
      parameters: [FILE_ID],
      responses: { '200': BYTES, '400': ref('ValidationError'), '401': ref('Unauthorized'), '404': ref('NotFound'), '429': ref('RateLimited'), '500': ref('InternalError') },
    },
  },
  '/files/{fileId}/content': {
    get: {
      operationId: 'fileContent',
      summary: 'A file\'s bytes through a signed URL (the `url` of a file; no cookie)',
      security: [],
      parameters: [
        FILE_ID,
        { name: 'variant', in: 'query', required: false, schema: { type: 'string', enum: ['thumbnail', 'small', 'medium', 'large', 'original'], default: 'original' } },
        { name: 'expires', in: 'query', required: true, schema: { type: 'integer' }, description: 'Unix seconds.' },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: { '200': BYTES, '400': ref('ValidationError'), '401': errorResponse('UNAUTHORIZED: the link is invalid or has expired.'), '404': ref('NotFound'), '429': ref('RateLimited'), '500': ref('InternalError') },
    },
  },
  '/body-composition/photos': {
    post: {
      operationId: 'uploadProgressPhoto',
      summary: 'Upload a progress photo (multipart)',
      security: [{ session: [] }],
      requestBody: multipart({ dayId: { type: 'string', format: 'uuid' }, pose: schemaRef('PhotoPose'), notes: { type: 'string' } }, ['file', 'dayId', 'pose']),
      responses: {
        '201': { description: 'Success: `{ ok: true, data }` with the photo and its `file`.', content: { 'application/json': { schema: dataEnvelope({ allOf: [schemaRef('ProgressPhoto'), { type: 'object', required: ['file'], properties: { file: schemaRef('File') } }] }) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': ref('NotFound'),
        '413': ref('PayloadTooLarge'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/transactions/export': {
    get: {
      operationId: 'exportTransactions',
      summary: 'The filtered transactions as a CSV file (formula cells prefixed with a quote)',
      security: [{ session: [] }],
      parameters: [
        { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['csv'], default: 'csv' } },
        { name: 'accountId', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
        { name: 'startDate', in: 'query', required: false, schema: { type: 'string', format: 'date' } },
        { name: 'endDate', in: 'query', required: false, schema: { type: 'string', format: 'date' } },
        { name: 'category', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'An attachment `transactions-<date>.csv`, newest first.', content: { 'text/csv': { schema: { type: 'string' } } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': ref('NotFound'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account/export': {
    post: {
      operationId: 'startAccountExport',
      summary: 'Start an export of the whole account (a zip: data.json, CSV files, Markdown, files)',
      security: [{ session: [] }],
      responses: {
        '202': {
          description: 'Accepted: `{ ok: true, data: { id, status } }`; the job runs in the background (one at a time per user: an export still pending or running is answered again).',
          content: { 'application/json': { schema: dataEnvelope(EXPORT_STATE(['id', 'status'])) } },
        },
        '401': ref('Unauthorized'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account/export/{exportId}': {
    get: {
      operationId: 'accountExport',
      summary: 'The state of an account export and, once done, its signed download url (valid 24 hours)',
      security: [{ session: [] }],
      parameters: [EXPORT_ID],
      responses: {
        '200': { description: 'Success: `{ ok: true, data: { id, status, url } }`.', content: { 'application/json': { schema: dataEnvelope(EXPORT_STATE(['id', 'status', 'url'])) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': ref('NotFound'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account/export/{exportId}/download': {
    get: {
      operationId: 'downloadAccountExport',
      summary: 'The export\'s zip (the `url` of a done export; its owner\'s session cookie too)',
      security: [{ session: [] }],
      parameters: [
        EXPORT_ID,
        { name: 'expires', in: 'query', required: true, schema: { type: 'integer' }, description: 'Unix seconds: 24 hours after the export finished.' },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'An attachment `life-planner-export-<date>.zip`.', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
        '400': ref('ValidationError'),
        '401': errorResponse('UNAUTHORIZED: no session cookie, or the link is invalid or has expired.'),
        '404': ref('NotFound'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/brain/export': {
    get: {
      operationId: 'exportBrain',
      summary: 'Your Brain as a zip: one Markdown file per note (YAML front matter) under notes/<folder path>/',
      security: [{ session: [] }],
      responses: {
        '200': { description: 'An attachment `brain-<date>.zip`, streamed.', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
        '401': ref('Unauthorized'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account/import/{source}': {
    post: {
      operationId: 'startImport',
      summary: 'Import a CSV from Strong or Hevy, Goodreads, or a bank (multipart; runs as a job)',
      security: [{ session: [] }],
      parameters: [{ name: 'source', in: 'path', required: true, schema: { type: 'string', enum: ['strong', 'goodreads', 'transactions'] } }],
      requestBody: multipart(
        {
          accountId: { type: 'string', format: 'uuid', description: 'transactions only: one of your accounts.' },
          mapping: {
            type: 'string',
            description: 'transactions only: a JSON object naming the CSV column of `date`, `amount`, `description` and optionally `category`, e.g. `{"date":"Booking date","amount":"Amount","description":"Payee"}`.',
          },
        },
        ['file'],
      ),
      responses: {
        '202': { description: 'Accepted: `{ ok: true, data: { id, status: pending } }`; poll `GET /account/import/{importId}`.', content: { 'application/json': { schema: dataEnvelope(IMPORT_STARTED) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': errorResponse('NOT_FOUND: `accountId` is not one of your accounts.'),
        '413': ref('PayloadTooLarge'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account/import/{importId}': {
    get: {
      operationId: 'importStatus',
      summary: "An import's state and counts, with the line and reason of each refused row",
      security: [{ session: [] }],
      parameters: [{ name: 'importId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: {
        '200': { description: 'Success.', content: { 'application/json': { schema: dataEnvelope(IMPORT_VIEW) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': ref('NotFound'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
  '/account': {
    delete: {
      operationId: 'deleteMyAccount',
      summary: 'Delete your account and everything of yours (files included); the session ends',
      security: [{ session: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['password'], properties: { password: { type: 'string', description: 'Your current password.' } } } } } },
      responses: {
        '200': {
          description: 'Success: `{ ok: true, data: { id, message } }`; the session cookie is cleared.',
          content: { 'application/json': { schema: dataEnvelope({ type: 'object', required: ['id', 'message'], properties: { id: { type: 'string', format: 'uuid' }, message: { type: 'string' } } }) } },
        },
        '400': ref('ValidationError'),
        '401': errorResponse('INVALID_CREDENTIALS: the password is wrong (nothing was removed); UNAUTHORIZED: no session.'),
        '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body must be JSON.'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
};

/**
 * The Session API's OpenAPI 3.0 document: every route of `routes` (rest/session-routes.ts) described
 * from the same schema the surface serves (src/openapi/rest-openapi.ts), with the session cookie, and
 * the error answers each route can give. Routes with an `answer` shape describe the fields they select.
 */
export function buildSessionOpenApi(sofaDocument: Json, schema: GraphQLSchema, routes: RouteTable, documents: Map<string, DocumentNode>): { document: Json; yaml: () => Promise<string> } {
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
        'answer sets the `lp_session` cookie, which authenticates every other request. Bodies are JSON',
        '(`Content-Type: application/json`). Answers are `{ ok: true, data, meta? }` (lists add',
        '`meta: { page, limit, total }`); errors are `{ ok: false, error: { code, message, details? } }`.',
        'Multipart uploads (`POST /files/upload`, `POST /body-composition/photos`) take `multipart/form-data`.',
      ].join(' '),
    },
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lp_session' } },
    security: (route) => (withoutSession(route.field) ? [] : [{ session: [] }]),
    extraPaths: BYTE_ROUTES,
    documents,
    successHeaders: { 'API-Version': { description: 'Always v1.', schema: { type: 'string', enum: ['v1'] } } },
    errors: (route) => ({
      ...(route.hasBody || route.hasQueryParameters || route.hasPathParameters ? { '400': ref('ValidationError') } : {}),
      ...(route.field === 'login' ? { '401': ref('InvalidCredentials') } : withoutSession(route.field) ? {} : { '401': ref('Unauthorized') }),
      ...(PLAN_GATED.has(route.field) ? { '403': ref(route.method === 'GET' ? 'SubscriptionRequired' : 'ForeignOriginOrSubscription') } : route.method !== 'GET' ? { '403': ref('ForeignOrigin') } : {}),
      ...(route.hasPathParameters || route.referencesRecord ? { '404': ref('NotFound') } : {}),
      ...(route.field === 'register' ? { '409': ref('EmailExists') } : {}),
      ...(route.hasBody ? { '413': ref('PayloadTooLarge') } : {}),
      ...(route.method !== 'GET' ? { '415': ref('NotJson') } : {}),
      ...(route.field === 'submitBrainForm' ? FORM_SUBMIT_ERRORS : {}),
      '429': ref('RateLimited'),
      '500': ref('InternalError'),
    }),
    responses: {
      ValidationError: errorResponse(
        'VALIDATION_ERROR: the input failed validation or a rule; `details.errors` lists `{ path, message }`, `details.rule` names the rule.',
        {},
        'ValidationErrorEnvelope',
      ),
      Unauthorized: errorResponse('UNAUTHORIZED: no session cookie, or the session ended.'),
      InvalidCredentials: errorResponse('INVALID_CREDENTIALS: wrong email or password.'),
      SubscriptionRequired: errorResponse('SUBSCRIPTION_REQUIRED: the plan does not include this feature (`details.feature`).'),
      ForeignOrigin: errorResponse('FORBIDDEN: the request came from a page of another origin (its `Origin` or `Referer` is not this service\'s); nothing was changed.'),
      ForeignOriginOrSubscription: errorResponse('SUBSCRIPTION_REQUIRED: the plan does not include this feature (`details.feature`); FORBIDDEN: the request came from a page of another origin.'),
      NotJson: errorResponse('UNSUPPORTED_MEDIA_TYPE: a body was sent that is not `application/json` (form posts from other sites cannot reach the API).'),
      NotFound: errorResponse('NOT_FOUND: no such record, or it belongs to another user.'),
      EmailExists: errorResponse('EMAIL_EXISTS: this email is already registered.'),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: the body is over 2 MB.'),
      RateLimited: errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address in the window.', {
        headers: {
          'RateLimit-Limit': { schema: { type: 'integer' } },
          'RateLimit-Remaining': { schema: { type: 'integer' } },
          'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
          'Retry-After': { schema: { type: 'integer' } },
        },
      }),
      InternalError: errorResponse('INTERNAL_ERROR'),
    },
  });
}

/**
 * `GET /api/v1/openapi.yaml` and `/api/v1/docs` (no session needed). Mounted on /api/v1 before the
 * REST surface, whose 404 for unknown routes would otherwise answer them.
 */
export function sessionDocsRouter(schema: GraphQLSchema, routes: RouteTable, sofaDocument: () => Promise<Json>): Router {
  const router = Router();
  let yaml: string | undefined;
  router.get('/openapi.yaml', async (_req, res) => {
    // Sofa and the route documents are loaded when the document is first asked for, not at start-up.
    const { sofaRouteOperations } = await import('./sofa-operations.js');
    yaml ??= await buildSessionOpenApi(await sofaDocument(), schema, routes, sofaRouteOperations(schema, routes)).yaml();
    res.type('application/yaml').send(yaml);
  });
  router.use(
    docsRoutes({
      base: SESSION_API_BASE,
      title: 'Session API v1 reference',
      notFound: (req, res) => res.status(404).json(errorEnvelope({ status: 404, code: 'NOT_FOUND', message: `No route ${req.method} ${req.originalUrl.split('?')[0]}` })),
    }),
  );
  return router;
}
