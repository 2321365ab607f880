import { type Json } from '../openapi/rest-openapi.js';
import { ref } from '../openapi/hand-route-docs.js';

/** The OpenAPI path items of transaction-export.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const TRANSACTION_EXPORT_PATHS: Json = {
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
