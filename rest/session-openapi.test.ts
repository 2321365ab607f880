import SwaggerParser from '@apidevtools/swagger-parser';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../test/support/test-app.js';
import { HttpClient, signUp } from '../test/support/http-client.js';
import { sessionRoutes } from './session-routes.js';
import { handWrittenPaths } from '../src/app/hand-written-routes.js';
import { publicRoutes } from './public-routes.js';
import { buildAppSchema } from '../src/app/schema.js';

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await sharedTestApp();
  const res = await new HttpClient(app.url).get('/api/v1/openapi.yaml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
  doc = parse(res.text);
  if (process.env.DUMP_OPENAPI) (await import('node:fs')).writeFileSync(process.env.DUMP_OPENAPI, res.text);
});

const oasPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}');
const shapeOf = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
/** The document's template of a route: `/weeks/:startDate` and `/weeks/:weekId` share `/weeks/{startDateOrWeekId}`. */
const docPath = (path: string) => Object.keys(doc.paths).find((p) => shapeOf(p) === shapeOf(oasPath(path))) ?? oasPath(path);
const operation = (method: string, path: string) => doc.paths[docPath(path)]?.[method.toLowerCase()];
/** The schema a reference or a nullable reference (`{ nullable, allOf: [$ref] }`) names. */
const resolve = (schema: any): any => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema?.allOf ? resolve(schema.allOf[0]) : schema);

/**
 * Root operations with no REST route of their own, on purpose: the logs are written over REST through
 * the Public API (`/api/public/v1`, an API key), and a progress photo is the multipart upload
 * `POST /body-composition/photos`.
 */
const GRAPHQL_ONLY = ['Mutation.createProgressPhoto', 'Mutation.logMeditation', 'Mutation.logMood', 'Mutation.logSleep', 'Mutation.logSteps', 'Mutation.logWater'];

describe('the route tables', () => {
  it('route every root operation of the schema but the GraphQL-only ones, so a new operation is not forgotten', async () => {
    const schema = await buildAppSchema();
    const routed = new Set([...Object.keys(sessionRoutes), ...Object.keys(publicRoutes)]);
    const operations = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.keys(type.getFields()).map((field) => `${type.name}.${field}`));
    expect(operations.filter((operation) => !routed.has(operation)).sort(), 'add a route to rest/session-routes.ts').toEqual(GRAPHQL_ONLY);
  });
});

