import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../test/support/test-app.js';
import { signUp, type HttpClient, type HttpResult, type RequestOptions } from '../test/support/http-client.js';
import { MISSING_ID } from '../test/support/fixtures.js';
import { restPathComparisons } from '../test/support/rest-path-record.js';
import { keyHolder, type KeyClient } from '../src/public-api/public-api.test-helpers.js';
import { answerDifferences, FORCE_SOFA_PATH_HEADER } from './path-comparison.js';
import { ERROR_CONTENT_TYPE, SUCCESS_CONTENT_TYPE, type RestAnswer } from './rest-answer.js';

/*
 * REST straight from the route table (rest/sofa-surface.ts): the direct path must answer exactly as
 * Sofa's path. Every test app compares the two on every REST request of the suite (rest/path-comparison.ts,
 * test/support/rest-path-record.ts: Sofa's path replays the direct path's execution); here the same
 * requests are also answered end to end by each path, over HTTP, so that what reaches the client (status,
 * content type, Allow, body bytes) is compared after the writing too.
 */

let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let keyed: KeyClient;
let recordedBefore: number;
const startDate = '2026-03-02';

beforeAll(async () => {
  app = await sharedTestApp();
  recordedBefore = restPathComparisons.length;
  alice = (await signUp(app.url)).client;
  bob = (await signUp(app.url)).client;
  keyed = (await keyHolder(app)).api;
});

const sofaPath = { [FORCE_SOFA_PATH_HEADER]: 'sofa' };

function answerOf(res: HttpResult): RestAnswer {
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'allow']) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: res.status, headers, body: res.text };
}

/** The request answered by the direct path, then by Sofa's path: the answers must be the same. */
async function expectSameAnswers(client: HttpClient, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  const direct = await client.request(method, path, options);
  const sofa = await client.request(method, path, { ...options, headers: { ...options.headers, ...sofaPath } });
  expect(answerDifferences(answerOf(direct), answerOf(sofa)), `${method} ${path}`).toEqual([]);
  return direct;
}

