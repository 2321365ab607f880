import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, outboxEvents, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { sql } from '../../test/support/db.js';
import { createHabit, xpOf } from '../habits/habits.test-helpers.js';
import { UndoService, UNDO_TTL_MS } from './undo.service.js';

/** Undo (docs/undo.md): each registered write kind round-trips with its side effects; single use, expiry, conflicts, isolation. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let monday: string;
let tuesday: string;

async function ok(res: Promise<{ status: number; text: string; body: any; headers: Headers }>): Promise<{ data: any; token: string | null }> {
  const answer = await res;
  expect(answer.status, answer.text).toBeLessThan(300);
  return { data: answer.body.data, token: answer.headers.get('undo-token') };
}

async function undo(client: HttpClient, token: string | null): Promise<{ status: number; body: any; text: string }> {
  expect(token).toMatch(UNDO_TOKEN_SHAPE); // a signed token (docs/undo.md)
  return client.post('/api/v1/undo', { token });
}

const undoneEvents = async () => (await outboxEvents(app, aliceId, 'write_undone')).map((e) => e.data);

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  [monday, tuesday] = await weekDayIds(alice, '2026-11-16');
});

describe('undo', () => {
  it('undoes a completion (XP back, task_reopened), a move, a checklist toggle and a delete, each once, with a write_undone event', async () => {
    const { data: task, token: createToken } = await ok(alice.post('/api/v1/tasks', { title: 'Call mum', timebox: 15, dayId: monday }));
    expect(createToken).toMatch(UNDO_TOKEN_SHAPE); // a create is undoable too (undo-records.test.ts)
    const xp = await xpOf(alice);

    const done = await ok(alice.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
    expect(done.data).not.toHaveProperty('undoToken'); // the spec's body is unchanged: the token is a header
    expect(await xpOf(alice)).toBeGreaterThan(xp);
    const undone = await undo(alice, done.token);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.data).toEqual({ kind: 'task_update', recordId: task.id });
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data).toMatchObject({ status: 'todo', completedAt: null });
    expect(await xpOf(alice)).toBe(xp);
    expectNotFound(await undo(alice, done.token)); // single use

    const moved = await ok(alice.patch(`/api/v1/tasks/${task.id}`, { dayId: tuesday, startTime: '10:00' }));
    expect((await undo(alice, moved.token)).status).toBe(200);
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data).toMatchObject({ dayId: monday, startTime: null });

    const ticked = await ok(alice.post(`/api/v1/checklist/${monday}/toggle/MEDITATION`, { value: 20 }));
    expect(ticked.data.completed).toBe(true);
    const unticked = await ok(alice.post(`/api/v1/checklist/${monday}/toggle/MEDITATION`, {}));
    expect((await undo(alice, unticked.token)).status).toBe(200); // ticked again, with its value
    const items = (await ok(alice.get(`/api/v1/checklist/${monday}`))).data as any[];
    expect(items.find((i) => i.key === 'MEDITATION')).toMatchObject({ completed: true, value: 20 });
    expect((await undo(alice, ticked.token)).status).toBe(409); // the item changed since that toggle (by the undo)

    const removed = await ok(alice.delete(`/api/v1/tasks/${task.id}`));
    expectNotFound(await alice.get(`/api/v1/tasks/${task.id}`));
    expect((await undo(alice, removed.token)).status).toBe(200);
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data).toMatchObject({ title: 'Call mum', dayId: monday });
    expect((await ok(alice.get('/api/v1/trash'))).data).toEqual([]);

    expect(await undoneEvents()).toEqual([
      { kind: 'task_update', recordId: task.id, undoneAt: expect.any(String) },
      { kind: 'task_update', recordId: task.id, undoneAt: expect.any(String) },
      { kind: 'checklist_toggle', recordId: expect.any(String), undoneAt: expect.any(String) },
      { kind: 'task_delete', recordId: task.id, undoneAt: expect.any(String) },
    ]);
  });

  it('refuses a changed record (409 UNDO_CONFLICT) and an expired token (410 UNDO_EXPIRED, by the clock passed in); GraphQL answers extensions.undoToken', async () => {
    const { data: task } = await ok(alice.post('/api/v1/tasks', { title: 'Water plants', timebox: 5, dayId: monday }));
    const done = await ok(alice.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
    await ok(alice.patch(`/api/v1/tasks/${task.id}`, { title: 'Water the plants' }));
    const conflict = await undo(alice, done.token);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body.error.code).toBe('UNDO_CONFLICT');

    const gql = await alice.post('/graphql', { query: `mutation { updateTask(taskId: "${task.id}", status: todo) { status } }` });
    const token = gql.body.extensions?.undoToken as string;
    expect(token, gql.text).toMatch(UNDO_TOKEN_SHAPE);
    const service = new UndoService(app.server.orm.em.fork(), app.server.deps);
    await expect(service.undo(aliceId, token, new Date(Date.now() + UNDO_TTL_MS + 1000))).rejects.toMatchObject({ code: 'UNDO_EXPIRED', status: 410 });
    const viaGraphQL = await alice.post('/graphql', { query: `mutation { undo(token: "${token}") { kind recordId } }` });
    expect(viaGraphQL.body.data?.undo, viaGraphQL.text).toEqual({ kind: 'task_update', recordId: task.id });
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data.status).toBe('done');

    // A used token's row (its single use) is freed by the hourly sweep once the token has expired.
    const usedRows = async () => (await sql(app.databaseUrl, 'select count(*)::int as n from undo_tokens where user_id = $1', [aliceId]))[0].n as number;
    const rowsBefore = await usedRows();
    expect(rowsBefore).toBeGreaterThanOrEqual(1);
    expect(await service.sweep(new Date(Date.now() + UNDO_TTL_MS + 1000))).toBeGreaterThanOrEqual(rowsBefore);
    expect(await usedRows()).toBe(0);
  });

  it('undoes the delete of each trash kind registered (a habit here) by its restore', async () => {
    const habit = await createHabit(alice, { name: 'Stretch' });
    const removed = await ok(alice.delete(`/api/v1/habits/${habit.id}`));
    expectNotFound(await alice.get(`/api/v1/habits/${habit.id}`));
    const undone = await undo(alice, removed.token);
    expect(undone.body.data, undone.text).toEqual({ kind: 'habit_delete', recordId: habit.id });
    expect((await ok(alice.get(`/api/v1/habits/${habit.id}`))).data).toMatchObject({ id: habit.id, name: 'Stretch' });
  });

  it('a token is used once even by concurrent undos; an offer too big to carry is kept in a row and undoes the same', async () => {
    const { data: task } = await ok(alice.post('/api/v1/tasks', { title: 'Stretch', timebox: 5, dayId: monday }));
    const done = await ok(alice.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
    const answers = await Promise.all(Array.from({ length: 5 }, () => alice.post('/api/v1/undo', { token: done.token })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data.status).toBe('todo');

    // The same inverse with a previous nextStep longer than a token carries (MAX_CARRIED_DATA_BYTES).
    const service = new UndoService(app.server.orm.em.fork(), app.server.deps);
    const { version } = (await ok(alice.get(`/api/v1/tasks/${task.id}`))).data;
    const longStep = 'a long next step '.repeat(130);
    const token = await service.offer(aliceId, 'task_update', { recordId: task.id, data: { values: { nextStep: longStep }, dates: [], stamp: { version }, kept: {} } });
    expect(token.length).toBeLessThan(400);
    const undone = await alice.post('/api/v1/undo', { token });
    expect(undone.status, undone.text).toBe(200);
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data.nextStep).toBe(longStep);
    expectNotFound(await alice.post('/api/v1/undo', { token }));
  });

  it("another person's token answers 404 like a missing one, and undoes nothing", async () => {
    const { data: task } = await ok(alice.post('/api/v1/tasks', { title: 'Private', timebox: 5, dayId: monday }));
    const done = await ok(alice.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
    expectNotFound(await undo(bob, done.token));
    // A made-up token, and a real one altered (its record swapped for another): not this service's signature.
    expectNotFound(await alice.post('/api/v1/undo', { token: '00000000-0000-4000-8000-000000000000' }));
    const [body, signature] = done.token!.split('.');
    const altered = Buffer.from(Buffer.from(body, 'base64url').toString().replace(task.id, '00000000-0000-4000-8000-000000000000')).toString('base64url');
    expectNotFound(await alice.post('/api/v1/undo', { token: `${altered}.${signature}` }));
    expect((await ok(alice.get(`/api/v1/tasks/${task.id}`))).data.status).toBe('done');
  });
});