describe('GET /api/v1/openapi.yaml', () => {
  it('is a valid OpenAPI 3.0 document, served without a session', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'lp_session' });
  });

  it('is not shadowed by the surface: unknown paths still answer the 404 envelope', async () => {
    const http = new HttpClient(app.url);
    const unknown = await http.get('/api/v1/openapi.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    // The deprecated unversioned form reaches it too.
    expect((await http.get('/api/openapi.yaml')).status).toBe(200);
  });

  it('describes every route of rest/session-routes.ts and the multipart and byte routes, and nothing else', () => {
    const described = Object.entries<any>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const bytes = ['POST /files/upload', 'GET /files/{fileId}/download', 'GET /files/{fileId}/content', 'POST /body-composition/photos', 'GET /transactions/export', 'POST /account/export', 'GET /account/export/{exportId}', 'GET /account/export/{exportId}/download', 'GET /brain/export', 'GET /brain/public/forms/{publicSlug}', 'POST /brain/public/forms/{publicSlug}/submit', 'POST /account/import/{source}', 'GET /account/import/{importId}', 'DELETE /account', 'GET /events/stream', 'GET /auth/oidc/start', 'GET /auth/oidc/callback', 'POST /auth/oidc/link'];
    const expected = [...Object.values(sessionRoutes).map((r) => `${r.method} ${r.path}`), ...bytes].map((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return `${method} ${docPath(path)}`;
    });
    expect(described.sort()).toEqual(expected.sort());
    expect(Object.entries<any>(handWrittenPaths()).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort()).toEqual([...bytes].sort());
    const upload = doc.paths['/files/upload'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
    expect(resolve(upload.responses['201'].content['application/json'].schema.properties.data).properties).toHaveProperty('mimeType');
    const photo = doc.paths['/body-composition/photos'].post.requestBody.content['multipart/form-data'].schema;
    expect(photo.required.sort()).toEqual(['dayId', 'file', 'pose']);
    expect(resolve(photo.properties.pose).enum).toEqual(['front', 'side', 'back', 'other']);
    for (const r of Object.values(publicRoutes)) expect(doc.paths[oasPath(r.path)]?.[r.method.toLowerCase()]?.operationId ?? '').not.toMatch(/^public/);
  });

  it('gives every route its path parameters, query parameters or body, and nowhere else', () => {
    for (const route of Object.values(sessionRoutes)) {
      const op = operation(route.method, route.path);
      const pathNames = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1]);
      const params = op.parameters ?? [];
      // A merged template's parameter names the route's own in its description.
      const merged = docPath(route.path) !== oasPath(route.path);
      const named = (p: any) => (merged ? /^The (\w+)/.exec(p.description)?.[1] : p.name);
      expect(params.filter((p: any) => p.in === 'path').map(named).sort(), route.path).toEqual([...pathNames].sort());
      for (const p of params.filter((p: any) => p.in === 'path')) expect(p.required).toBe(true);
      const body = op.requestBody?.content?.['application/json']?.schema;
      // A read takes no body; a write takes its arguments from the path and the JSON body, never the
      // query string (a DELETE has a body only with arguments beyond its path: `DELETE /tasks/:taskId { applyTo }`).
      if (route.method === 'GET') expect(op.requestBody, route.path).toBeUndefined();
      else expect(params.filter((p: any) => p.in === 'query'), route.path).toEqual([]);
      for (const name of pathNames) expect(body?.properties ?? {}, `${route.path} body`).not.toHaveProperty(name!);
    }
    // Query parameters with their types and defaults.
    const tasks = Object.fromEntries(operation('GET', '/tasks').parameters.map((p: any) => [p.name, p]));
    expect(tasks.page).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    expect(tasks.limit).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    // A body with its required fields and rules.
    const createTask = operation('POST', '/tasks').requestBody.content['application/json'].schema;
    expect(createTask.required).toContain('title');
    expect(operation('POST', '/auth/login').requestBody.content['application/json'].schema.required.sort()).toEqual(['email', 'password']);
    const updateTask = operation('PATCH', '/tasks/:taskId');
    // Lost-update protection (docs/concurrency.md): the ETag last read, optional; every write also takes the
    // optional Idempotency-Key header (docs/idempotency.md).
    expect(updateTask.parameters).toEqual([
      expect.objectContaining({ name: 'taskId', in: 'path', required: true, schema: expect.objectContaining({ type: 'string' }) }),
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, schema: expect.objectContaining({ maxLength: 255 }) }),
    ]);
    expect(updateTask.responses['412']).toBeDefined();
    expect(operation('GET', '/tasks/:taskId').responses['200'].headers).toHaveProperty('ETag');
    for (const route of Object.values(sessionRoutes)) {
      const op = operation(route.method, route.path);
      const keyed = (op.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key');
      expect(keyed, `${route.method} ${route.path}`).toBe(route.method !== 'GET');
      if (keyed) expect(Object.keys(op.responses), route.path).toEqual(expect.arrayContaining(['409', '422']));
    }
    expect(updateTask.requestBody.content['application/json'].schema.properties).toHaveProperty('title');
    // A body field whose name starts a path parameter's (`question`, `:questionId`) stays a body field.
    const updateQuestion = operation('PATCH', '/journal/questions/:questionId');
    expect(updateQuestion.parameters.map((p: any) => p.name)).toEqual(['questionId', 'Idempotency-Key']);
    expect(updateQuestion.requestBody.content['application/json'].schema.properties).toHaveProperty('question');
  });

  it('describes the success envelope: pages as data + meta, records as data', () => {
    for (const route of Object.values(sessionRoutes)) {
      const op = operation(route.method, route.path);
      const status = String(route.responseStatus ?? 200);
      const schema = op.responses[status].content['application/json'].schema;
      expect(schema.properties.ok, route.path).toEqual({ type: 'boolean', enum: [true] });
      expect(schema.required).toContain('data');
    }
    const list = operation('GET', '/tasks').responses['200'].content['application/json'].schema;
    expect(list.properties.data.type).toBe('array');
    expect(Object.keys(resolve(list.properties.data.items).properties)).toContain('title');
    expect(Object.keys(resolve(list.properties.meta).properties).sort()).toEqual(expect.arrayContaining(['limit', 'page', 'total']));
    const one = operation('GET', '/tasks/:taskId').responses['200'].content['application/json'].schema;
    expect(resolve(one.properties.data).properties).toHaveProperty('title');
    expect(operation('POST', '/tasks').responses).toHaveProperty('201');
  });

  it('describes the error answers of each route and its security', () => {
    for (const [key, route] of Object.entries(sessionRoutes)) {
      const op = operation(route.method, route.path);
      // The second step's answers may also be refused for the account's lock (SECOND_FACTOR_LOCKED).
      const locks = ['completeSignIn', 'completeSignInWithPasskey', 'startSecondFactorPasskey'].includes(key.split('.')[1]!);
      expect(op.responses['429'], route.path).toEqual({ $ref: `#/components/responses/${locks ? 'RateLimitedOrSecondFactorLocked' : 'RateLimited'}` });
      expect(op.responses['500']).toEqual({ $ref: '#/components/responses/InternalError' });
      if (route.path.includes(':')) {
        expect(op.responses['404'], route.path).toEqual({ $ref: '#/components/responses/NotFound' });
        // Brain form submit refuses with its own code, VALIDATION (spec: Brain forms), documented as such.
        if (route.validationCode) expect(op.responses['400'].description, route.path).toMatch(/^VALIDATION \(not VALIDATION_ERROR\)/);
        else expect(op.responses['400'], route.path).toEqual({ $ref: '#/components/responses/ValidationError' });
      }
      if (!route.path.startsWith('/auth/')) {
        expect(op.security, route.path).toEqual([{ session: [] }]);
        expect(op.responses['401'], route.path).toEqual({ $ref: '#/components/responses/Unauthorized' });
      }
    }
    expect(operation('POST', '/auth/login').security).toEqual([]);
    // The anonymous operations are read from the resolvers (no @CurrentUserId() and kin), not from a list.
    const anonymous = Object.values(sessionRoutes).filter((r) => operation(r.method, r.path).security.length === 0).map((r) => r.path);
    // (plus the second step of a two-factor sign-in, which has no session yet either)
    // (and signing in with a passkey, alone or as that second step: src/accounts/passkeys)
    const passkeySignIn = ['/auth/passkey-sign-in/options', '/auth/passkey-sign-in', '/auth/login/second-factor/passkey/options', '/auth/login/second-factor/passkey'];
    expect(anonymous).toEqual(expect.arrayContaining(passkeySignIn));
    expect(operation('POST', '/auth/passkey-sign-in').responses['401']).toEqual({ $ref: '#/components/responses/PasskeyRefused' });
    expect(operation('POST', '/auth/login/second-factor/passkey').responses['401']).toEqual({ $ref: '#/components/responses/WrongSecondFactor' });
    // (and which sign-in methods there are: src/accounts/oidc)
    expect(anonymous).toContain('/auth/sign-in-methods');
    expect(anonymous.filter((path) => path !== '/auth/login/second-factor' && path !== '/auth/sign-in-methods' && !passkeySignIn.includes(path)).sort()).toEqual(['/auth/login', '/auth/logout', '/auth/register', '/auth/request-password-reset', '/auth/resend-verification', '/auth/reset-password', '/auth/verify-email']);
    expect(anonymous).toContain('/auth/login/second-factor');
    expect(operation('POST', '/auth/login/second-factor').responses['401']).toEqual({ $ref: '#/components/responses/WrongSecondFactor' });
    expect(doc.components.responses.InvalidCredentials.description).toMatch(/SECOND_FACTOR_REQUIRED/);
    expect(operation('POST', '/auth/login').responses['401']).toEqual({ $ref: '#/components/responses/InvalidCredentials' });
    expect(operation('POST', '/auth/register').responses['409']).toEqual({ $ref: '#/components/responses/EmailExists' });
    expect(operation('GET', '/auth/me').security).toEqual([{ session: [] }]);
    expect(Object.keys(operation('POST', '/brain/forms/{formId}/submit').responses)).toEqual(expect.arrayContaining(['400', '401', '404', '409', '410']));
    expect(operation('GET', '/webhooks').responses['403']).toEqual({ $ref: '#/components/responses/SubscriptionRequired' });
    // A write may also be refused for a foreign Origin (CSRF), and for a body that is not JSON.
    expect(operation('POST', '/webhooks').responses['403']).toEqual({ $ref: '#/components/responses/ForeignOriginOrSubscription' });
    expect(operation('POST', '/tasks').responses['403']).toEqual({ $ref: '#/components/responses/ForeignOrigin' });
    expect(operation('POST', '/tasks').responses['415']).toEqual({ $ref: '#/components/responses/NotJson' });
    expect(operation('GET', '/tasks').responses).not.toHaveProperty('403');
    // The repeat of a generate answers 200 with the same shape as the 201.
    for (const path of ['/weeks/generate', '/dinner/generate-week', '/grocery/generate']) {
      const responses = operation('POST', path).responses;
      expect(responses['200'].content, path).toEqual(responses['201'].content);
    }
    for (const name of Object.keys(doc.components.responses)) expect(doc.components.responses[name].content['application/json'].schema.$ref).toMatch(/Envelope$/);
  });

  it('matches what the surface does: the documented required fields are enough, and the 401 is real', async () => {
    const { client } = await signUp(app.url);
    const createTask = operation('POST', '/tasks').requestBody.content['application/json'].schema;
    // A value for each required field, made from its documented type and range only.
    const valueOf = (schema: any): unknown => (schema.type === 'integer' || schema.type === 'number' ? (schema.minimum ?? 0) + 1 : schema.type === 'string' ? 'Documented' : undefined);
    const body = Object.fromEntries(createTask.required.map((name: string) => [name, valueOf(createTask.properties[name])]));
    expect(Object.values(body).every((v) => v !== undefined), `required: ${createTask.required}`).toBe(true);
    const created = await client.post('/api/v1/tasks', body);
    expect(created.status).toBe(201);
    expect(created.body.ok).toBe(true);
    const anonymous = await new HttpClient(app.url).get('/api/v1/tasks');
    expect(anonymous.status).toBe(401);
  });
});

