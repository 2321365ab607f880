import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';

/**
 * The Session API description of the Brain database, record and form routes (hand-written JSON routes:
 * their `values` and `config` are free-form objects Sofa cannot carry), for the document's extra paths
 * beside rest/session-openapi.ts's byte routes. NOT YET SERVED: with these paths in
 * /api/v1/openapi.yaml the document stays valid OpenAPI 3.0, but the Swagger UI page renders only the
 * first nine operations (no page error); see the README's Brain section.
 */
const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const uuid = (name: string, description?: string): Json => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, ...(description ? { description } : {}) });
const SLUG: Json = { name: 'publicSlug', in: 'path', required: true, schema: { type: 'string' } };
const obj = (properties: Json, required: string[] = [], description?: string): Json => ({
  type: 'object',
  ...(required.length ? { required } : {}),
  properties,
  ...(description ? { description } : {}),
});
const anyObject = (description: string): Json => ({ type: 'object', additionalProperties: true, description });
const json = (schema: Json): Json => ({ required: true, content: { 'application/json': { schema } } });
const ok = (status: string, description: string, data: Json): Json => ({ [status]: { description, content: { 'application/json': { schema: dataEnvelope(data) } } } });

const schema = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const PROPERTY = schema('BrainProperty');
const DATABASE = schema('BrainDatabase');
const RECORD = schema('BrainRecord');
const FIELD = schema('BrainFormField');
const CONFIG = schema('BrainFormConfig');
const FORM = schema('BrainForm');

