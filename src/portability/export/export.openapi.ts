import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';
import { ref } from '../../openapi/hand-route-docs.js';

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

/** The OpenAPI path items of export.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const ACCOUNT_EXPORT_PATHS: Json = {
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
};