describe('shaped answers (rest/answer-shape.ts)', () => {
  const dataOf = (method: string, path: string, status = '200') => {
    const data = operation(method, path).responses[status].content['application/json'].schema.properties.data;
    return resolve(data.allOf ? data.allOf[0] : data);
  };
  const keys = (schema: any) => Object.keys(resolve(schema).properties).sort();

  it('describes GET /weeks/{startDate} with exactly the fields the route answers, nested ones included', async () => {
    const { client } = await signUp(app.url);
    const category = await client.post('/api/v1/task-categories', { name: 'Deep work', color: '#00AA00' });
    expect(category.status, category.text).toBe(201);
    const generated = await client.post('/api/v1/weeks/generate', { startDate: '2034-01-02' });
    expect(generated.status, generated.text).toBe(201);
    const dayId = generated.body.data.days[0].id;
    const task = await client.post('/api/v1/tasks', { title: 'Write', timebox: 30, dayId, categoryId: category.body.data.id });
    expect(task.status, task.text).toBe(201);

    const week = await client.get('/api/v1/weeks/2034-01-02');
    expect(week.status, week.text).toBe(200);
    const day = week.body.data.days[0];
    expect(day.checklist.length).toBeGreaterThan(0);
    expect(day.tasks).toHaveLength(1);

    const documented = dataOf('GET', '/weeks/:startDate');
    expect(keys(documented)).toEqual(Object.keys(week.body.data).sort());
    const documentedDay = resolve(documented.properties.days.items);
    expect(keys(documentedDay)).toEqual(Object.keys(day).sort());
    expect(keys(documentedDay.properties.checklist.items)).toEqual(Object.keys(day.checklist[0]).sort());
    expect(keys(documentedDay.properties.tasks.items)).toEqual(Object.keys(day.tasks[0]).sort());
    expect(keys(resolve(documentedDay.properties.tasks.items).properties.category)).toEqual(Object.keys(day.tasks[0].category).sort());
    // The other routes with the same shape are described the same way.
    expect(keys(resolve(dataOf('POST', '/weeks/generate', '201').properties.days.items))).toEqual(keys(documentedDay));
    expect(keys(resolve(dataOf('PATCH', '/weeks/:weekId').properties.days.items))).toEqual(keys(documentedDay));
  });

  it('keeps the whole type for a route without a shape: GET /days/{dayId} has the relations a week day lacks', () => {
    const day = dataOf('GET', '/days/:dayId');
    expect(keys(day)).toContain('trainingSessions');
    expect(keys(resolve(dataOf('GET', '/weeks/:startDate').properties.days.items))).not.toContain('trainingSessions');
  });
});

describe('GET /api/v1/docs', () => {
  it('serves the reference page and its assets locally (no CDN), without a session', async () => {
    const http = new HttpClient(app.url);
    const page = await http.get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<title>Session API v1 reference</title>');
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const src of sources) {
      expect(src.startsWith('/api/v1/docs/')).toBe(true);
      expect((await http.get(src)).status, src).toBe(200);
    }
    expect((await http.get('/api/v1/docs/init.js')).text).toContain('"/api/v1/openapi.yaml"');
    const missing = await http.get('/api/v1/docs/assets/index.html');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
