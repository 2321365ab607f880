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

/** The `Idempotency-Key` header of a streamed upload (src/idempotency/keyed-upload.ts, docs/idempotency.md). */
export const UPLOAD_IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retried upload safe: a repeat with the same key, path, form fields and file (compared by its SHA-256, computed while it ' +
    "streams, its size, name and type) within 24 h answers the first answer (header `Idempotent-Replayed: true`) without writing again; the key with " +
    'another upload answers 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs 409 IDEMPOTENCY_KEY_IN_PROGRESS. Only a success is kept. See docs/idempotency.md.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

/** The answers a keyed upload adds (the Session API document's shared idempotency answers). */
export const UPLOAD_IDEMPOTENCY_ANSWERS: Json = { '409': ref('IdempotencyKeyInProgress'), '422': ref('IdempotencyKeyReused') };