const PROPERTY_SCHEMA: Json = obj(
  {
    key: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
    name: { type: 'string', maxLength: 200 },
    type: { type: 'string', enum: ['text', 'number', 'select', 'multi_select', 'date', 'checkbox', 'url', 'email', 'file'] },
    options: { type: 'array', items: { type: 'string' }, description: 'select and multi_select only' },
  },
  ['key', 'name', 'type'],
);
const DATABASE_SCHEMA: Json = obj(
  { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, properties: { type: 'array', items: PROPERTY }, createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' } },
  ['id', 'name', 'properties', 'createdAt', 'updatedAt'],
);
const VALUES = anyObject('Values keyed by property key: text, number, option, list of options, date (YYYY-MM-DD or ISO datetime), boolean, http(s) URL, email, or the id of one of your files.');
const RECORD_SCHEMA: Json = obj(
  { id: { type: 'string', format: 'uuid' }, databaseId: { type: 'string', format: 'uuid' }, values: VALUES, formId: { type: 'string', format: 'uuid', nullable: true }, createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' } },
  ['id', 'databaseId', 'values', 'createdAt', 'updatedAt'],
);
const FIELD_SCHEMA: Json = obj(
  {
    key: { type: 'string' },
    label: { type: 'string' },
    type: { type: 'string', enum: ['text', 'long_text', 'number', 'email', 'select', 'multi_select', 'checkbox', 'date', 'rating'] },
    required: { type: 'boolean' },
    options: { type: 'array', items: { type: 'string' } },
    correct: { description: 'The right answer: makes the form a quiz.' },
    points: { type: 'number', description: 'Points for a right answer (default 1).' },
  },
  ['key', 'label', 'type'],
);
const CONFIG_SCHEMA: Json = obj(
  {
    description: { type: 'string' },
    fields: { type: 'array', items: FIELD },
    thankYouMessage: { type: 'string' },
    showQuizScore: { type: 'boolean' },
    collectRespondentName: { type: 'boolean' },
    accessPassword: { type: 'string', nullable: true, description: 'Write only: stored hashed; left out keeps the current one, null removes it. Read back as `hasAccessPassword`.' },
    oneResponsePerPerson: { type: 'boolean' },
    closed: { type: 'boolean' },
    closesAt: { type: 'string', format: 'date-time' },
  },
  [],
  "operations.md's form config.",
);
const FORM_SCHEMA: Json = obj(
  {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    databaseId: { type: 'string', format: 'uuid' },
    config: CONFIG,
    hasAccessPassword: { type: 'boolean' },
    syncFields: { type: 'boolean' },
    published: { type: 'boolean' },
    publicSlug: { type: 'string', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  ['id', 'name', 'databaseId', 'config', 'hasAccessPassword', 'syncFields', 'published', 'publicSlug'],
);
const EDITOR: Json = { allOf: [FORM, obj({ fields: { type: 'array', items: FIELD }, database: DATABASE }, ['fields', 'database'])] };
const QUIZ: Json = obj({ score: { type: 'number' }, max: { type: 'number' }, pct: { type: 'integer', minimum: 0, maximum: 100 } }, ['score', 'max', 'pct']);
const SUBMITTED: Json = obj({ form: anyObject('The form (the public door: id, name, publicSlug).'), database: anyObject('The database (the public door: id, name).'), record: anyObject('The record made (the public door: id, values without fingerprint fields, createdAt).'), quiz: QUIZ, thankYouMessage: { type: 'string' } }, ['form', 'database', 'record', 'thankYouMessage']);
const DELETED: Json = obj({ id: { type: 'string', format: 'uuid' }, deleted: { type: 'boolean', enum: [true] } }, ['id', 'deleted']);
const PUBLIC_FORM: Json = obj(
  {
    publicSlug: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    closed: { type: 'boolean' },
    closesAt: { type: 'string', format: 'date-time', nullable: true },
    requiresPassword: { type: 'boolean' },
    collectRespondentName: { type: 'boolean' },
    oneResponsePerPerson: { type: 'boolean' },
    isQuiz: { type: 'boolean' },
    alreadySubmitted: { type: 'boolean' },
    fields: { type: 'array', items: obj({ key: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, required: { type: 'boolean' }, options: { type: 'array', items: { type: 'string' } } }) },
  },
  ['publicSlug', 'name', 'closed', 'fields'],
);

const ERR = { '401': ref('Unauthorized'), '429': ref('RateLimited'), '500': ref('InternalError') };
const WITH_ID = { ...ERR, '400': ref('ValidationError'), '404': ref('NotFound') };
const WITH_BODY = { ...WITH_ID, '413': ref('PayloadTooLarge'), '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not JSON.') };
const SUBMIT_ERRORS = {
  '400': errorResponse('VALIDATION: a required answer is missing or an answer has the wrong type; `details.errors` lists `{ path, message }`.'),
  '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong (public door), or no session (session door).'),
  '404': ref('NotFound'),
  '409': errorResponse('ALREADY_SUBMITTED: this one-response form was already answered by this person.'),
  '410': errorResponse('CLOSED: the form is closed (`closed` or `closesAt` passed).'),
  '413': ref('PayloadTooLarge'),
  '429': ref('RateLimited'),
  '500': ref('InternalError'),
};
const session = [{ session: [] }];

// Path parameters are named after their resource (`{id}`, `{id}`): Swagger UI stops
// rendering the operation list at a path parameter named plain `id`.
const ROUTES: Json = {
  '/brain/databases': {
    get: { operationId: 'brainDatabases', summary: 'Your Brain databases, newest first', security: session, responses: { ...ok('200', 'The databases.', { type: 'array', items: DATABASE }), ...ERR } },
    post: {
      operationId: 'createBrainDatabase',
      summary: 'Create a database with typed properties',
      security: session,
      requestBody: json(obj({ name: { type: 'string', maxLength: 200 }, properties: { type: 'array', items: PROPERTY, maxItems: 100 } }, ['name'])),
      responses: { ...ok('201', 'The database.', DATABASE), ...WITH_BODY },
    },
  },
  '/brain/databases/{id}': {
    get: { operationId: 'brainDatabase', summary: 'One database', security: session, parameters: [uuid('id')], responses: { ...ok('200', 'The database.', DATABASE), ...WITH_ID } },
    patch: {
      operationId: 'updateBrainDatabase',
      summary: 'Rename it or replace its properties',
      security: session,
      parameters: [uuid('id')],
      requestBody: json(obj({ name: { type: 'string' }, properties: { type: 'array', items: PROPERTY } })),
      responses: { ...ok('200', 'The database.', DATABASE), ...WITH_BODY },
    },
    delete: { operationId: 'deleteBrainDatabase', summary: 'Delete it with its records and the forms that fill it', security: session, parameters: [uuid('id')], responses: { ...ok('200', 'Deleted.', DELETED), ...WITH_ID } },
  },
  '/brain/databases/{id}/records': {
    get: {
      operationId: 'brainRecords',
      summary: 'Its records, filtered and sorted by a property',
      security: session,
      parameters: [
        uuid('id'),
        { name: 'filter', in: 'query', required: false, schema: { type: 'string' }, description: '`filter[<propertyKey>]=<value>`, one per property: text, url and email contain the value (any case); multi_select holds the option; checkbox `true`/`false` (missing counts as false); number, select and date equal it.' },
        { name: 'sort', in: 'query', required: false, schema: { type: 'string', default: 'createdAt' }, description: '`createdAt`, `updatedAt` or a property key (numbers sort as numbers; records without the value last).' },
        { name: 'order', in: 'query', required: false, schema: { type: 'string', enum: ['asc', 'desc'] }, description: 'Default `desc` for createdAt/updatedAt, `asc` for a property.' },
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 50 }, description: 'At most 100.' },
      ],
      responses: {
        '200': {
          description: '`{ ok: true, data: [records], meta: { page, limit, total } }`.',
          content: { 'application/json': { schema: { type: 'object', required: ['ok', 'data', 'meta'], properties: { ok: { type: 'boolean', enum: [true] }, data: { type: 'array', items: RECORD }, meta: obj({ page: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } }) } } } },
        },
        ...WITH_ID,
      },
    },
    post: { operationId: 'createBrainRecord', summary: 'Add a record (values checked against the properties)', security: session, parameters: [uuid('id')], requestBody: json(obj({ values: VALUES })), responses: { ...ok('201', 'The record.', RECORD), ...WITH_BODY } },
  },
  '/brain/databases/{id}/records/{recordId}': {
    get: { operationId: 'brainRecord', summary: 'One record', security: session, parameters: [uuid('id'), uuid('recordId')], responses: { ...ok('200', 'The record.', RECORD), ...WITH_ID } },
    patch: { operationId: 'updateBrainRecord', summary: 'Change values (merged; null removes one)', security: session, parameters: [uuid('id'), uuid('recordId')], requestBody: json(obj({ values: VALUES }, ['values'])), responses: { ...ok('200', 'The record.', RECORD), ...WITH_BODY } },
    delete: { operationId: 'deleteBrainRecord', summary: 'Delete a record', security: session, parameters: [uuid('id'), uuid('recordId')], responses: { ...ok('200', 'Deleted.', DELETED), ...WITH_ID } },
  },
  '/brain/forms': {
    get: { operationId: 'brainForms', summary: 'Your forms, newest first', security: session, responses: { ...ok('200', 'The forms.', { type: 'array', items: FORM }), ...ERR } },
    post: {
      operationId: 'createBrainForm',
      summary: 'Create a form over one of your databases or a new one',
      security: session,
      requestBody: json(
        obj(
          { name: { type: 'string' }, databaseId: { type: 'string', format: 'uuid' }, createDatabase: obj({ name: { type: 'string' } }, ['name']), config: CONFIG, syncFields: { type: 'boolean', description: 'Default true with createDatabase, false with databaseId.' } },
          ['name'],
          'Give `databaseId` or `createDatabase`.',
        ),
      ),
      responses: { ...ok('201', 'The editor payload.', EDITOR), ...WITH_BODY },
    },
  },
  '/brain/forms/{id}': {
    get: { operationId: 'brainForm', summary: 'The editor payload (form, fields and database)', security: session, parameters: [uuid('id')], responses: { ...ok('200', 'The editor payload.', EDITOR), ...WITH_ID } },
    patch: { operationId: 'updateBrainForm', summary: 'Change name, config or syncFields', security: session, parameters: [uuid('id')], requestBody: json(obj({ name: { type: 'string' }, config: CONFIG, syncFields: { type: 'boolean' } })), responses: { ...ok('200', 'The editor payload.', EDITOR), ...WITH_BODY } },
    delete: { operationId: 'deleteBrainForm', summary: 'Delete the form (its database and records stay)', security: session, parameters: [uuid('id')], responses: { ...ok('200', 'Deleted.', DELETED), ...WITH_ID } },
  },
  '/brain/forms/{id}/publish': {
    post: { operationId: 'publishBrainForm', summary: 'Publish or unpublish (publishing assigns `publicSlug`, kept afterwards)', security: session, parameters: [uuid('id')], requestBody: json(obj({ published: { type: 'boolean' } }, ['published'])), responses: { ...ok('200', 'The form.', FORM), ...WITH_BODY } },
  },
  '/brain/forms/{id}/submit': {
    post: { operationId: 'submitBrainForm', summary: 'Answer your own form', security: session, parameters: [uuid('id')], requestBody: json(obj({ values: anyObject('Answers keyed by field key.'), respondentName: { type: 'string' } }, ['values'])), responses: { ...ok('201', 'The record made.', SUBMITTED), ...SUBMIT_ERRORS, '401': ref('Unauthorized') } },
  },
  '/brain/public/forms/{publicSlug}': {
    get: {
      operationId: 'publicBrainForm',
      summary: 'A published form\'s questions (no login; a session names the respondent)',
      security: [],
      parameters: [SLUG, { name: 'X-Brain-Access-Password', in: 'header', required: false, schema: { type: 'string' } }, { name: 'accessPassword', in: 'query', required: false, schema: { type: 'string' } }],
      responses: { ...ok('200', 'The questions; a closed form answers `closed: true`.', PUBLIC_FORM), '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong (`details.passwordRequired`).'), '404': ref('NotFound'), '429': ref('RateLimited'), '500': ref('InternalError') },
    },
  },
  '/brain/public/forms/{publicSlug}/submit': {
    post: {
      operationId: 'submitPublicBrainForm',
      summary: 'Answer a published form (no login)',
      security: [],
      parameters: [SLUG, { name: 'X-Brain-Access-Password', in: 'header', required: false, schema: { type: 'string' } }],
      requestBody: json(obj({ values: anyObject('Answers keyed by field key.'), accessPassword: { type: 'string' }, respondentKey: { type: 'string', maxLength: 200 }, respondentName: { type: 'string' } }, ['values'])),
      responses: { ...ok('201', 'The record made; sets the httpOnly `lp_brain_respondent` cookie on one-response forms.', SUBMITTED), ...SUBMIT_ERRORS },
    },
  },
};

/**
 * The routes as plain trees: the shared schema objects above are copied apart, so the YAML document
 * carries no anchors and aliases (the docs page's parser stops rendering at them).
 */
export const BRAIN_DATA_ROUTES: Json = JSON.parse(JSON.stringify(ROUTES));

/** The component schemas the routes refer to (`components.schemas`). */
export const BRAIN_DATA_SCHEMAS: Json = JSON.parse(
  JSON.stringify({ BrainProperty: PROPERTY_SCHEMA, BrainDatabase: DATABASE_SCHEMA, BrainRecord: RECORD_SCHEMA, BrainFormField: FIELD_SCHEMA, BrainFormConfig: CONFIG_SCHEMA, BrainForm: FORM_SCHEMA }),
);
