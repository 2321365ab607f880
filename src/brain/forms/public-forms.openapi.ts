import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';
import { ref } from '../../openapi/hand-route-docs.js';

const PUBLIC_SLUG: Json = { name: 'publicSlug', in: 'path', required: true, schema: { type: 'string', maxLength: 32 } };

const ACCESS_PASSWORD_HEADER: Json = { name: 'X-Brain-Access-Password', in: 'header', required: false, schema: { type: 'string' }, description: 'The form\'s access password, if it has one.' };

const PUBLIC_FORM: Json = {
  type: 'object',
  required: ['publicSlug', 'name', 'closed', 'fields'],
  properties: {
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
    fields: {
      type: 'array',
      description: 'The questions, without the right answers.',
      items: { type: 'object', properties: { key: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, required: { type: 'boolean' }, options: { type: 'array', items: { type: 'string' } } } },
    },
  },
};

const PUBLIC_SUBMITTED: Json = {
  type: 'object',
  required: ['form', 'database', 'record', 'thankYouMessage'],
  properties: {
    form: { type: 'object', additionalProperties: true, description: 'id, name, publicSlug.' },
    database: { type: 'object', additionalProperties: true, description: 'id, name.' },
    record: { type: 'object', additionalProperties: true, description: 'id, values (without the respondent fingerprint fields), createdAt.' },
    quiz: { type: 'object', properties: { score: { type: 'number' }, max: { type: 'number' }, pct: { type: 'integer' } }, description: 'Only when the form shows its quiz score.' },
    thankYouMessage: { type: 'string' },
  },
};

/** The Brain form submit refusals (spec: Brain forms), shared by the session route's description. */
export const FORM_SUBMIT_ERRORS: Json = {
  '400': errorResponse('VALIDATION (not VALIDATION_ERROR): an answer is missing, of the wrong type, or a body field is unknown; `details.errors` lists `{ path, message }`.'),
  '404': ref('NotFound'),
  '409': errorResponse('ALREADY_SUBMITTED: this one-response form was already answered by this person.'),
  '410': errorResponse('CLOSED: the form is closed (`closed` or `closesAt` passed).'),
};

/** The OpenAPI path items of public-forms.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const PUBLIC_FORM_PATHS: Json = {
  // Brain forms, public side (src/brain/forms/public-forms.routes.ts): no login, the access password
  // header and the httpOnly respondent cookie are no GraphQL operation's business.
  '/brain/public/forms/{publicSlug}': {
    get: {
      operationId: 'publicBrainForm',
      summary: 'A published form\'s questions (no login; a session names the respondent)',
      security: [],
      parameters: [PUBLIC_SLUG, ACCESS_PASSWORD_HEADER, { name: 'accessPassword', in: 'query', required: false, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'Success: the questions; a closed form answers `closed: true`.', content: { 'application/json': { schema: dataEnvelope(PUBLIC_FORM) } } },
        '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong (`details.passwordRequired`).'),
        '404': ref('NotFound'),
        '429': errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address, or 10 wrong access passwords for this form in 15 minutes (from any address; `Retry-After`).'),
        '500': ref('InternalError'),
      },
    },
  },

  '/brain/public/forms/{publicSlug}/submit': {
    post: {
      operationId: 'submitPublicBrainForm',
      summary: 'Answer a published form (no login)',
      security: [],
      parameters: [PUBLIC_SLUG, ACCESS_PASSWORD_HEADER],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                values: { type: 'object', additionalProperties: true, description: 'Answers keyed by field key.' },
                accessPassword: { type: 'string' },
                respondentKey: { type: 'string', maxLength: 200, description: 'A stable key of this respondent (one-response forms); else the respondent cookie counts.' },
                respondentName: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '201': { description: 'Success: the record made; sets the httpOnly `lp_brain_respondent` cookie on one-response forms.', content: { 'application/json': { schema: dataEnvelope(PUBLIC_SUBMITTED) } } },
        ...FORM_SUBMIT_ERRORS,
        '401': errorResponse('UNAUTHORIZED: the access password is missing or wrong.'),
        '413': ref('PayloadTooLarge'),
        '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not JSON.'),
        '429': errorResponse('RATE_LIMIT_EXCEEDED: too many requests from this address, or 10 wrong access passwords for this form in 15 minutes (from any address; `Retry-After`).'),
        '500': ref('InternalError'),
      },
    },
  },
};
