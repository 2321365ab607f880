import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { Task } from './task.entity.js';
import { MISSING_ID, createCategory, createTask, outboxEvents, weekDays } from './tasks.test-helpers.js';
import { expectValidation } from '../../test/support/expectations.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /tasks', () => {
  let client: HttpClient;
  beforeAll(async () => {
    ({ client } = await signUp(app.url));
  });

  it('creates a todo task (201) with every field', async () => {
    const category = await createCategory(client, { name: 'Deep work', color: '#112233' });
    const [monday] = await weekDays(client);
    const res = await client.post('/api/v1/tasks', {
      title: 'Plan sprint',
      description: 'Outline the goals',
      timebox: 90,
      categoryId: category.id,
      dayId: monday,
    });
    expect(res.status).toBe(201);
    expect(res.body.ok).toBe(true);
    expect(res.body.data).toMatchObject({
      title: 'Plan sprint',
      description: 'Outline the goals',
      timebox: 90,
      status: 'todo',
      nextStep: null,
      categoryId: category.id,
      dayId: monday,
      completedAt: null,
      deferredAt: null,
      category: { id: category.id, name: 'Deep work', color: '#112233' },
    });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    // The spec's fields, not the row's bookkeeping (issue 36, item 6): GraphQL answers that on request.
    expect(res.body.data).not.toHaveProperty('createdAt');
    expect(res.body.data).not.toHaveProperty('updatedAt');
    const asked = await client.graphql(`{ task(taskId: "${res.body.data.id}") { createdAt } }`);
    expect(asked.body.data.task.createdAt).toMatch(ISO);
  });

  it('creates a minimal task without description, category or day', async () => {
    const res = await client.post('/api/v1/tasks', { title: 'x', timebox: 1 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'x', timebox: 1, description: null, categoryId: null, dayId: null, category: null });
    const max = await client.post('/api/v1/tasks', { title: 't'.repeat(500), timebox: 1440, description: 'd'.repeat(10_000) });
    expect(max.status).toBe(201);
  });

  it('records task_created with exactly taskId, title, createdAt', async () => {
    const { client: own, id: userId } = await signUp(app.url);
    const task = await createTask(own, { title: 'Evented' });
    const events = await outboxEvents(app, userId);
    expect(events.map((e) => e.event)).toEqual(['task_created']);
    const { createdAt } = (await own.graphql(`{ task(taskId: "${task.id}") { createdAt } }`)).body.data.task;
    expect(events[0].data).toEqual({ taskId: task.id, title: 'Evented', createdAt });
    expect(Object.keys(events[0].data).sort()).toEqual(['createdAt', 'taskId', 'title']);
  });

  it('requires a session (401)', async () => {
    const res = await client.withoutCookie().post('/api/v1/tasks', { title: 'a', timebox: 10 });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it.each([
    ['missing', undefined],
    ['zero', 0],
    ['negative', -5],
    ['fractional', 1.5],
    ['a string', 'abc'],
    ['a numeric string', '30'],
    ['above one day', 1441],
    ['above 32 bits', 2 ** 31],
    ['huge', 1e12],
    ['null', null],
  ])('refuses a timebox that is %s (400)', async (_label, timebox) => {
    const res = await client.post('/api/v1/tasks', { title: 'Bad timebox', timebox });
    expectValidation(res);
  });

  it('names the field for range errors of timebox', async () => {
    expectValidation(await client.post('/api/v1/tasks', { title: 'a', timebox: 0 }), 'timebox');
    expectValidation(await client.post('/api/v1/tasks', { title: 'a', timebox: 1441 }), 'timebox');
    expectValidation(await client.post('/api/v1/tasks', { title: 'a' }), 'timebox');
  });

  it('refuses a missing, empty, blank or too long title, and a too long description (400)', async () => {
    expectValidation(await client.post('/api/v1/tasks', { timebox: 10 }));
    expectValidation(await client.post('/api/v1/tasks', { title: '', timebox: 10 }), 'title');
    expectValidation(await client.post('/api/v1/tasks', { title: '   ', timebox: 10 }), 'title');
    expectValidation(await client.post('/api/v1/tasks', { title: 't'.repeat(501), timebox: 10 }), 'title');
    expectValidation(await client.post('/api/v1/tasks', { title: 'a', timebox: 10, description: 'd'.repeat(10_001) }), 'description');
  });

  it('refuses malformed categoryId and dayId (400) and unknown ones (404 naming the field)', async () => {
    expectValidation(await client.post('/api/v1/tasks', { title: 'a', timebox: 10, categoryId: 'not-a-uuid' }));
    expectValidation(await client.post('/api/v1/tasks', { title: 'a', timebox: 10, dayId: '123' }));
    const cat = await client.post('/api/v1/tasks', { title: 'a', timebox: 10, categoryId: MISSING_ID });
    expect(cat.status).toBe(404);
    expect(cat.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'categoryId' } });
    const day = await client.post('/api/v1/tasks', { title: 'a', timebox: 10, dayId: MISSING_ID });
    expect(day.status).toBe(404);
    expect(day.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
  });

  it('writes no task and no event when creation is refused', async () => {
    const { client: own, id: userId } = await signUp(app.url);
    await own.post('/api/v1/tasks', { title: 'a', timebox: 0 });
    await own.post('/api/v1/tasks', { title: 'a', timebox: 10, categoryId: MISSING_ID });
    expect((await own.get('/api/v1/tasks')).body.meta.total).toBe(0);
    expect(await outboxEvents(app, userId)).toEqual([]);
  });
});

