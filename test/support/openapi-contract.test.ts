import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from './test-app.js';
import { signUp } from './http-client.js';
import { contractBreaches, toJsonSchema, type Exchange } from './openapi-contract.js';

/**
 * The contract check can fail: real answers pass it, and the same answers bent the ways the documents
 * used to be wrong (issue 23, item 22) are caught.
 */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const exchange = (overrides: Partial<Exchange>): Exchange => ({ baseUrl: app.url, method: 'GET', path: '/api/v1/tasks', status: 200, contentType: 'application/json', body: {}, ...overrides });

describe('the OpenAPI contract of the test client', () => {
  it('passes real answers and catches a missing field, a wrong type, an undescribed status, path or body', async () => {
    const { client } = await signUp(app.url);
    const created = await client.post('/api/v1/tasks', { title: 'Contract', timebox: 30, description: null });
    expect(created.status).toBe(201);
    const task = created.body.data;
    expect(task.description).toBeNull();
    const post = (body: unknown, status = 201, requestBody: unknown = { title: 'Contract', timebox: 30 }) =>
      contractBreaches(exchange({ method: 'POST', path: '/api/v1/tasks', status, body, requestBody }));

    expect(await post(created.body)).toEqual([]);
    const { title: _title, ...withoutTitle } = task;
    expect((await post({ ok: true, data: withoutTitle })).join()).toMatch(/must have required property 'title'/);
    expect((await post({ ok: true, data: { ...task, timebox: '30' } })).join()).toMatch(/\/data\/timebox must be integer/);
    expect((await post(created.body, 202)).join()).toMatch(/status 202 is not described/);
    expect((await post(created.body, 201, { title: 7 })).join()).toMatch(/accepted request body does not match: .*\/title must be string/);
    expect((await contractBreaches(exchange({ path: '/api/v1/no-such-route', status: 200 }))).join()).toMatch(/describes no such path/);
    expect(await contractBreaches(exchange({ path: '/api/v1/no-such-route', status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: 'x' } } }))).toEqual([]);
    // An error answer is checked against its envelope too.
    expect((await contractBreaches(exchange({ status: 401, body: { ok: false } }))).join()).toMatch(/must have required property 'error'/);
    // Outside the REST surfaces nothing is checked.
    expect(await contractBreaches(exchange({ path: '/graphql', method: 'POST', status: 200 }))).toEqual([]);
  });

  it('reads OpenAPI 3.0 nullable as JSON Schema: null joins what the schema allows, refs and enums included', () => {
    expect(toJsonSchema({ type: 'string', nullable: true }, 'x')).toEqual({ anyOf: [{ type: 'null' }, { type: 'string' }] });
    expect(toJsonSchema({ type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/A' }] }, 'doc')).toEqual({
      anyOf: [{ type: 'null' }, { type: 'object', allOf: [{ $ref: 'doc#/components/schemas/A' }] }],
    });
    expect(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true }, 'x')).toEqual({ type: 'number', exclusiveMinimum: 0 });
  });
});