describe('the direct path answers as Sofa’s path, over HTTP', () => {
  it('reads: a shaped week, a day with every relation, a page, a record, the signed-in person', async () => {
    const generated = await alice.post('/api/v1/weeks/generate', { startDate });
    expect(generated.status).toBe(201);
    const week = await expectSameAnswers(alice, 'GET', `/api/v1/weeks/${startDate}`);
    expect(week.status).toBe(200);
    expect(week.headers.get('content-type')).toBe(SUCCESS_CONTENT_TYPE);
    const dayId = week.body.data.days[0].id as string;
    expect((await expectSameAnswers(alice, 'GET', `/api/v1/days/${dayId}`)).status).toBe(200);

    const task = await alice.post('/api/v1/tasks', { title: 'Compare both paths', timebox: 30 });
    expect(task.status).toBe(201);
    await alice.post('/api/v1/tasks', { title: 'A second one', timebox: 30 });
    const page = await expectSameAnswers(alice, 'GET', '/api/v1/tasks?page=1&limit=1');
    expect(page.body.meta).toMatchObject({ page: 1, limit: 1 });
    expect((await expectSameAnswers(alice, 'GET', `/api/v1/tasks/${task.body.data.id}`)).status).toBe(200);
    expect((await expectSameAnswers(alice, 'GET', '/api/v1/auth/me')).status).toBe(200);
  });

  it('refusals: 400 naming the field, 401, 404 for another person’s id, 404 and 405 with Allow, 415', async () => {
    const theirs = await bob.post('/api/v1/tasks', { title: 'Bob’s', timebox: 30 });
    expect(theirs.status).toBe(201);
    const cases: [HttpClient, string, string, RequestOptions, number][] = [
      [alice, 'GET', '/api/v1/tasks?page=abc', {}, 400],
      [alice, 'GET', '/api/v1/tasks?page=1&page=2', { outsideContract: true }, 400],
      [alice.withoutCookie(), 'GET', '/api/v1/tasks', {}, 401],
      [alice, 'GET', `/api/v1/tasks/${theirs.body.data.id}`, {}, 404],
      [alice, 'GET', `/api/v1/tasks/${MISSING_ID}`, {}, 404],
      [alice, 'PATCH', `/api/v1/tasks/${theirs.body.data.id}`, { body: { title: 'Not mine' } }, 404],
      [alice, 'DELETE', `/api/v1/tasks/${theirs.body.data.id}`, {}, 404],
      [alice, 'GET', '/api/v1/no-such-route', { outsideContract: true }, 404],
      [alice, 'GET', '/api/v1/auth/login', { outsideContract: true }, 405],
      [alice, 'POST', '/api/v1/tasks', { body: {} }, 400],
      [alice, 'POST', '/api/v1/tasks', { body: { title: 5, timebox: 30 } }, 400],
      [alice, 'POST', '/api/v1/tasks', { rawBody: '{"title": ', outsideContract: true }, 400],
      [alice, 'POST', '/api/v1/tasks', { rawBody: 'title=x', headers: { 'content-type': 'text/plain' }, outsideContract: true }, 415],
    ];
    for (const [client, method, path, options, status] of cases) {
      const res = await expectSameAnswers(client, method, path, options);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers.get('content-type')).toBe(ERROR_CONTENT_TYPE);
      if (status === 405) expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('the Public API: a keyed read and its refusals', async () => {
    const authorization = { authorization: `Bearer ${keyed.key}` };
    expect((await expectSameAnswers(keyed.http, 'GET', '/api/public/v1/exercises/search?q=squat', { headers: authorization })).status).toBe(200);
    expect((await expectSameAnswers(keyed.http, 'POST', '/api/public/v1/water', { headers: authorization, body: {} })).status).toBe(400);
    expect((await expectSameAnswers(keyed.http, 'POST', '/api/public/v1/water', { headers: authorization, body: { amountMl: 'a lot' } })).status).toBe(400);
    expect((await expectSameAnswers(keyed.http, 'GET', '/api/public/v1/water', { headers: authorization, outsideContract: true })).status).toBe(405);
  });
});

describe('the comparison on every request of the suite', () => {
  it('compared each direct answer of this file with Sofa’s path, writes included, and none differed', async () => {
    const mine = restPathComparisons.slice(recordedBefore);
    const operations = new Set(mine.flatMap((c) => (c.operation ? [c.operation] : [])));
    for (const operation of ['Mutation.register', 'Mutation.generateWeek', 'Mutation.createTask', 'Query.week', 'Query.day', 'Query.tasks', 'Query.publicSearchExercises']) {
      expect(operations, operation).toContain(operation);
    }
    expect(mine.filter((c) => c.differences.length)).toEqual([]);
    // Refusals before any operation ran were compared too.
    expect(mine.some((c) => c.status === 404 && !c.operation)).toBe(true);
    expect(mine.some((c) => c.status === 401)).toBe(true);
  });

  it('names what differs: status, content type, Allow, body', () => {
    const answer: RestAnswer = { status: 200, headers: { 'content-type': SUCCESS_CONTENT_TYPE }, body: '{"ok":true,"data":1}' };
    expect(answerDifferences(answer, { ...answer })).toEqual([]);
    expect(answerDifferences(answer, { ...answer, status: 201 })).toEqual(['status 200 / 201']);
    expect(answerDifferences(answer, { ...answer, headers: { 'content-type': ERROR_CONTENT_TYPE } })).toEqual([`content-type ${SUCCESS_CONTENT_TYPE} / ${ERROR_CONTENT_TYPE}`]);
    expect(answerDifferences(answer, { ...answer, headers: { ...answer.headers, allow: 'GET' } })).toEqual(['allow null / GET']);
    expect(answerDifferences(answer, { ...answer, body: '{"ok":true,"data":2}' })).toHaveLength(1);
  });
});
