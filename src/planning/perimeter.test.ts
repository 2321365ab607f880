import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient, type HttpResult } from '../../test/support/http-client.js';
import {
  MISSING_ID,
  createPerimeterTasks,
  expectGraphQLError,
  expectNotFound,
  expectValidation,
  firstDay,
} from './planning.test-helpers.js';

let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});


async function perimeterOf(client: HttpClient, dayId: string): Promise<string[]> {
  const res = await client.get(`/api/v1/days/${dayId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.perimeterTasks.map((t: any) => t.id);
}

async function linkRows(dayId: string): Promise<number> {
  const rows = await app.server.orm.em.fork().getConnection().execute('select count(*)::int as n from day_perimeter_tasks where day_id = ?', [dayId]);
  return rows[0].n;
}

function expectPerimeterSize(res: HttpResult) {
  expectValidation(res, 'taskIds');
  expect(res.body.error.details.rule).toBe('perimeter_size');
}

describe('perimeter tasks CRUD', () => {
  it('creates (201), lists (paginated, oldest first), updates and deletes a perimeter task', async () => {
    const { client } = await signUp(app.url);
    const PERSON_ID = (await client.post('/api/v1/people', { name: 'Mum' })).body.data.id as string;
    const created = await client.post('/api/v1/perimeter/tasks', { title: 'Call mum', personId: PERSON_ID });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Call mum', personId: PERSON_ID });
    const plain = await client.post('/api/v1/perimeter/tasks', { title: 'Inbox zero' });
    expect(plain.body.data.personId).toBeNull();

    const list = await client.get('/api/v1/perimeter/tasks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: any) => t.title)).toEqual(['Call mum', 'Inbox zero']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 2 });
    const page2 = await client.get('/api/v1/perimeter/tasks?limit=1&page=2');
    expect(page2.body.data.map((t: any) => t.title)).toEqual(['Inbox zero']);
    expect(page2.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
    expect((await client.get('/api/v1/perimeter/tasks?limit=1000')).body.meta.limit).toBe(100);
    expectValidation(await client.get('/api/v1/perimeter/tasks?limit=0'), 'limit');
    expectValidation(await client.get('/api/v1/perimeter/tasks?page=abc'), 'page');

    const id = created.body.data.id;
    const renamed = await client.patch(`/api/v1/perimeter/tasks/${id}`, { title: 'Call dad' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ id, title: 'Call dad', personId: PERSON_ID });
    // null clears personId (GraphQL here; REST PATCH with null: test/rest/null-semantics.test.ts).
    const cleared = await client.graphql('mutation($id: UUID!) { updatePerimeterTask(taskId: $id, personId: null) { title personId } }', { id });
    expect(cleared.body.data.updatePerimeterTask).toEqual({ title: 'Call dad', personId: null });

    const removed = await client.delete(`/api/v1/perimeter/tasks/${id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data.id).toBe(id);
    expect((await client.get('/api/v1/perimeter/tasks')).body.data.map((t: any) => t.title)).toEqual(['Inbox zero']);
    expectNotFound(await client.delete(`/api/v1/perimeter/tasks/${id}`));
    expectNotFound(await client.patch(`/api/v1/perimeter/tasks/${id}`, { title: 'x' }));
  });

  it("links only the caller's people: another user's person id answers 404 like a missing one", async () => {
    const { client } = await signUp(app.url);
    const other = await signUp(app.url);
    const theirs = (await other.client.post('/api/v1/people', { name: 'Theirs' })).body.data.id as string;
    const mine = (await client.post('/api/v1/people', { name: 'Mine' })).body.data.id as string;
    for (const personId of [theirs, MISSING_ID]) {
      expectNotFound(await client.post('/api/v1/perimeter/tasks', { title: 'Call', personId }), 'personId');
    }
    const task = (await client.post('/api/v1/perimeter/tasks', { title: 'Call', personId: mine })).body.data;
    for (const personId of [theirs, MISSING_ID]) {
      expectNotFound(await client.patch(`/api/v1/perimeter/tasks/${task.id}`, { personId }), 'personId');
      const gql = await client.graphql('mutation($id: UUID!, $p: UUID) { updatePerimeterTask(taskId: $id, personId: $p) { id } }', { id: task.id, p: personId });
      expectGraphQLError(gql, 'NOT_FOUND');
    }
    expect((await client.get('/api/v1/perimeter/tasks')).body.data.map((t: any) => [t.title, t.personId])).toEqual([['Call', mine]]);
    // Deleting the person unlinks their tasks (no id left pointing at nobody).
    expect((await client.delete(`/api/v1/people/${mine}`)).status).toBe(200);
    expect((await client.get('/api/v1/perimeter/tasks')).body.data.map((t: any) => [t.title, t.personId])).toEqual([['Call', null]]);
  });

  it('validates title and personId (400 naming the field)', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post('/api/v1/perimeter/tasks', {}), 'title');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: '' }), 'title');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: 'x'.repeat(501) }), 'title');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: 12 }), 'title');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: 'ok', personId: 'bob' }), 'personId');
    const [task] = await createPerimeterTasks(client, 1);
    expectValidation(await client.patch(`/api/v1/perimeter/tasks/${task.id}`, { title: '' }), 'title');
    expectValidation(await client.patch(`/api/v1/perimeter/tasks/${task.id}`, { personId: 'bob' }), 'personId');
    expectValidation(await client.patch('/api/v1/perimeter/tasks/nope', { title: 'x' }), 'taskId');
    expectValidation(await client.delete('/api/v1/perimeter/tasks/nope'), 'taskId');
    expect((await client.get('/api/v1/perimeter/tasks')).body.meta.total).toBe(1);
  });
});