describe('GET /tasks/:taskId', () => {
  it('answers the task, 404 for an unknown id, 400 for a malformed one, 401 without session', async () => {
    const { client } = await signUp(app.url);
    const task = await createTask(client);
    const res = await client.get(`/api/v1/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, data: { id: task.id, title: 'Write report', timebox: 45, status: 'todo' } });
    const missing = await client.get(`/api/v1/tasks/${MISSING_ID}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expectValidation(await client.get('/api/v1/tasks/not-a-uuid'));
    expect((await client.withoutCookie().get(`/api/v1/tasks/${task.id}`)).status).toBe(401);
  });
});

describe('PATCH /tasks/:taskId', () => {
  let client: HttpClient;
  let userId: string;
  beforeAll(async () => {
    ({ client, id: userId } = await signUp(app.url));
  });

  it('updates title, description, timebox, category and day', async () => {
    const task = await createTask(client);
    const category = await createCategory(client);
    const days = await weekDays(client);
    const res = await client.patch(`/api/v1/tasks/${task.id}`, {
      title: 'Renamed',
      description: 'More words',
      timebox: 20,
      categoryId: category.id,
      dayId: days[2],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: task.id,
      title: 'Renamed',
      description: 'More words',
      timebox: 20,
      categoryId: category.id,
      dayId: days[2],
      status: 'todo',
      category: { id: category.id },
    });
    expect((await client.get(`/api/v1/tasks/${task.id}`)).body.data).toMatchObject({ title: 'Renamed', dayId: days[2] });
  });

  it('leaves absent fields unchanged (empty body)', async () => {
    const task = await createTask(client, { description: 'keep me' });
    const res = await client.patch(`/api/v1/tasks/${task.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: task.title, description: 'keep me', timebox: task.timebox });
  });

  it('refuses invalid values (400)', async () => {
    const task = await createTask(client);
    for (const timebox of [0, -1, 1.5, 'abc', 1441, 1e12]) {
      expectValidation(await client.patch(`/api/v1/tasks/${task.id}`, { timebox }));
    }
    expectValidation(await client.patch(`/api/v1/tasks/${task.id}`, { title: '' }), 'title');
    expectValidation(await client.patch(`/api/v1/tasks/${task.id}`, { status: 'finished' }));
    expectValidation(await client.patch(`/api/v1/tasks/${task.id}`, { categoryId: 'nope' }));
    expectValidation(await client.patch('/api/v1/tasks/nope', { title: 'x' }));
    const unchanged = await client.get(`/api/v1/tasks/${task.id}`);
    expect(unchanged.body.data).toMatchObject({ title: task.title, timebox: task.timebox, status: 'todo' });
  });

  it('answers 404 for an unknown task, category or day, and 401 without session', async () => {
    const task = await createTask(client);
    expect((await client.patch(`/api/v1/tasks/${MISSING_ID}`, { title: 'x' })).status).toBe(404);
    const cat = await client.patch(`/api/v1/tasks/${task.id}`, { categoryId: MISSING_ID, title: 'changed' });
    expect(cat.status).toBe(404);
    expect(cat.body.error.details).toMatchObject({ field: 'categoryId' });
    const day = await client.patch(`/api/v1/tasks/${task.id}`, { dayId: MISSING_ID });
    expect(day.status).toBe(404);
    expect(day.body.error.details).toMatchObject({ field: 'dayId' });
    expect((await client.get(`/api/v1/tasks/${task.id}`)).body.data.title).toBe(task.title);
    expect((await client.withoutCookie().patch(`/api/v1/tasks/${task.id}`, { title: 'x' })).status).toBe(401);
  });

  describe('status', () => {
    it('moves freely between todo, doing and done; done sets and leaving done clears completedAt', async () => {
      const task = await createTask(client);
      const doing = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
      expect(doing.body.data).toMatchObject({ status: 'doing', completedAt: null });
      const done = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      expect(done.body.data.status).toBe('done');
      expect(done.body.data.completedAt).toMatch(ISO);
      const back = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'todo' });
      expect(back.body.data).toMatchObject({ status: 'todo', completedAt: null });
      const direct = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      expect(direct.body.data.status).toBe('done');
      const toDoing = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
      expect(toDoing.body.data).toMatchObject({ status: 'doing', completedAt: null });
    });

    it('records task_completed each time a task becomes done, not when it already is', async () => {
      const { client: own, id: ownId } = await signUp(app.url);
      const task = await createTask(own, { title: 'Finish me' });
      const done = await own.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      await own.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      await own.patch(`/api/v1/tasks/${task.id}`, { title: 'Still done' });
      let completed = (await outboxEvents(app, ownId)).filter((e) => e.event === 'task_completed');
      expect(completed).toHaveLength(1);
      expect(completed[0].data).toEqual({ taskId: task.id, title: 'Finish me', completedAt: done.body.data.completedAt });
      expect(Object.keys(completed[0].data).sort()).toEqual(['completedAt', 'taskId', 'title']);

      await own.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
      await own.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      completed = (await outboxEvents(app, ownId)).filter((e) => e.event === 'task_completed');
      expect(completed).toHaveLength(2);
      expect(completed[1].data.title).toBe('Still done');
    });

    it('defers only with a non-empty nextStep, sets deferredAt and records task_deferred', async () => {
      const { client: own, id: ownId } = await signUp(app.url);
      const task = await createTask(own, { title: 'Later' });
      const res = await own.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', nextStep: 'Ask Sam for the figures' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'deferred', nextStep: 'Ask Sam for the figures', completedAt: null });
      expect(res.body.data.deferredAt).toMatch(ISO);
      const deferred = (await outboxEvents(app, ownId)).filter((e) => e.event === 'task_deferred');
      expect(deferred).toHaveLength(1);
      expect(deferred[0].data).toEqual({
        taskId: task.id,
        title: 'Later',
        nextStep: 'Ask Sam for the figures',
        deferredAt: res.body.data.deferredAt,
      });
      expect(Object.keys(deferred[0].data).sort()).toEqual(['deferredAt', 'nextStep', 'taskId', 'title']);

      // Picking it up again leaves deferred: deferredAt is cleared, the next step stays as a note.
      const resumed = await own.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
      expect(resumed.body.data).toMatchObject({ status: 'doing', deferredAt: null, nextStep: 'Ask Sam for the figures' });
    });

    it.each([
      ['no nextStep', {}],
      ['a null nextStep', { nextStep: null }],
      ['an empty nextStep', { nextStep: '' }],
      ['a blank nextStep', { nextStep: '   ' }],
    ])('refuses deferral with %s (400 task_deferral) and changes nothing', async (_label, extra) => {
      const { client: own, id: ownId } = await signUp(app.url);
      const task = await createTask(own, { title: 'Stay' });
      await own.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
      const res = await own.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', title: 'Renamed', timebox: 5, ...extra });
      expectValidation(res, 'nextStep');
      expect(res.body.error.details.rule).toBe('task_deferral');
      const after = await own.get(`/api/v1/tasks/${task.id}`);
      expect(after.body.data).toMatchObject({ status: 'doing', title: 'Stay', timebox: 45, nextStep: null, deferredAt: null });
      expect((await outboxEvents(app, ownId)).map((e) => e.event)).toEqual(['task_created']);
    });

    it('needs the nextStep in the same request, even when one was set before', async () => {
      const task = await createTask(client);
      await client.patch(`/api/v1/tasks/${task.id}`, { nextStep: 'Call the bank' });
      const res = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred' });
      expectValidation(res, 'nextStep');
      expect(res.body.error.details.rule).toBe('task_deferral');
      expect((await client.get(`/api/v1/tasks/${task.id}`)).body.data.status).toBe('todo');
    });

    it('keeps a deferred task\'s nextStep non-empty', async () => {
      const task = await createTask(client);
      await client.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', nextStep: 'Step one' });
      const res = await client.patch(`/api/v1/tasks/${task.id}`, { nextStep: '' });
      expectValidation(res, 'nextStep');
      expect(res.body.error.details.rule).toBe('task_deferral');
      const changed = await client.patch(`/api/v1/tasks/${task.id}`, { nextStep: 'Step two' });
      expect(changed.body.data).toMatchObject({ status: 'deferred', nextStep: 'Step two' });
    });

    it('defers a done task: completedAt is cleared', async () => {
      const task = await createTask(client);
      await client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      const res = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', nextStep: 'Redo it' });
      expect(res.body.data).toMatchObject({ status: 'deferred', completedAt: null });
    });

    it('stores completedAt and deferredAt in the database', async () => {
      const task = await createTask(client);
      await client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
      const row = await app.server.orm.em.fork().findOneOrFail(Task, task.id);
      expect(row.completedAt).toBeInstanceOf(Date);
      expect(row.status).toBe('done');
      expect(row.userId).toBe(userId);
    });
  });
});

describe('DELETE /tasks/:taskId', () => {
  it('deletes and answers { id, message }; then 404; 400 malformed; 401 without session', async () => {
    const { client } = await signUp(app.url);
    const task = await createTask(client);
    expect((await client.withoutCookie().delete(`/api/v1/tasks/${task.id}`)).status).toBe(401);
    const res = await client.delete(`/api/v1/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, data: { id: task.id, message: 'Task deleted' } });
    expect((await client.get(`/api/v1/tasks/${task.id}`)).status).toBe(404);
    expect((await client.delete(`/api/v1/tasks/${task.id}`)).status).toBe(404);
    expectValidation(await client.delete('/api/v1/tasks/nope'));
  });
});

