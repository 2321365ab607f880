import { type Json } from '../../openapi/rest-openapi.js';
import { ref } from '../../openapi/hand-route-docs.js';

/** The OpenAPI path items of brain-export.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const BRAIN_EXPORT_PATHS: Json = {
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
};
