import { Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildRestOpenApi, dataEnvelope, errorResponse, type Json } from '../src/openapi/rest-openapi.js';
import { docsRoutes } from '../src/openapi/swagger-ui.js';
import { errorEnvelope } from './envelope.js';
import { answerSelection } from './answer-shape.js';
import type { RouteTable } from './route-table.js';

export const SESSION_API_BASE = '/api/v1';

/** Operations answered without a session (signing up, in and out, tokens sent by mail). */
const WITHOUT_SESSION = new Set(['register', 'login', 'logout', 'requestPasswordReset', 'resetPassword', 'verifyEmail', 'resendVerification']);

/** Operations that need a plan with the feature (src/accounts/subscription.ts `requireFeature`). */
const PLAN_GATED = new Set(['createApiKey', 'rotateApiKey', 'webhooks', 'createWebhook', 'updateWebhook', 'deleteWebhook', 'webhookDeliveries', 'testWebhook']);

const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const FILE_ID: Json = { name: 'fileId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const BYTES: Json = { description: 'The file\'s bytes, with its own Content-Type.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };
const multipart = (properties: Json, required: string[]): Json => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', required, properties: { file: { type: 'string', format: 'binary', description: 'The file (at most MAX_FILE_SIZE bytes).' }, ...properties } } } },
});

/**
 * The hand-written routes beside the route table (rest/uploads.ts): multipart uploads and file bytes.
 * Sofa cannot serve them, so they are described here, with the same envelopes and errors.
 */
export const BYTE_ROUTES: Json = {
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
        '201': { description: 'Success: `{ ok: true, data }` with the photo and its `file`.', content: { 'application/json': { schema: dataEnvelope(schemaRef('ProgressPhoto')) } } },
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
};

/**
 * The Session API's OpenAPI 3.0 document: every route of `routes` (rest/session-routes.ts) described
 * from the same schema the surface serves (src/openapi/rest-openapi.ts), with the session cookie, and
 * the error answers each route can give. Routes with an `answer` shape describe the fields they select.
 */
export function buildSessionOpenApi(sofaDocument: Json, schema: GraphQLSchema, routes: RouteTable): { document: Json; yaml: string } {
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
    security: (route) => (WITHOUT_SESSION.has(route.field) ? [] : [{ session: [] }]),
    extraPaths: BYTE_ROUTES,
    // A route with an `answer` shape is described by the selection it runs, not by the whole type.
    selection: (operation) => {
      const shape = routes[operation]?.answer;
      return shape ? answerSelection(schema, operation, shape).selection : undefined;
    },
    successHeaders: { 'API-Version': { description: 'Always v1.', schema: { type: 'string', enum: ['v1'] } } },
    errors: (route) => ({
      ...(route.hasBody || route.hasQueryParameters || route.hasPathParameters ? { '400': ref('ValidationError') } : {}),
      ...(route.field === 'login' ? { '401': ref('InvalidCredentials') } : WITHOUT_SESSION.has(route.field) ? {} : { '401': ref('Unauthorized') }),
      ...(PLAN_GATED.has(route.field) ? { '403': ref('SubscriptionRequired') } : {}),
      ...(route.hasPathParameters || route.referencesRecord ? { '404': ref('NotFound') } : {}),
      ...(route.field === 'register' ? { '409': ref('EmailExists') } : {}),
      ...(route.hasBody ? { '413': ref('PayloadTooLarge') } : {}),
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
export function sessionDocsRouter(schema: GraphQLSchema, routes: RouteTable, sofaDocument: () => Json): Router {
  const router = Router();
  let yaml: string | undefined;
  router.get('/openapi.yaml', (_req, res) => {
    yaml ??= buildSessionOpenApi(sofaDocument(), schema, routes).yaml;
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
