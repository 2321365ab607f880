import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectNotFound, expectRule, expectValidation, outboxEvents } from '../../test/support/expectations.js';
import { dbRows } from '../files/files.test-helpers.js';

/** Projects with kanban boards, project tasks (dense orders, status following the column), deadlines, tags. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

const api = '/api/v1';

async function created(res: { status: number; text: string; body: any }): Promise<any> {
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}
async function project(c: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  return created(await c.post(`${api}/projects`, { title: 'Launch', ...body }));
}
async function task(c: HttpClient, projectId: string, body: Record<string, unknown> = {}): Promise<any> {
  return created(await c.post(`${api}/projects/${projectId}/tasks`, { title: 'Card', ...body }));
}
async function board(c: HttpClient, projectId: string): Promise<any> {
  const res = await c.get(`${api}/projects/${projectId}/board`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
async function move(c: HttpClient, projectId: string, taskId: string, columnId: string, order: number): Promise<any> {
  const res = await c.post(`${api}/projects/${projectId}/tasks/${taskId}/move`, { columnId, order });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
/** Every column's orders are exactly 0..n-1, and every task sits in exactly one column. */
function expectDense(b: any): void {
  const seen = new Set<string>();
  for (const column of b.columns) {
    expect(column.tasks.map((t: any) => t.order)).toEqual(column.tasks.map((_: any, i: number) => i));
    for (const t of column.tasks) {
      expect(seen.has(t.id)).toBe(false);
      seen.add(t.id);
      expect(t.columnId).toBe(column.id);
    }
  }
}
const titles = (column: any) => column.tasks.map((t: any) => t.title);

describe('projects', () => {
  it('creates (201) with the default board, lists with type/status filters and meta, gets, patches, deletes', async () => {
    const { client } = await signUp(app.url);
    const p = await project(client, { title: ' Website ', description: 'New site', type: 'work', status: 'active' });
    expect(p).toMatchObject({ title: 'Website', description: 'New site', type: 'work', status: 'active' });
    expect(p.board).toBeUndefined();
    const plain = await project(client, { title: 'Garden' });
    expect(plain).toMatchObject({ type: 'personal', status: 'active', description: null });
    await project(client, { title: 'Old', type: 'work', status: 'archived' });

    const b = await board(client, p.id);
    expect(b.projectId).toBe(p.id);
    expect(b.columns.map((c: any) => [c.name, c.order])).toEqual([['To do', 0], ['In progress', 1], ['Done', 2]]);

    const all = await client.get(`${api}/projects`);
    expect(all.body.data.map((x: any) => x.title)).toEqual(['Website', 'Garden', 'Old']);
    expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    expect((await client.get(`${api}/projects?type=work`)).body.data.map((x: any) => x.title)).toEqual(['Website', 'Old']);
    expect((await client.get(`${api}/projects?type=work&status=archived`)).body.data.map((x: any) => x.title)).toEqual(['Old']);
    expectValidation(await client.get(`${api}/projects?status=sleeping`), 'status');

    expect((await client.get(`${api}/projects/${p.id}`)).body.data.title).toBe('Website');
    const patched = await client.patch(`${api}/projects/${p.id}`, { status: 'completed', description: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'completed', description: null, title: 'Website' });
    expectValidation(await client.patch(`${api}/projects/${p.id}`, { title: null }), 'title');
    expectValidation(await client.patch(`${api}/projects/${p.id}`, { status: 'nope' }), 'status');

    const t = await task(client, plain.id);
    const gone = await client.delete(`${api}/projects/${plain.id}`);
    expect(gone.body.data).toEqual({ id: plain.id, message: 'Project deleted' });
    expectNotFound(await client.get(`${api}/projects/${plain.id}`));
    expectNotFound(await client.get(`${api}/projects/${plain.id}/board`));
    expect(await dbRows(app, 'select id from project_tasks where id = ?', [t.id])).toEqual([]);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post(`${api}/projects`, {}), 'title');
    expectValidation(await client.post(`${api}/projects`, { title: '   ' }), 'title');
    expectValidation(await client.post(`${api}/projects`, { title: 5 }), 'title');
    expectValidation(await client.post(`${api}/projects`, { title: 'x', status: 'nope' }), 'status');
    expectValidation(await client.post(`${api}/projects`, { title: 'x'.repeat(301) }), 'title');
    expect((await client.get(`${api}/projects`)).body.data).toEqual([]);
    expectValidation(await client.get(`${api}/projects/not-a-uuid`));
  });
});

