import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';
import { multipart, ref, UPLOAD_IDEMPOTENCY_ANSWERS, UPLOAD_IDEMPOTENCY_KEY } from '../../openapi/hand-route-docs.js';

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

/** The OpenAPI path items of import.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const IMPORT_PATHS: Json = {
  '/account/import/{source}': {
    post: {
      operationId: 'startImport',
      summary: 'Import a CSV from Strong or Hevy, Goodreads, or a bank (multipart; runs as a job)',
      security: [{ session: [] }],
      parameters: [{ name: 'source', in: 'path', required: true, schema: { type: 'string', enum: ['strong', 'goodreads', 'transactions'] } }, UPLOAD_IDEMPOTENCY_KEY],
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
        ...UPLOAD_IDEMPOTENCY_ANSWERS,
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
};
