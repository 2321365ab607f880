import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpClient } from '../support/http-client.js';
import { expectNotFound } from '../support/expectations.js';
import { createTask } from '../../src/tasks/tasks.test-helpers.js';

/** Issue 38 "no lost updates" (docs/concurrency.md): versions, ETag / If-Match, expectedVersion. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

const ifMatch = (etag: string) => ({ headers: { 'if-match': etag } });

describe('REST: ETag and If-Match', () => {
  it('answers the ETag on a read; a matching If-Match writes and moves it on; a stale one answers 412 with the current record', async () => {
    const task = await createTask(alice, { title: 'Draft' });
    const read = await alice.get(`/api/v1/tasks/${task.id}`);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body.data.version).toBe(1);

    const first = await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Phone edit' }, ifMatch('"1"'));
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    expect(first.body.data).toMatchObject({ title: 'Phone edit', version: 2 });

    // The laptop still holds version 1: refused, nothing overwritten, the current record in the answer.
    const stale = await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Laptop edit' }, ifMatch('"1"'));
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe('"2"');
    expect(stale.body.error).toMatchObject({ code: 'VERSION_CONFLICT', details: { version: 2, current: { id: task.id, title: 'Phone edit', version: 2 } } });
    expect((await alice.get(`/api/v1/tasks/${task.id}`)).body.data.title).toBe('Phone edit');

    // Without If-Match a write behaves as before (last one wins).
    const plain = await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Unguarded' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('etag')).toBe('"3"');
  });

  it("answers another person's record with If-Match 404 like a missing one; a malformed If-Match is a 400", async () => {
    const task = await createTask(alice, { title: 'Private' });
    expectNotFound(await bob.patch(`/api/v1/tasks/${task.id}`, { title: 'Mine' }, ifMatch('"1"')));
    expectNotFound(await bob.patch(`/api/v1/tasks/00000000-0000-4000-8000-000000000000`, { title: 'Mine' }, ifMatch('"1"')));
    const malformed = await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'x' }, ifMatch('1'));
    expect(malformed.status).toBe(400);
    expect((await alice.get(`/api/v1/tasks/${task.id}`)).body.data).toMatchObject({ title: 'Private', version: 1 });
  });

  it('lets exactly one of concurrent writes with the same If-Match win', async () => {
    const task = await createTask(alice, { title: 'Contested' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => alice.patch(`/api/v1/tasks/${task.id}`, { title: `Writer ${i}` }, ifMatch('"1"'))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const now = await alice.get(`/api/v1/tasks/${task.id}`);
    expect(now.body.data).toMatchObject({ title: winner.body.data.title, version: 2 });
  });

  it('counts a raw statement writer: the version moves on, so a client holding the old one is refused', async () => {
    const task = await createTask(alice, { title: 'Before import' });
    await app.server.orm.em.fork().getConnection().execute(`update tasks set title = 'Raw writer' where id = ?`, [task.id]);
    const read = await alice.get(`/api/v1/tasks/${task.id}`);
    expect(read.headers.get('etag')).toBe('"2"');
    expect((await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Stale' }, ifMatch('"1"'))).status).toBe(412);
  });
});

describe('GraphQL: version and expectedVersion', () => {
  it('refuses a stale expectedVersion with VERSION_CONFLICT carrying the current record', async () => {
    const task = await createTask(alice, { title: 'Shared' });
    const update = `mutation ($id: UUID!, $title: String, $v: Int) { updateTask(taskId: $id, title: $title, expectedVersion: $v) { id title version } }`;
    const ok = await alice.graphql(update, { id: task.id, title: 'First', v: 1 });
    expect(ok.body.data?.updateTask).toMatchObject({ title: 'First', version: 2 });
    const stale = await alice.graphql(update, { id: task.id, title: 'Second', v: 1 });
    expect(stale.body.errors?.[0]?.extensions).toMatchObject({ code: 'VERSION_CONFLICT', details: { version: 2, current: { id: task.id, title: 'First', version: 2 } } });
    const read = await alice.graphql(`query ($id: UUID!) { task(taskId: $id) { title version } }`, { id: task.id });
    expect(read.body.data?.task).toEqual({ title: 'First', version: 2 });
  });
});
