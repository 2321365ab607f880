import { beforeAll, describe, expect, it } from 'vitest';
import { UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { keyHolder } from '../public-api/public-api.test-helpers.js';
import { makePdf, postMultipart } from '../files/files.test-helpers.js';
import { purgeIdempotencyKeys } from './idempotency.jobs.js';
import { claimKey } from './idempotency.queries.js';
import { runOnce, STORED_ANSWER_MAX_BYTES } from './run-once.js';

/** Idempotency keys through real HTTP (docs/idempotency.md): a repeat answers the first answer and writes once. */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

async function waterRows(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }>(app.databaseUrl, 'select count(*)::text as n from water_intakes where user_id = $1', [userId]);
  return Number(row!.n);
}

async function taskRows(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }>(app.databaseUrl, 'select count(*)::text as n from tasks where user_id = $1', [userId]);
  return Number(row!.n);
}

describe('Idempotency-Key on the Public API', () => {
  it('a repeat answers the first answer without writing; another body is refused 422; a bad key 400', async () => {
    const user = await keyHolder(app);
    const first = await user.api.post('/water', { volume: 250, notes: 'after run' }, keyed('retry-1'));
    expect(first.status, first.text).toBe(200);
    // The same body with its fields in another order is the same request.
    const again = await user.api.post('/water', { notes: 'after run', volume: 250 }, keyed('retry-1'));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await waterRows(user.id)).toBe(1);

    const other = await user.api.post('/water', { volume: 300 }, keyed('retry-1'));
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const elsewhere = await user.api.post('/steps', { count: 300 }, keyed('retry-1'));
    expect(elsewhere.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const bad = await user.api.post('/water', { volume: 300 }, keyed('x'.repeat(256)));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.errors[0].path).toEqual(['Idempotency-Key']);
    // A refusal by the checks (nothing ran) is not kept: the corrected request may use the key.
    expect((await user.api.post('/water', { volume: -1 }, keyed('fix-me'))).status).toBe(400);
    expect((await user.api.post('/water', { volume: 100 }, keyed('fix-me'))).status).toBe(200);
    expect(await waterRows(user.id)).toBe(2);
  });

  it('50 concurrent retries of one key write once: the others answer the first answer or 409 in progress', async () => {
    const user = await keyHolder(app);
    const answers = await Promise.all(Array.from({ length: 50 }, () => user.api.post('/water', { volume: 200 }, keyed('storm'))));
    expect(await waterRows(user.id)).toBe(1);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.error.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    // Once the first has finished, every retry answers its answer.
    expect((await user.api.post('/water', { volume: 200 }, keyed('storm'))).text).toBe(ok[0]!.text);
  });

  it('a key lives 24 h: purged (or claimed again) after that, the repeat writes again', async () => {
    const user = await keyHolder(app);
    expect((await user.api.post('/water', { volume: 150 }, keyed('daily'))).status).toBe(200);
    const em = app.server.orm.em.fork();
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000);
    expect(await claimKey(em, user.id, 'http:daily', 'other', inAnHour), 'still alive after 1 h').toBe(false);
    await purgeIdempotencyKeys(em, inAnHour);
    expect((await user.api.post('/water', { volume: 150 }, keyed('daily'))).headers.get('idempotent-replayed')).toBe('true');
    expect(await waterRows(user.id)).toBe(1);

    const tomorrow = new Date(Date.now() + 25 * 60 * 60 * 1000);
    expect(await purgeIdempotencyKeys(em, tomorrow)).toBeGreaterThanOrEqual(1);
    const [left] = await sql<{ n: string }>(app.databaseUrl, 'select count(*)::text as n from idempotency_keys where user_id = $1', [user.id]);
    expect(left!.n).toBe('0');
    expect((await user.api.post('/water', { volume: 150 }, keyed('daily'))).headers.get('idempotent-replayed')).toBeNull();
    expect(await waterRows(user.id)).toBe(2);
    // Lazy expiry: a claim a day later takes the key over even when no purge ran.
    expect(await claimKey(em, user.id, 'http:daily', 'other', tomorrow)).toBe(true);
  });
});

describe('the kept answer and the lease', () => {
  it('an answer over the cap is not kept (a repeat is refused, not run); a first request that died is claimed again after 5 minutes', async () => {
    const { id } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const now = new Date();
    let runs = 0;
    const request = { userId: id, key: 'http:large', fingerprint: 'f', now };
    const large = () => runOnce(em, request, async () => ++runs, () => ({ status: 200, headers: {}, body: 'x'.repeat(STORED_ANSWER_MAX_BYTES + 1) }));
    expect((await large()).kind).toBe('ran');
    const repeat = await large();
    expect(repeat.kind === 'refused' && [repeat.error.code, repeat.error.status, repeat.error.details]).toEqual(['IDEMPOTENCY_ANSWER_NOT_STORED', 409, { status: 200 }]);
    expect(runs).toBe(1);

    // Claimed and never finished (its process died): in progress for 5 minutes, then free.
    expect(await claimKey(em, id, 'http:died', 'f', now)).toBe(true);
    expect(await claimKey(em, id, 'http:died', 'f', new Date(now.getTime() + 4 * 60_000))).toBe(false);
    expect(await claimKey(em, id, 'http:died', 'f', new Date(now.getTime() + 6 * 60_000))).toBe(true);
  });
});