describe('GET /tasks', () => {
  let client: HttpClient;
  let tasks: any[];
  let categoryId: string;
  let days: string[];
  beforeAll(async () => {
    ({ client } = await signUp(app.url));
    categoryId = (await createCategory(client)).id;
    days = await weekDays(client);
    tasks = [];
    for (let i = 0; i < 7; i++) {
      tasks.push(
        await createTask(client, {
          title: `Task ${i}`,
          categoryId: i % 2 === 0 ? categoryId : undefined,
          dayId: i < 3 ? days[0] : days[1],
        }),
      );
    }
    await client.patch(`/api/v1/tasks/${tasks[1].id}`, { status: 'doing' });
    await client.patch(`/api/v1/tasks/${tasks[2].id}`, { status: 'done' });
    await client.patch(`/api/v1/tasks/${tasks[3].id}`, { status: 'done' });
    await client.patch(`/api/v1/tasks/${tasks[4].id}`, { status: 'deferred', nextStep: 'Later' });
  });

  it('lists the caller\'s tasks oldest first with pagination meta', async () => {
    const res = await client.get('/api/v1/tasks');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.data.map((t: any) => t.title)).toEqual(tasks.map((t) => t.title));
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 7 });
  });

  it('filters by status, category and day, and combines them', async () => {
    const titles = async (query: string) => (await client.get(`/api/v1/tasks?${query}`)).body.data.map((t: any) => t.title);
    expect(await titles('status=todo')).toEqual(['Task 0', 'Task 5', 'Task 6']);
    expect(await titles('status=doing')).toEqual(['Task 1']);
    expect(await titles('status=done')).toEqual(['Task 2', 'Task 3']);
    expect(await titles('status=deferred')).toEqual(['Task 4']);
    expect(await titles(`categoryId=${categoryId}`)).toEqual(['Task 0', 'Task 2', 'Task 4', 'Task 6']);
    expect(await titles(`dayId=${days[0]}`)).toEqual(['Task 0', 'Task 1', 'Task 2']);
    expect(await titles(`dayId=${days[1]}&categoryId=${categoryId}&status=todo`)).toEqual(['Task 6']);
    expect(await titles(`dayId=${days[5]}`)).toEqual([]);
    const meta = (await client.get(`/api/v1/tasks?status=done`)).body.meta;
    expect(meta).toEqual({ page: 1, limit: 50, total: 2 });
  });

  it('pages in a stable order; a limit above 100 counts as 100', async () => {
    const first = await client.get('/api/v1/tasks?page=1&limit=3');
    const second = await client.get('/api/v1/tasks?page=2&limit=3');
    const third = await client.get('/api/v1/tasks?page=3&limit=3');
    expect(first.body.meta).toEqual({ page: 1, limit: 3, total: 7 });
    expect(third.body.meta).toEqual({ page: 3, limit: 3, total: 7 });
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((t: any) => t.id);
    expect(ids).toEqual(tasks.map((t) => t.id));
    expect((await client.get('/api/v1/tasks?page=9&limit=3')).body.data).toEqual([]);
    const capped = await client.get('/api/v1/tasks?limit=150');
    expect(capped.body.meta).toEqual({ page: 1, limit: 100, total: 7 });
  });

  it('refuses invalid filters and page arguments (400) and answers 401 without session', async () => {
    expectValidation(await client.get('/api/v1/tasks?status=finished'));
    expectValidation(await client.get('/api/v1/tasks?categoryId=nope'));
    expectValidation(await client.get('/api/v1/tasks?dayId=nope'));
    expectValidation(await client.get('/api/v1/tasks?limit=0'));
    expectValidation(await client.get('/api/v1/tasks?page=0'));
    expectValidation(await client.get('/api/v1/tasks?limit=abc'));
    expect((await client.withoutCookie().get('/api/v1/tasks')).status).toBe(401);
  });
});