describe('POST /perimeter/:dayId', () => {
  it('accepts 3, 4 and 5 tasks in normal mode, keeping the order given', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const tasks = (await createPerimeterTasks(client, 6)).map((t) => t.id);
    for (const ids of [tasks.slice(0, 3), [tasks[3], tasks[0], tasks[2], tasks[1]], [tasks[4], tasks[3], tasks[2], tasks[1], tasks[0]]]) {
      const res = await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: ids });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.map((t: any) => t.id)).toEqual(ids);
      expect(await perimeterOf(client, day.id)).toEqual(ids);
      // Replacing leaves nothing of the previous set behind.
      expect(await linkRows(day.id)).toBe(ids.length);
    }
  });

  it('refuses 2 and 6 tasks in normal mode (400, details.rule perimeter_size) and changes nothing', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const tasks = (await createPerimeterTasks(client, 6)).map((t) => t.id);
    const kept = tasks.slice(0, 4);
    await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: kept });
    expectPerimeterSize(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks.slice(0, 2) }));
    expectPerimeterSize(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks }));
    expectPerimeterSize(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [] }));
    expect(await perimeterOf(client, day.id)).toEqual(kept);
  });

  it('accepts 2 and 3 tasks in minimum mode and refuses 1 and 4', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    const tasks = (await createPerimeterTasks(client, 4)).map((t) => t.id);
    for (const ids of [tasks.slice(0, 2), tasks.slice(1, 4)]) {
      const res = await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: ids });
      expect(res.status, res.text).toBe(200);
      expect(await perimeterOf(client, day.id)).toEqual(ids);
    }
    expectPerimeterSize(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks.slice(0, 1) }));
    expectPerimeterSize(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks }));
    expect(await perimeterOf(client, day.id)).toEqual(tasks.slice(1, 4));
  });

  it('refuses duplicates (400) and a task id that is missing or another user\'s (404 naming taskIds), changing nothing', async () => {
    const { client } = await signUp(app.url);
    const other = await signUp(app.url);
    const day = await firstDay(client);
    const tasks = (await createPerimeterTasks(client, 3)).map((t) => t.id);
    const [foreign] = await createPerimeterTasks(other.client, 1);
    await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks });

    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [tasks[0], tasks[0], tasks[1]] }), 'taskIds');
    for (const stranger of [foreign.id, MISSING_ID]) {
      const res = await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [tasks[0], tasks[1], stranger] });
      expectNotFound(res);
      expect(res.body.error.details.field).toBe('taskIds');
    }
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [tasks[0], tasks[1], 'nope'] }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks.join(',') }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, {}), 'taskIds');
    expect(await perimeterOf(client, day.id)).toEqual(tasks);
  });

  it('answers 404 for an unknown day and 400 for a bad day id', async () => {
    const { client } = await signUp(app.url);
    const tasks = (await createPerimeterTasks(client, 3)).map((t) => t.id);
    expectNotFound(await client.post(`/api/v1/perimeter/${MISSING_ID}`, { taskIds: tasks }));
    expectValidation(await client.post('/api/v1/perimeter/nope', { taskIds: tasks }), 'dayId');
  });

  it('deleting a perimeter task takes it off the days that used it', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const tasks = (await createPerimeterTasks(client, 4)).map((t) => t.id);
    await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: tasks });
    await client.delete(`/api/v1/perimeter/tasks/${tasks[1]}`);
    expect(await perimeterOf(client, day.id)).toEqual([tasks[0], tasks[2], tasks[3]]);
  });

  it('concurrent sets of one day leave exactly one of them, whole', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const tasks = (await createPerimeterTasks(client, 5)).map((t) => t.id);
    const sets = [tasks.slice(0, 3), tasks.slice(1, 4), tasks.slice(2, 5), tasks.slice(0, 5)];
    const results = await Promise.all(sets.map((taskIds) => client.post(`/api/v1/perimeter/${day.id}`, { taskIds })));
    expect(results.map((r) => r.status), results.map((r) => r.text).join('\n')).toEqual([200, 200, 200, 200]);
    const final = await perimeterOf(client, day.id);
    expect(sets.map((s) => s.join())).toContain(final.join());
    expect(await linkRows(day.id)).toBe(final.length);
  });

  it('works through GraphQL with the same rules', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const created = await client.graphql('mutation { createPerimeterTask(title: "Gql task") { id title } }');
    expect(created.body.errors, created.text).toBeUndefined();
    const ids = [created.body.data.createPerimeterTask.id, ...(await createPerimeterTasks(client, 2)).map((t) => t.id)];
    const m = 'mutation($d: UUID!, $t: [UUID!]!) { setDayPerimeter(dayId: $d, taskIds: $t) { id } }';
    const set = await client.graphql(m, { d: day.id, t: ids });
    expect(set.body.data.setDayPerimeter.map((t: any) => t.id)).toEqual(ids);
    const refused = expectGraphQLError(await client.graphql(m, { d: day.id, t: ids.slice(0, 2) }), 'VALIDATION_ERROR');
    expect(refused.extensions.details.rule).toBe('perimeter_size');
    const list = await client.graphql('{ perimeterTasks(limit: 2) { items { title } meta { total limit page } } }');
    expect(list.body.data.perimeterTasks.meta).toEqual({ total: 3, limit: 2, page: 1 });
    const del = await client.graphql('mutation($id: UUID!) { deletePerimeterTask(taskId: $id) { id } }', { id: ids[0] });
    expect(del.body.data.deletePerimeterTask.id).toBe(ids[0]);
    expectGraphQLError(await client.graphql('mutation($id: UUID!) { deletePerimeterTask(taskId: $id) { id } }', { id: ids[0] }), 'NOT_FOUND');
  });
});