describe('Idempotency-Key on the Session API', () => {
  it("keys are per person: another person's identical key writes; a kept 201 answers 201, a kept update its ETag and undo token", async () => {
    const [a, b] = await Promise.all([signUp(app.url), signUp(app.url)]);
    const task = { title: 'Pay rent', timebox: 30 };
    const first = await a.client.post('/api/v1/tasks', task, keyed('same-key'));
    expect(first.status, first.text).toBe(201);
    const repeat = await a.client.post('/api/v1/tasks', task, keyed('same-key'));
    expect([repeat.status, repeat.text]).toEqual([201, first.text]);
    const other = await b.client.post('/api/v1/tasks', task, keyed('same-key'));
    expect(other.status).toBe(201);
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect([await taskRows(a.id), await taskRows(b.id)]).toEqual([1, 1]);

    // A retried update answers the first answer's ETag and undo token too (the same write, not a new one).
    const done = await a.client.patch(`/api/v1/tasks/${first.body.data.id}`, { status: 'done' }, keyed('done-1'));
    expect(done.status, done.text).toBe(200);
    expect(done.headers.get('etag')).toBeTruthy();
    expect(done.headers.get('undo-token')).toBeTruthy();
    const retried = await a.client.patch(`/api/v1/tasks/${first.body.data.id}`, { status: 'done' }, keyed('done-1'));
    expect([retried.headers.get('idempotent-replayed'), retried.headers.get('etag'), retried.headers.get('undo-token')]).toEqual([
      'true',
      done.headers.get('etag'),
      done.headers.get('undo-token'),
    ]);
  });

  it('a refusal by the rules (404 for a missing record) is kept; a GET ignores the header', async () => {
    const { client } = await signUp(app.url);
    const missing = '00000000-0000-4000-8000-000000000000';
    const first = await client.patch(`/api/v1/tasks/${missing}`, { title: 'x' }, keyed('nf'));
    expect(first.status).toBe(404);
    const again = await client.patch(`/api/v1/tasks/${missing}`, { title: 'x' }, keyed('nf'));
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([404, first.text, 'true']);
    expect((await client.get('/api/v1/tasks', keyed('x'.repeat(300)))).status).toBe(200);
  });
});

describe('Idempotency-Key on POST /graphql', () => {
  const createTask = (title: string) => ({ query: 'mutation ($title: String!) { createTask(title: $title, timebox: 15) { id title } }', variables: { title } });

  it('20 concurrent retries of one mutation write once and answer one body; another body answers 422; a query ignores the key', async () => {
    const { client, id } = await signUp(app.url);
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.post('/graphql', createTask('Stretch'), keyed('gql-storm'))));
    expect(await taskRows(id)).toBe(1);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    expect(ok[0]!.body.data.createTask.title).toBe('Stretch');
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status, a.text).toBe(409);
      expect(a.body.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    const repeat = await client.post('/graphql', createTask('Stretch'), keyed('gql-storm'));
    expect(repeat.text).toBe(ok[0]!.text);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');

    const other = await client.post('/graphql', createTask('Run'), keyed('gql-storm'));
    expect(other.status).toBe(422);
    expect(other.body.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The REST key of the same name is another key (the bodies are not comparable).
    expect((await client.post('/api/v1/tasks', { title: 'Walk', timebox: 5 }, keyed('gql-storm'))).status).toBe(201);
    expect(await taskRows(id)).toBe(2);

    // A query is not a write: the header is ignored. A kept mutation's answer carries its undo token.
    const taskId = ok[0]!.body.data.createTask.id;
    expect((await client.post('/graphql', { query: '{ tasks { meta { total } } }' }, keyed('gql-storm'))).status).toBe(200);
    const update = { query: `mutation { updateTask(taskId: "${taskId}", status: done) { status } }` };
    const done = await client.post('/graphql', update, keyed('gql-done'));
    expect(done.body.extensions.undoToken).toMatch(UNDO_TOKEN_SHAPE);
    expect((await client.post('/graphql', update, keyed('gql-done'))).text).toBe(done.text);
  });
});

describe('Idempotency-Key on a streamed upload', () => {
  it('the same file and fields answer the first answer and store once; another file with the key answers 422', async () => {
    const { client, id } = await signUp(app.url);
    const send = (text: string) => postMultipart(client, '/api/v1/files/upload', { fileType: 'document', file: { data: makePdf(text), fileName: 'a.pdf', contentType: 'application/pdf' } }, keyed('upload-1').headers);
    const first = await send('Hello');
    expect(first.status, first.text).toBe(201);
    const again = await send('Hello');
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await send('Other');
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const [row] = await sql<{ n: string }>(app.databaseUrl, 'select count(*)::text as n from files where user_id = $1', [id]);
    expect(Number(row!.n)).toBe(1);
  });
});
