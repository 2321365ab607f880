import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { parse, print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpResult } from '../support/http-client.js';
import { buildAppSchema } from '../../src/app/schema.js';
import { OPERATION_LIMITS, operationLimitViolation, worstCaseCost } from '../../src/graphql/operation-limits.js';
import { sofaRouteOperations } from '../../rest/sofa-operations.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { publicRoutes } from '../../rest/public-routes.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const aliased = (count: number, selection: string) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
const WEEK = 'week(startDate: "2026-11-23") { id days { id date tasks { id title category { id name } } checklist { key completed } } }';

function expectRefused(res: HttpResult, limit: RegExp) {
  expect(res.status, res.text.slice(0, 500)).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].message).toMatch(limit);
}

describe('limits on one GraphQL operation', () => {
  it('refuses 2,000 aliased __schema reads from an anonymous caller at once, by the token limit, and stays responsive', async () => {
    const query = aliased(2000, '__schema { types { name fields { name type { name } } } }');
    expect(query.length).toBeGreaterThan(100_000);
    const res = await app.http.withoutCookie().graphql(query);
    expectRefused(res, new RegExp(`more th.. ${OPERATION_LIMITS.maxTokens} tokens`));
    expect(res.text.length).toBeLessThan(1000);
    expect((await app.http.get('/healthz')).status).toBe(200);
  });

  it('refuses more aliases than the limit, naming it, in the GraphQL error shape with the VALIDATION_ERROR code', async () => {
    const res = await app.http.withoutCookie().graphql(aliased(OPERATION_LIMITS.maxAliases + 1, '__type(name: "Task") { name }'));
    expectRefused(res, /Aliases limit of 15 exceeded, found 16/);
    expect(res.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(res.body.errors![0].extensions.stacktrace).toBeUndefined();
    expect((await app.http.graphql(aliased(OPERATION_LIMITS.maxAliases, '__type(name: "Task") { name }'))).status).toBe(200);
  });

  it('allows one __schema per operation (a schema download), not two', async () => {
    const ok = await app.http.graphql('{ __schema { queryType { name } } }');
    expect(ok.status).toBe(200);
    expect(ok.body.data.__schema.queryType.name).toBe('Query');
    expectRefused(await app.http.graphql('{ a: __schema { queryType { name } } b: __schema { queryType { name } } }'), /Introspection limit of 1 __schema per operation exceeded, found 2/);
  });

  it('refuses more root fields than the limit', async () => {
    const fields = (n: number) => `{ ${Array.from({ length: n }, () => '__typename').join(' ')} }`;
    expectRefused(await app.http.graphql(fields(OPERATION_LIMITS.maxRootFields + 1)), /Root field limit of 20 exceeded, found 21/);
    expect((await app.http.graphql(fields(OPERATION_LIMITS.maxRootFields))).status).toBe(200);
  });

  it('refuses a selection deeper than the limit', async () => {
    const nested = (levels: number) => `{ __type(name: "Task") { fields { type ${'{ ofType '.repeat(levels)}{ name }${' }'.repeat(levels)} } } }`;
    expectRefused(await app.http.graphql(nested(7)), /Query depth limit of 10 exceeded, found 11/);
    expect((await app.http.graphql(nested(6))).status).toBe(200);
  });

  it('refuses more directives than the limit', async () => {
    // @include and @skip may both sit on one field: 11 fields carry 22 directives.
    const query = `{ ${'__typename @include(if: true) @skip(if: false) '.repeat(11)}}`;
    expectRefused(await app.http.graphql(query), /Directives limit of 20 exceeded, found 22/);
  });

  it('refuses a signed-in read whose estimated cost is over the limit (3,000 aliased weeks, and three weeks at once), and answers one week', async () => {
    const { client } = await signUp(app.url);
    expect((await client.post('/api/v1/weeks/generate', { startDate: '2026-11-23' })).status).toBe(201);
    expectRefused(await client.graphql(aliased(3000, WEEK)), /tokens/);
    // A week read with everything on each day (the week route without its answer shape, as Sofa would
    // build it), three times in one operation.
    const unshaped = { 'Query.week': { method: 'GET', path: '/weeks/:startDate' } } as const;
    const weekRead = print(sofaRouteOperations(await buildAppSchema(), unshaped).get('Query.week')!);
    const body = weekRead.slice(weekRead.indexOf('{') + 1, weekRead.lastIndexOf('}'));
    const threeWeeks = `query ($startDate: LocalDate!) { ${[1, 2, 3].map((i) => `w${i}: ${body}`).join(' ')} }`;
    expectRefused(await client.graphql(threeWeeks, { startDate: '2026-11-23' }), new RegExp(`Cost limit of ${OPERATION_LIMITS.maxCost} exceeded, estimated \\d+`));
    const one = await client.graphql(`{ ${WEEK} }`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.week.days).toHaveLength(7);
  });

  it('counts a page by the size asked for: limit comes from the variables', async () => {
    const { client } = await signUp(app.url);
    const query = `query ($limit: Int) { ${Array.from({ length: 12 }, (_, i) => `t${i}: trainingSessions(limit: $limit) { items { id exercises { id sets { id reps } } } }`).join(' ')} }`;
    expect((await client.graphql(query, { limit: 5 })).status).toBe(200);
    expectRefused(await client.graphql(query, { limit: 100 }), /Cost limit/);
  });

  it('applies the same limits to an automatic persisted query, registered or sent by hash alone', async () => {
    const over = aliased(OPERATION_LIMITS.maxAliases + 5, '__type(name: "Task") { name }');
    const overHash = createHash('sha256').update(over).digest('hex');
    expectRefused(await app.http.post('/graphql', { query: over, extensions: { persistedQuery: { version: 1, sha256Hash: overHash } } }), /Aliases limit/);

    // Registered within the limits, then sent by hash with variables that make it cost too much.
    const { client } = await signUp(app.url);
    const query = `query ($limit: Int) { ${Array.from({ length: 12 }, (_, i) => `t${i}: trainingSessions(limit: $limit) { items { id exercises { id sets { id reps } } } }`).join(' ')} }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    expect((await client.post('/graphql', { query, variables: { limit: 5 }, extensions })).status).toBe(200);
    const byHash = await client.post('/graphql', { variables: { limit: 5 }, extensions });
    expect(byHash.status, byHash.text).toBe(200);
    expect(byHash.body.data.t0.items).toEqual([]);
    expectRefused(await client.post('/graphql', { variables: { limit: 100 }, extensions }), /Cost limit/);
  });
});

describe('every REST route operation within the limits', () => {
  it('passes depth, aliases, directives, root fields, tokens and worst-case cost, for both surfaces', async () => {
    const schema = await buildAppSchema();
    for (const table of [sessionRoutes, publicRoutes]) {
      const operations = sofaRouteOperations(schema, table);
      expect([...operations.keys()].sort()).toEqual(Object.keys(table).sort());
      for (const [operation, document] of operations) {
        expect(() => parse(print(document), { maxTokens: OPERATION_LIMITS.maxTokens }), operation).not.toThrow();
        expect(operationLimitViolation(schema, document)?.message, operation).toBeUndefined();
        expect(worstCaseCost(schema, document), operation).toBeLessThanOrEqual(OPERATION_LIMITS.maxCost);
      }
    }
    // The largest read today, a week with its days and everything on them, keeps room for growth.
    expect(worstCaseCost(schema, sofaRouteOperations(schema, sessionRoutes).get('Query.week')!)).toBeLessThan(OPERATION_LIMITS.maxCost / 2);
  });
});
