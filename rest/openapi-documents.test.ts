import { createConfig, lintFromString } from '@redocly/openapi-core';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../test/support/test-app.js';
import { HttpClient, signUp } from '../test/support/http-client.js';
import { Ajv } from 'ajv';
import { sessionRoutes } from './session-routes.js';
import { handWrittenPaths } from '../src/app/hand-written-routes.js';

/**
 * Both REST documents as a client generator reads them (issue 23, item 22): Redocly's recommended
 * rules find no error (path templates that differ only by parameter names were the two it found), and
 * the shapes that were wrong are right. That every answer of the suite matches them is checked by the
 * test HTTP client (test/support/openapi-contract.ts).
 */
let app: TestApp;
const documents: Record<string, string> = {};

beforeAll(async () => {
  app = await sharedTestApp();
  const http = new HttpClient(app.url);
  for (const path of ['/api/v1/openapi.yaml', '/api/public/v1/openapi.yaml']) {
    const res = await http.get(path);
    expect(res.status).toBe(200);
    documents[path] = res.text;
  }
});

async function lint(path: string) {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: documents[path]!, absoluteRef: `https://docs.test${path}`, config });
  return problems.map((p) => ({ severity: p.severity, rule: p.ruleId, message: p.message, at: p.location[0]?.pointer }));
}

describe('the OpenAPI documents', () => {
  it.each(['/api/v1/openapi.yaml', '/api/public/v1/openapi.yaml'])('%s passes redocly lint (recommended) with no error', async (path) => {
    const problems = await lint(path);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  });
});

describe('the Session API document tells the truth about the answers the audit found wrong', () => {
  const doc = () => parse(documents['/api/v1/openapi.yaml']!);
  const schemas = () => doc().components.schemas;
  const resolve = (schema: any): any => (schema?.$ref ? schemas()[schema.$ref.split('/').pop()] : schema?.allOf ? resolve(schema.allOf[0]) : schema);
  const answer = (method: string, path: string, status = '200') => doc().paths[path][method].responses[status].content['application/json'].schema.properties.data;

  it('marks the fields that answer null nullable, and types a JSON value as any value', () => {
    expect(schemas().ApiKey.properties.lastUsedAt).toMatchObject({ type: 'string', nullable: true });
    // A user is the spec's id, email and createdAt (emailVerifiedAt and updatedAt are GraphQL's).
    expect(Object.keys(schemas().User.properties).sort()).toEqual(['createdAt', 'email', 'id']);
    expect(schemas().TaskWithCategory.properties.completedAt).toMatchObject({ nullable: true });
    expect(schemas().TaskWithCategory.properties.title.nullable).toBeUndefined();
    const day = resolve(answer('get', '/days/{dayId}'));
    for (const field of ['notes', 'mood', 'energy', 'completedAt']) expect(day.properties[field], field).toMatchObject({ nullable: true });
    expect(day.properties.dinnerPlan).toMatchObject({ nullable: true });
    expect(resolve(day.properties.checklist.items).properties.value.type).toBeUndefined();
  });

  it('requires exactly the fields a list answers: GET /people without happenings, GET /projects without board', async () => {
    const { client } = await signUp(app.url);
    expect((await client.post('/api/v1/people', { name: 'Anna' })).status).toBe(201);
    expect((await client.post('/api/v1/projects', { title: 'Launch' })).status).toBe(201);
    for (const path of ['/people', '/projects']) {
      const res = await client.get(`/api/v1${path}`);
      expect(res.status).toBe(200);
      const item = resolve(answer('get', path).items);
      expect([...item.required].sort(), path).toEqual(Object.keys(res.body.data[0]).sort());
    }
    expect(resolve(answer('get', '/people').items).required).not.toContain('happenings');
    expect(resolve(answer('get', '/projects').items).required).not.toContain('board');
  });

  it('documents an optional argument with a default as optional, and null as a way to clear a field', () => {
    const agenda = doc().paths['/agenda/range'].get.parameters.find((p: any) => p.name === 'showAllTransactions');
    expect(agenda).toMatchObject({ required: false, schema: { type: 'boolean', default: false } });
    const patch = doc().paths['/tasks/{taskId}'].patch.requestBody.content['application/json'].schema;
    expect(patch.properties.description).toMatchObject({ nullable: true });
  });

  it('names each path template once: the week and import routes share one template per shape', () => {
    const paths = Object.keys(doc().paths);
    expect(paths).toContain('/weeks/{startDateOrWeekId}');
    expect(paths).toContain('/account/import/{sourceOrImportId}');
    expect(paths).not.toContain('/weeks/{startDate}');
    const week = doc().paths['/weeks/{startDateOrWeekId}'];
    expect(week.get.parameters[0]).toMatchObject({ name: 'startDateOrWeekId', in: 'path', description: expect.stringMatching(/^The startDate/) });
    expect(week.patch.parameters[0]).toMatchObject({ name: 'startDateOrWeekId', in: 'path', description: expect.stringMatching(/^The weekId/) });
  });
});

