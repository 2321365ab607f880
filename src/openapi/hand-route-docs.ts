import type { Json } from './rest-openapi.js';

/*
 * Pieces of the hand-written routes' OpenAPI descriptions (each route's `*.openapi.ts` beside its
 * handler): the shared answers by name, the schemas by name, file bytes and multipart bodies.
 */

/** A shared answer of the Session API document (`components.responses`). */
export const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/** A schema of the document (`components.schemas`): a GraphQL type by name, described from the schema. */
export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

export const BYTES: Json = { description: 'The file\'s bytes, with its own Content-Type.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };

/** A multipart body: `file` and the given fields. */
export const multipart = (properties: Json, required: string[]): Json => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', required, properties: { file: { type: 'string', format: 'binary', description: 'The file (at most MAX_FILE_SIZE bytes).' }, ...properties } } } },
});