describe('board columns', () => {
  it('renames, reorders, adds and removes empty columns; renumbers orders 0..n-1', async () => {
    const p = await project(alice);
    const [todo, doing, done] = (await board(alice, p.id)).columns;
    const res = await alice.patch(`${api}/projects/${p.id}/board`, {
      columns: [
        { id: todo.id, name: 'Backlog', order: 0 },
        { name: 'Review', order: 2 },
        { id: done.id, name: 'Shipped', order: 3 },
        { id: doing.id, name: 'Doing', order: 1 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.columns.map((c: any) => [c.name, c.order])).toEqual([['Backlog', 0], ['Doing', 1], ['Review', 2], ['Shipped', 3]]);
    expect(res.body.data.columns[0].id).toBe(todo.id);

    // remove the empty Review column, reorder with sparse orders
    const removed = await alice.patch(`${api}/projects/${p.id}/board`, {
      columns: [
        { id: done.id, name: 'Shipped', order: 30 },
        { id: todo.id, name: 'Backlog', order: 10 },
        { id: doing.id, name: 'Doing', order: 20 },
      ],
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data.columns.map((c: any) => [c.name, c.order])).toEqual([['Backlog', 0], ['Doing', 1], ['Shipped', 2]]);
  });

  it('refuses to remove a column that holds a task (400, nothing changed) and other bad boards', async () => {
    const p = await project(alice);
    const [todo, doing, done] = (await board(alice, p.id)).columns;
    await task(alice, p.id);
    expectRule(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [{ id: doing.id, name: 'A' }, { id: done.id, name: 'B' }] }), 'column_not_empty');
    expectValidation(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [] }), 'columns');
    expectValidation(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [{ id: todo.id, name: 'A' }, { id: todo.id, name: 'B' }, { id: doing.id, name: 'C' }, { id: done.id, name: 'D' }] }), 'columns');
    expectValidation(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [{ id: todo.id, name: '' }, { id: doing.id, name: 'x' }, { id: done.id, name: 'y' }] }), 'columns');
    expectValidation(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [{ id: todo.id, name: 'a', order: -1 }, { id: doing.id, name: 'x' }, { id: done.id, name: 'y' }] }), 'columns');
    expectValidation(await alice.patch(`${api}/projects/${p.id}/board`, { columns: 'To do' }), 'columns');
    expectNotFound(await alice.patch(`${api}/projects/${p.id}/board`, { columns: [{ id: MISSING_ID, name: 'x' }, { id: todo.id, name: 'a' }, { id: doing.id, name: 'b' }, { id: done.id, name: 'c' }] }), 'columns');
    const after = await board(alice, p.id);
    expect(after.columns.map((c: any) => c.name)).toEqual(['To do', 'In progress', 'Done']);
    expect(after.columns[0].tasks).toHaveLength(1);
  });

  it('statuses follow the first/last column after a board change', async () => {
    const p = await project(alice);
    const [todo, doing, done] = (await board(alice, p.id)).columns;
    const a = await task(alice, p.id, { title: 'a' });
    const b = await task(alice, p.id, { title: 'b' });
    await move(alice, p.id, b.id, done.id, 0);
    // Done moves to the middle: its task becomes doing; In progress is now last, (empty); a stays todo
    const res = await alice.patch(`${api}/projects/${p.id}/board`, {
      columns: [{ id: todo.id, name: 'To do' }, { id: done.id, name: 'Done' }, { id: doing.id, name: 'In progress' }],
    });
    expect(res.status, res.text).toBe(200);
    expect((await alice.get(`${api}/projects/${p.id}/tasks/${b.id}`)).body.data.status).toBe('doing');
    // Done first: its task becomes todo, To do in the middle: a becomes doing
    await alice.patch(`${api}/projects/${p.id}/board`, {
      columns: [{ id: done.id, name: 'Done' }, { id: todo.id, name: 'To do' }, { id: doing.id, name: 'In progress' }],
    });
    expect((await alice.get(`${api}/projects/${p.id}/tasks/${b.id}`)).body.data.status).toBe('todo');
    expect((await alice.get(`${api}/projects/${p.id}/tasks/${a.id}`)).body.data.status).toBe('doing');
  });
});