describe('money and unknown fields as a generated client reads them (issue 34, item 15)', () => {
  const doc = (path: string) => parse(documents[path]!);
  const paths = ['/api/v1/openapi.yaml', '/api/public/v1/openapi.yaml'];
  const bodySchema = (operation: any) => operation.requestBody?.content?.['application/json']?.schema;

  it('declares an amount so that a standard validator takes -8.2 (no multipleOf), and says the rule in words', async () => {
    for (const path of paths) expect(documents[path], path).not.toContain('multipleOf');
    const amount = bodySchema(doc('/api/v1/openapi.yaml').paths['/transactions'].post).properties.amount;
    expect(amount).toMatchObject({ type: 'number', description: expect.stringContaining('at most 2 decimals') });
    const validate = new Ajv({ strict: false }).compile(amount);
    expect([-8.2, 0.1, 0.3, 1234.56, -999999999.99].map((value) => [value, validate(value)])).toEqual([-8.2, 0.1, 0.3, 1234.56, -999999999.99].map((value) => [value, true]));
    expect(validate(1e10)).toBe(false);
    expect(validate('-8.2')).toBe(false); // a JSON number on the wire, as the spec has it
    // The service answers -8.2 as -8.2, and the answer matches the document (the client checks every exchange).
    const { client } = await signUp(app.url);
    const account = await client.post('/api/v1/accounts', { name: 'Cash', type: 'cash', currency: 'EUR' });
    const created = await client.post('/api/v1/transactions', { accountId: account.body.data.id, amount: -8.2, description: 'Bus', date: '2026-11-20' });
    expect(created.status).toBe(201);
    expect(created.body.data.amount).toBe(-8.2);
  });

  it('says on every JSON request body whether unknown fields are refused, as the service does', async () => {
    const strict = new Set(Object.values(sessionRoutes).filter((route) => route.strictBody).map((route) => `${route.method.toLowerCase()} /api/v1${route.path}`));
    const handWritten = new Set(Object.keys(handWrittenPaths()));
    const seen: string[] = [];
    for (const path of paths) {
      const document = doc(path);
      const base = document.servers[0].url;
      for (const [template, item] of Object.entries<any>(document.paths)) {
        if (path === '/api/v1/openapi.yaml' && handWritten.has(template)) continue; // described beside their handlers
        for (const [method, operation] of Object.entries<any>(item)) {
          const schema = bodySchema(operation);
          if (!schema) continue;
          const routed = `${method} ${base}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
          seen.push(routed);
          expect(schema.additionalProperties, routed).toBe(!strict.has(routed));
        }
      }
      // Every input object (what a body field holds) refuses a field it does not define.
      const inputs = Object.entries<any>(document.components.schemas).filter(([name]) => name.endsWith('Input'));
      if (path === '/api/v1/openapi.yaml') expect(inputs.length).toBeGreaterThan(3);
      for (const [name, schema] of inputs) expect(schema.additionalProperties, name).toBe(false);
    }
    expect(seen.length).toBeGreaterThan(100);
    expect(strict.size).toBeGreaterThan(5);
    expect([...strict].filter((route) => !seen.includes(route))).toEqual([]);

    // What the documents say is what the service does.
    const { client } = await signUp(app.url);
    const refusedAtTop = await client.post('/api/v1/brain/databases', { name: 'Films', colour: 'red' }, { outsideContract: true });
    expect(refusedAtTop.status).toBe(400);
    expect(refusedAtTop.body.error.details.errors).toEqual([{ path: ['colour'], message: 'unknown field colour' }]);
    const ignoredAtTop = await client.post('/api/v1/projects', { title: 'Launch', colour: 'red' });
    expect(ignoredAtTop.status).toBe(201);
    const board = await client.patch(`/api/v1/projects/${ignoredAtTop.body.data.id}/board`, { columns: [{ name: 'Todo', colour: 'red' }] }, { outsideContract: true });
    expect(board.status).toBe(400);
    expect(JSON.stringify(board.body.error.details.errors)).toContain('colour');
  });
});
