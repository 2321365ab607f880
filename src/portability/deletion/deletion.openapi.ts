import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';
import { ref } from '../../openapi/hand-route-docs.js';

/** The OpenAPI path items of deletion.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const ACCOUNT_DELETION_PATHS: Json = {
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
