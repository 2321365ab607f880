import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpClient } from '../support/http-client.js';
import { expectNotFound } from '../support/expectations.js';
import { generateWeek } from '../support/fixtures.js';
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

/** Each versioned kind (docs/concurrency.md): the route that reads it, and a write to it. */
async function kinds(client: HttpClient) {
  const made = async (path: string, body: unknown) => {
    const res = await client.post(`/api/v1${path}`, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const project = await made('/projects', { title: 'Garden' });
  const card = await made(`/projects/${project.id}/tasks`, { title: 'Dig' });
  const note = await made('/brain/notes', { title: 'Plan' });
  const person = await made('/people', { name: 'Carla' });
  const habit = await made('/habits', { name: 'Floss' });
  const account = await made('/accounts', { name: 'Cash', type: 'cash', balance: 0, currency: 'EUR' });
  const transaction = await made('/transactions', { accountId: account.id, amount: -5, description: 'Bread', date: '2026-11-16' });
  const database = await made('/brain/databases', { name: 'Books', properties: [{ key: 'title', name: 'Title', type: 'text' }] });
  const record = await made(`/brain/databases/${database.id}/records`, { values: { title: 'Dune' } });
  return [
    { kind: 'project card', path: `/projects/${project.id}/tasks/${card.id}`, change: { title: 'Dig deeper' } },
    { kind: 'note', path: `/brain/notes/${note.id}`, change: { title: 'Plan B' } },
    { kind: 'person', path: `/people/${person.id}`, change: { name: 'Carla M.' } },
    { kind: 'habit', path: `/habits/${habit.id}`, change: { name: 'Floss nightly' } },
    { kind: 'transaction', path: `/transactions/${transaction.id}`, change: { amount: -6 } },
    { kind: 'database record', path: `/brain/databases/${database.id}/records/${record.id}`, change: { values: { title: 'Dune Messiah' } } },
  ];
}

describe('REST: every versioned kind', () => {
  it('reads with an ETag, writes with a matching If-Match, refuses a stale one with 412 and the current record', async () => {
    for (const { kind, path, change } of await kinds(alice)) {
      const read = await alice.get(`/api/v1${path}`);
      expect(read.headers.get('etag'), kind).toBe('"1"');
      const written = await alice.patch(`/api/v1${path}`, change, ifMatch('"1"'));
      expect([written.status, written.headers.get('etag')], kind).toEqual([200, '"2"']);
      const stale = await alice.patch(`/api/v1${path}`, change, ifMatch('"1"'));
      expect(stale.status, kind).toBe(412);
      expect(stale.body.error.details, kind).toMatchObject({ version: 2, current: { id: read.body.data.id, version: 2 } });
      expectNotFound(await bob.patch(`/api/v1${path}`, change, ifMatch('"2"')));
    }
  });

  it('guards a checklist toggle: a second device toggling from the same version is refused instead of undoing the first', async () => {
    const day = (await generateWeek(alice, '2026-11-16')).days[0];
    const item = day.checklist.find((i: any) => i.key === 'MAKE_BED');
    const first = await alice.post(`/api/v1/checklist/${day.id}/toggle/MAKE_BED`, undefined, ifMatch(`"${item.version}"`));
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ completed: true, version: item.version + 1 });
    const second = await alice.post(`/api/v1/checklist/${day.id}/toggle/MAKE_BED`, undefined, ifMatch(`"${item.version}"`));
    expect(second.status).toBe(412);
    expect(second.body.error.details.current).toMatchObject({ key: 'MAKE_BED', completed: true });
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

describe('Deletes take a version', () => {
  it('REST: a stale If-Match on DELETE answers 412 with the current record and deletes nothing; a matching one deletes', async () => {
    const task = await createTask(alice, { title: 'Delete me' });
    const all = [{ kind: 'task', path: `/tasks/${task.id}`, change: { title: 'Delete me later' } as unknown }, ...(await kinds(alice))];
    for (const { kind, path, change } of all) {
      expect((await alice.patch(`/api/v1${path}`, change)).status, kind).toBe(200); // now version 2
      expectNotFound(await bob.delete(`/api/v1${path}`, ifMatch('"2"')));
      const stale = await alice.delete(`/api/v1${path}`, ifMatch('"1"'));
      expect(stale.status, `${kind}: ${stale.text}`).toBe(412);
      expect(stale.headers.get('etag'), kind).toBe('"2"');
      expect(stale.body.error.details, kind).toMatchObject({ version: 2, current: { version: 2 } });
      expect((await alice.get(`/api/v1${path}`)).status, kind).toBe(200);
      const removed = await alice.delete(`/api/v1${path}`, ifMatch('"2"'));
      expect(removed.status, `${kind}: ${removed.text}`).toBe(200);
      expectNotFound(await alice.get(`/api/v1${path}`));
    }
  });

  it('GraphQL: a stale expectedVersion on a delete answers VERSION_CONFLICT and deletes nothing; a matching one deletes', async () => {
    const task = await createTask(alice, { title: 'Shared delete' });
    await alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Edited elsewhere' });
    const remove = `mutation ($id: UUID!, $v: Int) { deleteTask(taskId: $id, expectedVersion: $v) { id } }`;
    const stale = await alice.graphql(remove, { id: task.id, v: 1 });
    expect(stale.body.errors?.[0]?.extensions, stale.text).toMatchObject({ code: 'VERSION_CONFLICT', details: { version: 2, current: { id: task.id, title: 'Edited elsewhere' } } });
    expect((await alice.get(`/api/v1/tasks/${task.id}`)).status).toBe(200);
    const removed = await alice.graphql(remove, { id: task.id, v: 2 });
    expect(removed.body.data?.deleteTask, removed.text).toEqual({ id: task.id });
    expectNotFound(await alice.get(`/api/v1/tasks/${task.id}`));
  });
});
