import { dataEnvelope, errorResponse, type Json } from '../openapi/rest-openapi.js';
import { BYTES, multipart, ref, schemaRef, UPLOAD_IDEMPOTENCY_ANSWERS, UPLOAD_IDEMPOTENCY_KEY } from '../openapi/hand-route-docs.js';

/** The S3 bucket did not answer (docs/operations.md, dependencies): nothing was written; try again. */
const STORE_DOWN: Json = errorResponse('STORAGE_UNAVAILABLE: the file store (S3) did not answer; nothing was written, try again in a moment.');

const FILE_ID: Json = { name: 'fileId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** The OpenAPI path items of file.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const FILE_PATHS: Json = {
  '/files/upload': {
    post: {
      operationId: 'uploadFile',
      summary: 'Upload a file (multipart)',
      security: [{ session: [] }],
      parameters: [UPLOAD_IDEMPOTENCY_KEY],
      requestBody: multipart({ fileType: schemaRef('FileType') }, ['file']),
      responses: {
        '201': { description: 'Success: `{ ok: true, data }` with the stored file and a signed `url`.', content: { 'application/json': { schema: dataEnvelope(schemaRef('File')) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        ...UPLOAD_IDEMPOTENCY_ANSWERS,
        '413': ref('PayloadTooLarge'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
        '503': STORE_DOWN,
      },
    },
  },

  '/files/{fileId}/download': {
    get: {
      operationId: 'downloadFile',
      summary: 'Download a file\'s bytes',
      security: [{ session: [] }],
      parameters: [FILE_ID],
      responses: { '200': BYTES, '400': ref('ValidationError'), '401': ref('Unauthorized'), '404': ref('NotFound'), '429': ref('RateLimited'), '500': ref('InternalError'), '503': STORE_DOWN },
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
};
