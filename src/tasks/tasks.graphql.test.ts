import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createTasksLoaders } from './tasks.loaders.js';
import { MISSING_ID, outboxEvents, weekDays } from './tasks.test-helpers.js';
import { recordStatements } from '../../test/support/statement-counter.js';

let app: TestApp;
let client: HttpClient;
let userId: string;
beforeAll(async () => {
  app = await startTestApp();
  ({ client, id: userId } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

const TASK_FIELDS = 'id title description timebox status nextStep categoryId dayId completedAt deferredAt createdAt category { id name color }';

const CREATE = `mutation($title: String!, $timebox: Int!, $description: String, $categoryId: UUID, $dayId: UUID) {
  createTask(title: $title, timebox: $timebox, description: $description, categoryId: $categoryId, dayId: $dayId) { ${TASK_FIELDS} }
}`;
const UPDATE = `mutation($taskId: UUID!, $title: String, $description: String, $status: TaskStatus, $timebox: Int, $nextStep: String, $categoryId: UUID, $dayId: UUID) {
  updateTask(taskId: $taskId, title: $title, description: $description, status: $status, timebox: $timebox, nextStep: $nextStep, categoryId: $categoryId, dayId: $dayId) { ${TASK_FIELDS} }
}`;
const CREATE_CATEGORY = `mutation($name: String!, $color: String) { createTaskCategory(name: $name, color: $color) { id name color } }`;

function firstError(res: { body: { errors?: any[] } }) {
  expect(res.body.errors?.length).toBeGreaterThan(0);
  return res.body.errors![0];
}

async function gqlCreate(c: HttpClient, vars: Record<string, unknown> = {}) {
  const res = await c.graphql(CREATE, { title: 'GraphQL task', timebox: 30, ...vars });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createTask;
}

describe('GraphQL tasks', () => {
  it('creates, reads, lists, updates and deletes a task', async () => {
    const category = (await client.graphql(CREATE_CATEGORY, { name: 'Home', color: '#123ABC' })).body.data.createTaskCategory;
    const task = await gqlCreate(client, { categoryId: category.id, description: 'desc' });
    expect(task).toMatchObject({ status: 'todo', timebox: 30, description: 'desc', category: { id: category.id, name: 'Home', color: '#123ABC' } });

    const one = await client.graphql(`query($id: UUID!) { task(taskId: $id) { id title } }`, { id: task.id });
    expect(one.body.data.task).toEqual({ id: task.id, title: 'GraphQL task' });

    const list = await client.graphql(`{ tasks(status: todo, limit: 150) { items { id category { name } } meta { page limit total } } }`);
    expect(list.body.data.tasks.meta).toEqual({ page: 1, limit: 100, total: 1 });
    expect(list.body.data.tasks.items).toEqual([{ id: task.id, category: { name: 'Home' } }]);

    const updated = await client.graphql(UPDATE, { taskId: task.id, status: 'done', title: 'Done in GraphQL' });
    expect(updated.body.data.updateTask).toMatchObject({ status: 'done', title: 'Done in GraphQL' });
    expect(updated.body.data.updateTask.completedAt).toBeTruthy();

    const del = await client.graphql(`mutation($id: UUID!) { deleteTask(taskId: $id) { id message } }`, { id: task.id });
    expect(del.body.data.deleteTask).toEqual({ id: task.id, message: 'Task deleted' });
    const gone = await client.graphql(`query($id: UUID!) { task(taskId: $id) { id } }`, { id: task.id });
    expect(firstError(gone).extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('clears description, nextStep, category and day with an explicit null', async () => {
    const category = (await client.graphql(CREATE_CATEGORY, { name: 'Clear me' })).body.data.createTaskCategory;
    const [day] = await weekDays(client);
    const task = await gqlCreate(client, { categoryId: category.id, dayId: day, description: 'text' });
    await client.graphql(UPDATE, { taskId: task.id, nextStep: 'Some step' });
    const res = await client.graphql(UPDATE, { taskId: task.id, description: null, nextStep: null, categoryId: null, dayId: null });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateTask).toMatchObject({
      title: 'GraphQL task',
      timebox: 30,
      description: null,
      nextStep: null,
      categoryId: null,
      dayId: null,
      category: null,
    });
  });

  it('refuses null for title, timebox and status (400) and changes nothing', async () => {
    const task = await gqlCreate(client);
    for (const vars of [{ title: null }, { timebox: null }, { status: null }]) {
      const res = await client.graphql(UPDATE, { taskId: task.id, ...vars });
      expect(firstError(res).extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    }
    const after = await client.graphql(`query($id: UUID!) { task(taskId: $id) { title timebox status } }`, { id: task.id });
    expect(after.body.data.task).toEqual({ title: 'GraphQL task', timebox: 30, status: 'todo' });
  });

  it('refuses bad timeboxes and malformed ids as VALIDATION_ERROR', async () => {
    for (const timebox of [0, -3, 1.5, 'abc', 1e12, 1441]) {
      const res = await client.graphql(CREATE, { title: 'x', timebox });
      expect(firstError(res).extensions.code).toBe('VALIDATION_ERROR');
    }
    const badId = await client.graphql(`query($id: UUID!) { task(taskId: $id) { id } }`, { id: 'nope' });
    expect(firstError(badId).extensions.code).toBe('VALIDATION_ERROR');
    const badCategory = await client.graphql(CREATE, { title: 'x', timebox: 5, categoryId: 'nope' });
    expect(firstError(badCategory).extensions.code).toBe('VALIDATION_ERROR');
  });

  it('refuses deferral without nextStep with rule task_deferral; defers with one and records the event', async () => {
    const task = await gqlCreate(client, { title: 'Defer in GraphQL' });
    const refused = await client.graphql(UPDATE, { taskId: task.id, status: 'deferred' });
    expect(firstError(refused).extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: { rule: 'task_deferral', errors: [{ path: ['nextStep'] }] },
    });
    const ok = await client.graphql(UPDATE, { taskId: task.id, status: 'deferred', nextStep: 'Next' });
    expect(ok.body.data.updateTask).toMatchObject({ status: 'deferred', nextStep: 'Next' });
    const events = (await outboxEvents(app, userId)).filter((e) => e.data.taskId === task.id).map((e) => e.event);
    expect(events).toEqual(['task_created', 'task_deferred']);
  });

  it('requires a session', async () => {
    const res = await client.withoutCookie().graphql(`{ tasks { meta { total } } }`);
    expect(firstError(res).extensions).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    const cats = await client.withoutCookie().graphql(`{ taskCategories { meta { total } } }`);
    expect(firstError(cats).extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('GraphQL task categories', () => {
  it('lists, updates (null clears the colour) and deletes', async () => {
    const { client: own } = await signUp(app.url);
    const made = (await own.graphql(CREATE_CATEGORY, { name: 'Errands', color: '#FF0000' })).body.data.createTaskCategory;
    const list = await own.graphql(`{ taskCategories { items { id name color } meta { total } } }`);
    expect(list.body.data.taskCategories).toEqual({ items: [made], meta: { total: 1 } });
    const updated = await own.graphql(
      `mutation($id: UUID!, $color: String) { updateTaskCategory(categoryId: $id, color: $color) { id name color } }`,
      { id: made.id, color: null },
    );
    expect(updated.body.data.updateTaskCategory).toEqual({ id: made.id, name: 'Errands', color: null });
    const badColour = await own.graphql(CREATE_CATEGORY, { name: 'x', color: '#12' });
    expect(firstError(badColour).extensions.code).toBe('VALIDATION_ERROR');
    const del = await own.graphql(`mutation($id: UUID!) { deleteTaskCategory(categoryId: $id) { id message } }`, { id: made.id });
    expect(del.body.data.deleteTaskCategory).toEqual({ id: made.id, message: 'Task category deleted' });
  });
});

describe('Day.tasks', () => {
  it('answers each day\'s tasks through the week and the day queries', async () => {
    const { client: own } = await signUp(app.url);
    const days = await weekDays(own, '2026-11-23');
    const a = await gqlCreate(own, { title: 'Mon 1', dayId: days[0] });
    const b = await gqlCreate(own, { title: 'Mon 2', dayId: days[0] });
    const c = await gqlCreate(own, { title: 'Wed', dayId: days[2] });
    await gqlCreate(own, { title: 'No day' });

    const week = await own.graphql(`{ week(startDate: "2026-11-23") { days { id tasks { id title } } } }`);
    expect(week.body.errors).toBeUndefined();
    const byDay = week.body.data.week.days.map((d: any) => d.tasks.map((t: any) => t.id));
    expect(byDay).toEqual([[a.id, b.id], [], [c.id], [], [], [], []]);

    const day = await own.graphql(`query($id: UUID!) { day(dayId: $id) { tasks { title status } } }`, { id: days[2] });
    expect(day.body.data.day.tasks).toEqual([{ title: 'Wed', status: 'todo' }]);

    const rest = await own.get(`/api/v1/days/${days[0]}`);
    expect(rest.body.data.tasks.map((t: any) => t.title)).toEqual(['Mon 1', 'Mon 2']);
  });

  it('loads the tasks of many days with one query', async () => {
    const { client: own } = await signUp(app.url);
    const days = await weekDays(own, '2026-11-30');
    await gqlCreate(own, { title: 'One', dayId: days[0] });
    await gqlCreate(own, { title: 'Two', dayId: days[6] });
    const em = app.server.orm.em.fork();
    const recorder = recordStatements();
    const loaders = createTasksLoaders(em);
    const results = await Promise.all(days.map((d) => loaders.tasksByDayId.load(d)));
    recorder.stop();
    const { statements } = recorder;
    expect(statements.filter((sql) => sql.includes('from "tasks"'))).toHaveLength(1);
    expect(results.map((r) => r.map((t) => t.title))).toEqual([['One'], [], [], [], [], [], ['Two']]);
  });

  it('loads categories of many tasks with one query', async () => {
    const { client: own } = await signUp(app.url);
    const x = (await own.graphql(CREATE_CATEGORY, { name: 'X' })).body.data.createTaskCategory;
    const y = (await own.graphql(CREATE_CATEGORY, { name: 'Y' })).body.data.createTaskCategory;
    const em = app.server.orm.em.fork();
    const recorder = recordStatements();
    const loaders = createTasksLoaders(em);
    const found = await Promise.all([x.id, y.id, x.id, MISSING_ID].map((id) => loaders.categoryById.load(id)));
    recorder.stop();
    const { statements } = recorder;
    expect(statements.filter((sql) => sql.includes('from "task_categories"'))).toHaveLength(1);
    expect(found.map((c) => c?.name ?? null)).toEqual(['X', 'Y', 'X', null]);
  });
});
