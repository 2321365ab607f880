import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import type { HttpClient } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** The trash through the assistant connector (the real OAuth-connected SDK client): list, restore, delete for good, each within the grant. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;
let bob: Awaited<ReturnType<typeof connectedUser>>;
/** Granted planning only: people's entries are not hers to see or restore. */
let carol: Awaited<ReturnType<typeof connectedUser>>;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob, carol] = await Promise.all([connectedUser(app), connectedUser(app), connectedUser(app, { areas: ['planning'], access: 'write' })]);
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close(), carol?.client.close()]);
  await app?.close();
});

async function ok(request: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const res = await request;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body.data;
}

/** A task and a person, both deleted (in the trash). */
async function trashed(client: HttpClient): Promise<{ task: any; person: any }> {
  const task = await ok(client.post('/api/v1/tasks', { title: 'Gym', timebox: 30 }));
  const person = await ok(client.post('/api/v1/people', { name: 'Carla' }));
  await ok(client.delete(`/api/v1/tasks/${task.id}`));
  await ok(client.delete(`/api/v1/people/${person.id}`));
  return { task, person };
}

describe('trash tools', () => {
  it('trash_list shows the deleted records; trash_restore brings one back; trash_delete removes one for good; another person\'s entry is not found', async () => {
    const { task, person } = await trashed(alice.user.client);
    const listed = await callOk(alice.client, 'trash_list', {});
    expect(listed.meta.total).toBe(2);
    expect(listed.entries.map((e: any) => [e.kind, e.recordId, e.label]).sort()).toEqual([['person', person.id, 'Carla'], ['task', task.id, 'Gym']]);
    const taskEntry = listed.entries.find((e: any) => e.kind === 'task');
    const personEntry = listed.entries.find((e: any) => e.kind === 'person');

    // Another person's trash id answers exactly like a missing one, and writes nothing.
    for (const name of ['trash_restore', 'trash_delete']) {
      expect(await callError(bob.client, name, { trashId: taskEntry.id })).toMatchObject({ code: 'NOT_FOUND' });
      expect(await callError(bob.client, name, { trashId: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await callOk(bob.client, 'trash_list', {})).entries).toEqual([]);

    expect(await callOk(alice.client, 'trash_restore', { trashId: taskEntry.id })).toEqual({ kind: 'task', recordId: task.id });
    expect(await ok(alice.user.client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ id: task.id, title: 'Gym' });
    expect(await callOk(alice.client, 'trash_delete', { trashId: personEntry.id })).toMatchObject({ id: personEntry.id });
    expect((await callOk(alice.client, 'trash_list', {})).entries).toEqual([]);
    expect((await alice.user.client.get(`/api/v1/people/${person.id}`)).status).toBe(404);
  });

  it('keeps to the grant: a planning-only connection lists and restores tasks, never sees or restores a person', async () => {
    const { task, person } = await trashed(carol.user.client);
    const listed = await callOk(carol.client, 'trash_list', {});
    expect(listed.entries.map((e: any) => e.recordId)).toEqual([task.id]);
    expect(listed.meta.total).toBe(1);

    const personEntry = (await ok(carol.user.client.get('/api/v1/trash'))).find((e: any) => e.recordId === person.id);
    for (const name of ['trash_restore', 'trash_delete']) {
      expect(await callError(carol.client, name, { trashId: personEntry.id })).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'people:write' } });
    }
    expect((await ok(carol.user.client.get('/api/v1/trash'))).map((e: any) => e.recordId)).toContain(person.id);
    expect(await callOk(carol.client, 'trash_restore', { trashId: listed.entries[0].id })).toEqual({ kind: 'task', recordId: task.id });
  });
});

/** Undo through the connector (docs/undo.md): an undoable tool answers `undoToken`, the `undo` tool takes it back within the grant. */
describe('undo tool', () => {
  it('a write tool answers undoToken; undo reverts it once; another person\'s token is not found; a token of another area needs its scope', async () => {
    const toggled = await callOk(alice.client, 'checklist_toggle', { key: 'READING' });
    expect(toggled.completed).toBe(true);
    expect(toggled.undoToken).toMatch(UNDO_TOKEN_SHAPE);
    expect(await callError(bob.client, 'undo', { token: toggled.undoToken })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callOk(alice.client, 'undo', { token: toggled.undoToken })).toMatchObject({ kind: 'checklist_toggle' });
    const items = await ok(alice.user.client.get(`/api/v1/checklist/${toggled.dayId}`));
    expect(items.find((i: any) => i.key === 'READING')).toMatchObject({ completed: false });
    expect(await callError(alice.client, 'undo', { token: toggled.undoToken })).toMatchObject({ code: 'NOT_FOUND' }); // single use

    // A planning-only connection undoes its own task write, not a write of another area (a person's delete in the app).
    const task = await ok(carol.user.client.post('/api/v1/tasks', { title: 'Stretch', timebox: 10 }));
    const done = await callOk(carol.client, 'tasks_update_status', { taskId: task.id, status: 'done' });
    expect(await callOk(carol.client, 'undo', { token: done.undoToken })).toEqual({ kind: 'task_update', recordId: task.id });
    expect(await ok(carol.user.client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ status: 'todo' });
    const person = await ok(carol.user.client.post('/api/v1/people', { name: 'Dora' }));
    const token = (await carol.user.client.delete(`/api/v1/people/${person.id}`)).headers.get('undo-token');
    expect(await callError(carol.client, 'undo', { token })).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect((await carol.user.client.get(`/api/v1/people/${person.id}`)).status).toBe(404);
  });
});
