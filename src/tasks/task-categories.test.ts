import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID, createCategory, createTask } from './tasks.test-helpers.js';
import { expectValidation } from '../../test/support/expectations.js';

let app: TestApp;
let client: HttpClient;
beforeAll(async () => {
  app = await sharedTestApp();
  ({ client } = await signUp(app.url));
});

describe('POST /task-categories', () => {
  it('creates a category with and without a colour (201)', async () => {
    const res = await client.post('/api/v1/task-categories', { name: 'Health', color: '#00ff7F' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ok: true, data: { name: 'Health', color: '#00ff7F' } });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const plain = await client.post('/api/v1/task-categories', { name: 'c'.repeat(100) });
    expect(plain.status).toBe(201);
    expect(plain.body.data.color).toBeNull();
  });

  it.each(['red', '#FFF', '#GGGGGG', '123456', '#1234567', '#12345', ' #123456'])('refuses the colour %j (400)', async (color) => {
    expectValidation(await client.post('/api/v1/task-categories', { name: 'Bad', color }), 'color');
  });

  it('refuses a missing, empty, blank or too long name (400)', async () => {
    expectValidation(await client.post('/api/v1/task-categories', {}));
    expectValidation(await client.post('/api/v1/task-categories', { name: '' }), 'name');
    expectValidation(await client.post('/api/v1/task-categories', { name: '  ' }), 'name');
    expectValidation(await client.post('/api/v1/task-categories', { name: 'n'.repeat(101) }), 'name');
  });

  it('requires a session (401)', async () => {
    expect((await client.withoutCookie().post('/api/v1/task-categories', { name: 'x' })).status).toBe(401);
  });
});

describe('GET /task-categories', () => {
  it('lists only the caller\'s categories, oldest first, paginated', async () => {
    const { client: own } = await signUp(app.url);
    const made = [];
    for (const name of ['A', 'B', 'C']) made.push(await createCategory(own, { name }));
    const res = await own.get('/api/v1/task-categories');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.name)).toEqual(['A', 'B', 'C']);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const page2 = await own.get('/api/v1/task-categories?page=2&limit=2');
    expect(page2.body.data.map((c: any) => c.id)).toEqual([made[2].id]);
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    // The total is right whether the page is full, partial (the last one), exactly full at the end or past the end.
    for (const [page, limit] of [[1, 2], [2, 2], [1, 3], [5, 2]]) {
      expect((await own.get(`/api/v1/task-categories?page=${page}&limit=${limit}`)).body.meta).toEqual({ page, limit, total: 3 });
    }
    expect((await own.get('/api/v1/task-categories?limit=150')).body.meta.limit).toBe(100);
    expect((await own.withoutCookie().get('/api/v1/task-categories')).status).toBe(401);
  });
});

describe('PATCH /task-categories/:categoryId', () => {
  it('renames and recolours; absent fields stay', async () => {
    const category = await createCategory(client, { name: 'Old', color: '#000000' });
    const renamed = await client.patch(`/api/v1/task-categories/${category.id}`, { name: 'New' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: category.id, name: 'New', color: '#000000' });
    const recoloured = await client.patch(`/api/v1/task-categories/${category.id}`, { color: '#ABCDEF' });
    expect(recoloured.body.data).toMatchObject({ name: 'New', color: '#ABCDEF' });
  });

  it('refuses bad values (400), unknown ids (404), malformed ids (400), no session (401)', async () => {
    const category = await createCategory(client);
    expectValidation(await client.patch(`/api/v1/task-categories/${category.id}`, { color: 'blue' }), 'color');
    expectValidation(await client.patch(`/api/v1/task-categories/${category.id}`, { name: '' }), 'name');
    expectValidation(await client.patch('/api/v1/task-categories/nope', { name: 'x' }));
    const missing = await client.patch(`/api/v1/task-categories/${MISSING_ID}`, { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await client.withoutCookie().patch(`/api/v1/task-categories/${category.id}`, { name: 'x' })).status).toBe(401);
  });
});

describe('DELETE /task-categories/:categoryId', () => {
  it('deletes the category; its tasks stay without a category', async () => {
    const category = await createCategory(client, { name: 'Temp' });
    const task = await createTask(client, { categoryId: category.id });
    expect((await client.withoutCookie().delete(`/api/v1/task-categories/${category.id}`)).status).toBe(401);
    const res = await client.delete(`/api/v1/task-categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, data: { id: category.id, message: 'Task category deleted' } });
    const after = await client.get(`/api/v1/tasks/${task.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ id: task.id, categoryId: null, category: null });
    expect((await client.delete(`/api/v1/task-categories/${category.id}`)).status).toBe(404);
    expectValidation(await client.delete('/api/v1/task-categories/nope'));
    const list = await client.get('/api/v1/task-categories');
    expect(list.body.data.map((c: any) => c.id)).not.toContain(category.id);
  });
});