describe('project tasks', () => {
  it('CRUD: starts last in the first column as todo, patches with null semantics, delete closes the gap', async () => {
    const { client } = await signUp(app.url);
    const p = await project(client);
    const cat = await created(await client.post(`${api}/task-categories`, { name: 'Dev' }));
    const tag = await created(await client.post(`${api}/tags`, { name: 'urgent', color: '#ff0000' }));
    const dl = await created(await client.post(`${api}/deadlines`, { title: 'Launch', dueDate: '2030-01-01T00:00:00Z', projectId: p.id }));
    const t1 = await task(client, p.id, {
      title: ' Write copy ',
      description: 'home page',
      expectedWorkAmount: 3,
      dueDate: '2030-01-01T12:00:00Z',
      deadlineId: dl.id,
      categoryIds: [cat.id],
      tagIds: [tag.id, tag.id],
    });
    const cols = (await board(client, p.id)).columns;
    expect(t1).toMatchObject({
      title: 'Write copy',
      status: 'todo',
      order: 0,
      columnId: cols[0].id,
      expectedWorkAmount: 3,
      dueDate: '2030-01-01T12:00:00.000Z',
      deadlineId: dl.id,
      categoryIds: [cat.id],
      tagIds: [tag.id],
    });
    const t2 = await task(client, p.id, { title: 'Two' });
    const t3 = await task(client, p.id, { title: 'Three' });
    expect([t2.order, t3.order]).toEqual([1, 2]);
    expect(t2).toMatchObject({ categoryIds: [], tagIds: [], deadlineId: null, description: null });

    const patched = await client.patch(`${api}/projects/${p.id}/tasks/${t1.id}`, { deadlineId: null, tagIds: null, expectedWorkAmount: null, title: 'Copy' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Copy', deadlineId: null, tagIds: [], expectedWorkAmount: null, categoryIds: [cat.id], status: 'todo' });
    expectValidation(await client.patch(`${api}/projects/${p.id}/tasks/${t1.id}`, { title: null }), 'title');

    await client.delete(`${api}/task-categories/${cat.id}`);
    expect((await client.get(`${api}/projects/${p.id}/tasks/${t1.id}`)).body.data.categoryIds).toEqual([]);

    const gone = await client.delete(`${api}/projects/${p.id}/tasks/${t1.id}`);
    expect(gone.body.data).toEqual({ id: t1.id, message: 'Project task deleted' });
    expectNotFound(await client.get(`${api}/projects/${p.id}/tasks/${t1.id}`));
    const b = await board(client, p.id);
    expect(b.columns[0].tasks.map((t: any) => [t.title, t.order])).toEqual([['Two', 0], ['Three', 1]]);
  });

  it('moves within and across columns; status follows the column; orders stay dense', async () => {
    const p = await project(alice);
    const [todo, doing, done] = (await board(alice, p.id)).columns;
    const ts: any[] = [];
    for (const title of ['a', 'b', 'c', 'd']) ts.push(await task(alice, p.id, { title }));
    const moved = await move(alice, p.id, ts[0].id, doing.id, 0);
    expect(moved).toMatchObject({ columnId: doing.id, order: 0, status: 'doing' });
    expect((await move(alice, p.id, ts[1].id, done.id, 99))).toMatchObject({ order: 0, status: 'done' });
    await move(alice, p.id, ts[3].id, todo.id, 0);
    let b = await board(alice, p.id);
    expectDense(b);
    expect(b.columns.map(titles)).toEqual([['d', 'c'], ['a'], ['b']]);
    await move(alice, p.id, ts[2].id, doing.id, 1);
    await move(alice, p.id, ts[1].id, doing.id, 0);
    b = await board(alice, p.id);
    expectDense(b);
    expect(b.columns.map(titles)).toEqual([['d'], ['b', 'a', 'c'], []]);
    expect((await alice.get(`${api}/projects/${p.id}/tasks/${ts[1].id}`)).body.data.status).toBe('doing');
    const back = await move(alice, p.id, ts[1].id, todo.id, 5);
    expect(back).toMatchObject({ status: 'todo', order: 1 });

    expectValidation(await alice.post(`${api}/projects/${p.id}/tasks/${ts[0].id}/move`, { columnId: todo.id, order: -1 }), 'order');
    expectValidation(await alice.post(`${api}/projects/${p.id}/tasks/${ts[0].id}/move`, { columnId: todo.id, order: '1' }), 'order');
    expectValidation(await alice.post(`${api}/projects/${p.id}/tasks/${ts[0].id}/move`, { columnId: 'x', order: 0 }), 'columnId');
    expectNotFound(await alice.post(`${api}/projects/${p.id}/tasks/${ts[0].id}/move`, { columnId: MISSING_ID, order: 0 }), 'columnId');
    const other = await project(alice);
    const otherColumn = (await board(alice, other.id)).columns[0];
    expectNotFound(await alice.post(`${api}/projects/${p.id}/tasks/${ts[0].id}/move`, { columnId: otherColumn.id, order: 0 }), 'columnId');
  });

  it('keeps the first column dense under concurrent creates and deletes', async () => {
    const p = await project(alice);
    const first = await Promise.all(Array.from({ length: 8 }, (_, i) => alice.post(`${api}/projects/${p.id}/tasks`, { title: `n${i}` })));
    for (const res of first) expect(res.status, res.text).toBe(201);
    const mixed = await Promise.all([
      ...first.slice(0, 4).map((res) => alice.delete(`${api}/projects/${p.id}/tasks/${res.body.data.id}`)),
      ...Array.from({ length: 4 }, (_, i) => alice.post(`${api}/projects/${p.id}/tasks`, { title: `m${i}` })),
    ]);
    for (const res of mixed) expect(res.status, res.text).toBeLessThan(300);
    const b = await board(alice, p.id);
    expectDense(b);
    expect(b.columns[0].tasks).toHaveLength(8);
  });

  it('keeps every column dense under 20 concurrent moves', async () => {
    const p = await project(alice);
    const columns = (await board(alice, p.id)).columns;
    const ts: any[] = [];
    for (let i = 0; i < 10; i++) ts.push(await task(alice, p.id, { title: `t${i}` }));
    const moves = Array.from({ length: 20 }, (_, i) =>
      alice.post(`${api}/projects/${p.id}/tasks/${ts[i % ts.length].id}/move`, { columnId: columns[(i * 7) % 3].id, order: (i * 3) % 5 }),
    );
    const answers = await Promise.all(moves);
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const b = await board(alice, p.id);
    expectDense(b);
    expect(b.columns.flatMap((c: any) => c.tasks).length).toBe(10);
    for (const [i, column] of b.columns.entries()) {
      for (const t of column.tasks) expect(t.status).toBe(i === 0 ? 'todo' : i === 2 ? 'done' : 'doing');
    }
    const rows = await dbRows(app, 'select column_id, array_agg(position order by position) as orders from project_tasks where project_id = ? group by column_id', [p.id]);
    for (const row of rows) expect(row.orders).toEqual(row.orders.map((_: number, i: number) => i));
  });

  it('filters by status, categoryId, tagId, deadlineId and search', async () => {
    const { client } = await signUp(app.url);
    const p = await project(client);
    const [, doing] = (await board(client, p.id)).columns;
    const cat = await created(await client.post(`${api}/task-categories`, { name: 'Dev' }));
    const tag = await created(await client.post(`${api}/tags`, { name: 'blue' }));
    const dl = await created(await client.post(`${api}/deadlines`, { title: 'D', dueDate: '2030-01-01T00:00:00Z' }));
    const a = await task(client, p.id, { title: 'Alpha 50%', categoryIds: [cat.id] });
    await task(client, p.id, { title: 'Beta', description: 'about ALPHA', tagIds: [tag.id] });
    await task(client, p.id, { title: 'Gamma', deadlineId: dl.id });
    await move(client, p.id, a.id, doing.id, 0);
    const list = async (q: string) => {
      const res = await client.get(`${api}/projects/${p.id}/tasks${q}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((t: any) => t.title);
    };
    expect(await list('')).toEqual(['Alpha 50%', 'Beta', 'Gamma']);
    expect((await client.get(`${api}/projects/${p.id}/tasks`)).body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    expect(await list('?status=doing')).toEqual(['Alpha 50%']);
    expect(await list('?status=todo')).toEqual(['Beta', 'Gamma']);
    expect(await list(`?categoryId=${cat.id}`)).toEqual(['Alpha 50%']);
    expect(await list(`?tagId=${tag.id}`)).toEqual(['Beta']);
    expect(await list(`?deadlineId=${dl.id}`)).toEqual(['Gamma']);
    expect(await list('?search=alpha')).toEqual(['Alpha 50%', 'Beta']);
    expect(await list('?search=50%25')).toEqual(['Alpha 50%']);
    expect(await list('?search=_')).toEqual([]);
    expectValidation(await client.get(`${api}/projects/${p.id}/tasks?status=waiting`), 'status');
    expectValidation(await client.get(`${api}/projects/${p.id}/tasks?tagId=nope`), 'tagId');
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { client } = await signUp(app.url);
    const p = await project(client);
    const bad = [
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: 'x', expectedWorkAmount: 1.5 }, 'expectedWorkAmount'],
      [{ title: 'x', expectedWorkAmount: '3' }, 'expectedWorkAmount'],
      [{ title: 'x', expectedWorkAmount: -1 }, 'expectedWorkAmount'],
      [{ title: 'x', dueDate: 'tomorrow' }, 'dueDate'],
      [{ title: 'x', categoryIds: 'abc' }, 'categoryIds'],
      [{ title: 'x', tagIds: ['nope'] }, 'tagIds'],
      [{ title: 'x', deadlineId: 'nope' }, 'deadlineId'],
    ] as const;
    for (const [body, field] of bad) expectValidation(await client.post(`${api}/projects/${p.id}/tasks`, body), field);
    expect((await client.get(`${api}/projects/${p.id}/tasks`)).body.data).toEqual([]);
  });
});

describe('deadlines', () => {
  it('CRUD with project, priority, status; filters projectId, status, priority, upcoming', async () => {
    const { client } = await signUp(app.url);
    const p = await project(client);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const a = await created(await client.post(`${api}/deadlines`, { title: 'Ship', dueDate: future, projectId: p.id, priority: 'high' }));
    expect(a).toMatchObject({ title: 'Ship', projectId: p.id, priority: 'high', status: 'pending', description: null, dueDate: future });
    const b = await created(await client.post(`${api}/deadlines`, { title: 'Old', dueDate: past }));
    expect(b).toMatchObject({ projectId: null, priority: 'medium', status: 'pending' });
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const c = await created(await client.post(`${api}/deadlines`, { title: 'Finished', dueDate: later, status: 'done' }));
    const list = async (q: string) => (await client.get(`${api}/deadlines${q}`)).body.data.map((d: any) => d.title);
    expect(await list('')).toEqual(['Old', 'Ship', 'Finished']);
    expect(await list('?upcoming=true')).toEqual(['Ship']);
    expect(await list('?upcoming=false')).toEqual(['Old', 'Finished']);
    expect(await list(`?projectId=${p.id}`)).toEqual(['Ship']);
    expect(await list('?priority=high')).toEqual(['Ship']);
    expect(await list('?status=done')).toEqual(['Finished']);
    expectValidation(await client.get(`${api}/deadlines?upcoming=maybe`), 'upcoming');
    expectValidation(await client.get(`${api}/deadlines?priority=huge`), 'priority');

    expect((await client.get(`${api}/deadlines/${a.id}`)).body.data.title).toBe('Ship');
    const patched = await client.patch(`${api}/deadlines/${a.id}`, { status: 'done', projectId: null, description: 'x' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'done', projectId: null, description: 'x' });
    expectValidation(await client.patch(`${api}/deadlines/${a.id}`, { dueDate: null }), 'dueDate');
    expectValidation(await client.patch(`${api}/deadlines/${a.id}`, { status: 'late' }), 'status');
    expect(await list('?upcoming=true')).toEqual([]);

    const t = await task(client, p.id, { deadlineId: c.id });
    const gone = await client.delete(`${api}/deadlines/${c.id}`);
    expect(gone.body.data).toEqual({ id: c.id, message: 'Deadline deleted' });
    expectNotFound(await client.get(`${api}/deadlines/${c.id}`));
    expect((await client.get(`${api}/projects/${p.id}/tasks/${t.id}`)).body.data.deadlineId).toBeNull();
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post(`${api}/deadlines`, { title: 'x' }), 'dueDate');
    expectValidation(await client.post(`${api}/deadlines`, { dueDate: '2030-01-01T00:00:00Z' }), 'title');
    expectValidation(await client.post(`${api}/deadlines`, { title: 'x', dueDate: '2030-13-01' }), 'dueDate');
    expectValidation(await client.post(`${api}/deadlines`, { title: 'x', dueDate: '2030-01-01T00:00:00Z', priority: 'huge' }), 'priority');
    expectValidation(await client.post(`${api}/deadlines`, { title: 'x', dueDate: '2030-01-01T00:00:00Z', projectId: 'p1' }), 'projectId');
    expect((await client.get(`${api}/deadlines`)).body.data).toEqual([]);
  });
});

describe('tags', () => {
  it('creates, lists, gets, patches and deletes; a deleted tag leaves the tasks', async () => {
    const { client } = await signUp(app.url);
    const tag = await created(await client.post(`${api}/tags`, { name: ' red ', color: '#FF0000' }));
    expect(tag).toMatchObject({ name: 'red', color: '#FF0000' });
    const list = await client.get(`${api}/tags`);
    expect(list.body.data.map((t: any) => t.name)).toEqual(['red']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 1 });
    expect((await client.patch(`${api}/tags/${tag.id}`, { color: null })).body.data).toMatchObject({ name: 'red', color: null });
    expectValidation(await client.post(`${api}/tags`, { name: 'x', color: 'red' }), 'color');
    expectValidation(await client.post(`${api}/tags`, { name: '' }), 'name');
    const p = await project(client);
    const t = await task(client, p.id, { tagIds: [tag.id] });
    const gone = await client.delete(`${api}/tags/${tag.id}`);
    expect(gone.body.data).toEqual({ id: tag.id, message: 'Tag deleted' });
    expectNotFound(await client.get(`${api}/tags/${tag.id}`));
    expect((await client.get(`${api}/projects/${p.id}/tasks/${t.id}`)).body.data.tagIds).toEqual([]);
  });
});

describe('isolation', () => {
  it("answers 404 for another user's project, board, column, task, deadline and tag, and names the field for ids in a body", async () => {
    const p = await project(alice);
    const [todo] = (await board(alice, p.id)).columns;
    const t = await task(alice, p.id);
    const dl = await created(await alice.post(`${api}/deadlines`, { title: 'A', dueDate: '2030-01-01T00:00:00Z' }));
    const tag = await created(await alice.post(`${api}/tags`, { name: 'a' }));
    const cat = await created(await alice.post(`${api}/task-categories`, { name: 'a' }));

    expectNotFound(await bob.get(`${api}/projects/${p.id}`));
    expectNotFound(await bob.patch(`${api}/projects/${p.id}`, { title: 'x' }));
    expectNotFound(await bob.delete(`${api}/projects/${p.id}`));
    expectNotFound(await bob.get(`${api}/projects/${p.id}/board`));
    expectNotFound(await bob.patch(`${api}/projects/${p.id}/board`, { columns: [{ name: 'x' }] }));
    expectNotFound(await bob.get(`${api}/projects/${p.id}/tasks`));
    expectNotFound(await bob.post(`${api}/projects/${p.id}/tasks`, { title: 'x' }));
    expectNotFound(await bob.get(`${api}/projects/${p.id}/tasks/${t.id}`));
    expectNotFound(await bob.patch(`${api}/projects/${p.id}/tasks/${t.id}`, { title: 'x' }));
    expectNotFound(await bob.delete(`${api}/projects/${p.id}/tasks/${t.id}`));
    expectNotFound(await bob.post(`${api}/projects/${p.id}/tasks/${t.id}/move`, { columnId: todo.id, order: 0 }));
    expectNotFound(await bob.get(`${api}/deadlines/${dl.id}`));
    expectNotFound(await bob.patch(`${api}/deadlines/${dl.id}`, { title: 'x' }));
    expectNotFound(await bob.delete(`${api}/deadlines/${dl.id}`));
    expectNotFound(await bob.get(`${api}/tags/${tag.id}`));
    expectNotFound(await bob.delete(`${api}/tags/${tag.id}`));
    expect((await bob.get(`${api}/projects`)).body.data).toEqual([]);
    expectNotFound(await bob.get(`${api}/deadlines?projectId=${p.id}`), 'projectId');

    const own = await project(bob);
    const ownColumns = (await board(bob, own.id)).columns;
    const ownTask = await task(bob, own.id);
    expectNotFound(await bob.post(`${api}/projects/${own.id}/tasks`, { title: 'x', deadlineId: dl.id }), 'deadlineId');
    expectNotFound(await bob.post(`${api}/projects/${own.id}/tasks`, { title: 'x', categoryIds: [cat.id] }), 'categoryIds');
    expectNotFound(await bob.post(`${api}/projects/${own.id}/tasks`, { title: 'x', tagIds: [tag.id] }), 'tagIds');
    expectNotFound(await bob.patch(`${api}/projects/${own.id}/tasks/${ownTask.id}`, { tagIds: [tag.id] }), 'tagIds');
    expectNotFound(await bob.post(`${api}/projects/${own.id}/tasks/${ownTask.id}/move`, { columnId: todo.id, order: 0 }), 'columnId');
    expectNotFound(await bob.patch(`${api}/projects/${own.id}/board`, { columns: [{ id: todo.id, name: 'x' }, ...ownColumns.map((c: any) => ({ id: c.id, name: c.name }))] }), 'columns');
    expectNotFound(await bob.post(`${api}/deadlines`, { title: 'x', dueDate: '2030-01-01T00:00:00Z', projectId: p.id }), 'projectId');
    expectNotFound(await bob.get(`${api}/projects/${own.id}/tasks?deadlineId=${dl.id}`), 'deadlineId');
    expectNotFound(await bob.get(`${api}/projects/${own.id}/tasks?categoryId=${cat.id}`), 'categoryId');
    expectNotFound(await bob.get(`${api}/projects/${own.id}/tasks?tagId=${tag.id}`), 'tagId');
    expectNotFound(await bob.get(`${api}/projects/${p.id}/tasks/${ownTask.id}`));
    expectNotFound(await bob.get(`${api}/projects/${own.id}/tasks/${t.id}`));
    expect((await bob.get(`${api}/projects/${own.id}/tasks`)).body.data.map((x: any) => x.id)).toEqual([ownTask.id]);
    // nothing of alice's changed
    expect((await board(alice, p.id)).columns.map((c: any) => c.name)).toEqual(['To do', 'In progress', 'Done']);
  });

  it('records no events for project writes (the spec names none)', async () => {
    const { client, id } = await signUp(app.url);
    const p = await project(client);
    await task(client, p.id);
    expect(await outboxEvents(app, id)).toEqual([]);
  });
});
