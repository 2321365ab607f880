import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createCategory, createTask, outboxEvents, weekDays } from './tasks.test-helpers.js';
import { expectNotFound } from '../../test/support/expectations.js';

/** A user reaches only their own tasks and categories: another user's id answers 404 like a missing one. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let bobId: string;
let aliceTask: any;
let aliceCategory: any;
let aliceDay: string;
let bobTask: any;
let bobCategory: any;
let bobDay: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
  aliceCategory = await createCategory(alice, { name: 'Alice only', color: '#AA0000' });
  [aliceDay] = await weekDays(alice);
  aliceTask = await createTask(alice, { title: 'Alice task', categoryId: aliceCategory.id, dayId: aliceDay });
  bobCategory = await createCategory(bob, { name: 'Bob only' });
  [bobDay] = await weekDays(bob);
  bobTask = await createTask(bob, { title: 'Bob task' });
});

async function aliceTaskUnchanged() {
  const res = await alice.get(`/api/v1/tasks/${aliceTask.id}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({
    title: 'Alice task',
    status: 'todo',
    timebox: aliceTask.timebox,
    categoryId: aliceCategory.id,
    dayId: aliceDay,
  });
}

describe('REST', () => {
  it('hides another user\'s task: GET, PATCH and DELETE answer 404', async () => {
    expectNotFound(await bob.get(`/api/v1/tasks/${aliceTask.id}`));
    expectNotFound(await bob.patch(`/api/v1/tasks/${aliceTask.id}`, { title: 'Hijacked' }));
    expectNotFound(await bob.patch(`/api/v1/tasks/${aliceTask.id}`, { status: 'done' }));
    expectNotFound(await bob.patch(`/api/v1/tasks/${aliceTask.id}`, { status: 'deferred', nextStep: 'x' }));
    expectNotFound(await bob.delete(`/api/v1/tasks/${aliceTask.id}`));
    await aliceTaskUnchanged();
    // No event was recorded for anyone by the refused writes.
    expect((await outboxEvents(app, bobId)).map((e) => e.event)).toEqual(['task_created']);
  });

  it('hides another user\'s category: PATCH and DELETE answer 404, the list leaves it out', async () => {
    expectNotFound(await bob.patch(`/api/v1/task-categories/${aliceCategory.id}`, { name: 'Mine now' }));
    expectNotFound(await bob.delete(`/api/v1/task-categories/${aliceCategory.id}`));
    const list = await bob.get('/api/v1/task-categories');
    expect(list.body.data.map((c: any) => c.id)).toEqual([bobCategory.id]);
    const own = await alice.get('/api/v1/task-categories');
    expect(own.body.data).toEqual([expect.objectContaining({ id: aliceCategory.id, name: 'Alice only', color: '#AA0000' })]);
  });

  it('refuses to attach another user\'s category or day, on create and on update (404 naming the field)', async () => {
    expectNotFound(await bob.post('/api/v1/tasks', { title: 'x', timebox: 10, categoryId: aliceCategory.id }), 'categoryId');
    expectNotFound(await bob.post('/api/v1/tasks', { title: 'x', timebox: 10, dayId: aliceDay }), 'dayId');
    expectNotFound(await bob.patch(`/api/v1/tasks/${bobTask.id}`, { categoryId: aliceCategory.id }), 'categoryId');
    expectNotFound(await bob.patch(`/api/v1/tasks/${bobTask.id}`, { dayId: aliceDay }), 'dayId');
    const after = await bob.get(`/api/v1/tasks/${bobTask.id}`);
    expect(after.body.data).toMatchObject({ categoryId: null, dayId: null });
    expect((await bob.get('/api/v1/tasks')).body.meta.total).toBe(1);
  });

  it('lists only the caller\'s tasks, whatever the filters', async () => {
    const list = await bob.get('/api/v1/tasks');
    expect(list.body.data.map((t: any) => t.id)).toEqual([bobTask.id]);
    expect((await bob.get(`/api/v1/tasks?categoryId=${aliceCategory.id}`)).body.data).toEqual([]);
    expect((await bob.get(`/api/v1/tasks?dayId=${aliceDay}`)).body.data).toEqual([]);
  });

  it('lets the owner attach their own category and day', async () => {
    const res = await bob.patch(`/api/v1/tasks/${bobTask.id}`, { categoryId: bobCategory.id, dayId: bobDay });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ categoryId: bobCategory.id, dayId: bobDay });
  });
});

describe('GraphQL', () => {
  const code = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions?.code;

  it('hides another user\'s task and category', async () => {
    const q = await bob.graphql(`query($id: UUID!) { task(taskId: $id) { id } }`, { id: aliceTask.id });
    expect(code(q)).toBe('NOT_FOUND');
    const u = await bob.graphql(`mutation($id: UUID!) { updateTask(taskId: $id, title: "Hijacked") { id } }`, { id: aliceTask.id });
    expect(code(u)).toBe('NOT_FOUND');
    const d = await bob.graphql(`mutation($id: UUID!) { deleteTask(taskId: $id) { id } }`, { id: aliceTask.id });
    expect(code(d)).toBe('NOT_FOUND');
    const uc = await bob.graphql(`mutation($id: UUID!) { updateTaskCategory(categoryId: $id, name: "Mine") { id } }`, { id: aliceCategory.id });
    expect(code(uc)).toBe('NOT_FOUND');
    const dc = await bob.graphql(`mutation($id: UUID!) { deleteTaskCategory(categoryId: $id) { id } }`, { id: aliceCategory.id });
    expect(code(dc)).toBe('NOT_FOUND');
    const list = await bob.graphql(`{ tasks { items { id } } taskCategories { items { id } } }`);
    expect(list.body.data.tasks.items.map((t: any) => t.id)).not.toContain(aliceTask.id);
    expect(list.body.data.taskCategories.items.map((c: any) => c.id)).not.toContain(aliceCategory.id);
    await aliceTaskUnchanged();
  });

  it('refuses to attach another user\'s category or day', async () => {
    const create = `mutation($categoryId: UUID, $dayId: UUID) { createTask(title: "x", timebox: 5, categoryId: $categoryId, dayId: $dayId) { id } }`;
    const c1 = await bob.graphql(create, { categoryId: aliceCategory.id });
    expect(c1.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404, details: { field: 'categoryId' } });
    const c2 = await bob.graphql(create, { dayId: aliceDay });
    expect(c2.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
    const update = `mutation($id: UUID!, $categoryId: UUID, $dayId: UUID) { updateTask(taskId: $id, categoryId: $categoryId, dayId: $dayId) { id } }`;
    const u1 = await bob.graphql(update, { id: bobTask.id, categoryId: aliceCategory.id });
    expect(u1.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'categoryId' } });
    const u2 = await bob.graphql(update, { id: bobTask.id, dayId: aliceDay });
    expect(u2.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
  });

  it('refuses a null category name (400)', async () => {
    const res = await bob.graphql(`mutation($id: UUID!) { updateTaskCategory(categoryId: $id, name: null) { id } }`, { id: bobCategory.id });
    expect(code(res)).toBe('VALIDATION_ERROR');
  });
});
