import { dataEnvelope, type Json } from '../openapi/rest-openapi.js';
import { multipart, ref, schemaRef, UPLOAD_IDEMPOTENCY_ANSWERS, UPLOAD_IDEMPOTENCY_KEY } from '../openapi/hand-route-docs.js';

/** The OpenAPI path items of progress-photo.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const PROGRESS_PHOTO_PATHS: Json = {
  '/body-composition/photos': {
    post: {
      operationId: 'uploadProgressPhoto',
      summary: 'Upload a progress photo (multipart)',
      security: [{ session: [] }],
      parameters: [UPLOAD_IDEMPOTENCY_KEY],
      requestBody: multipart({ dayId: { type: 'string', format: 'uuid' }, pose: schemaRef('PhotoPose'), notes: { type: 'string' } }, ['file', 'dayId', 'pose']),
      responses: {
        '201': { description: 'Success: `{ ok: true, data }` with the photo and its `file`.', content: { 'application/json': { schema: dataEnvelope({ allOf: [schemaRef('ProgressPhoto'), { type: 'object', required: ['file'], properties: { file: schemaRef('File') } }] }) } } },
        '400': ref('ValidationError'),
        '401': ref('Unauthorized'),
        '404': ref('NotFound'),
        ...UPLOAD_IDEMPOTENCY_ANSWERS,
        '413': ref('PayloadTooLarge'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
};
