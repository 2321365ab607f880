import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { expectNotFound, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { expectUnauthorized, keyHolder, KeyClient } from './public-api.test-helpers.js';

/** Undo on the Public API (docs/undo.md): `POST /api/public/v1/undo` with the key owner's token; the same answers as the Session API's. */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

describe('POST /api/public/v1/undo', () => {
  it("reverts the key owner's write once; another key's owner gets 404, no key 401", async () => {
    const alice = await keyHolder(app);
    const bob = await keyHolder(app);
    const [monday] = await weekDayIds(alice.client, '2026-11-16');
    const task = (await alice.client.post('/api/v1/tasks', { title: 'Call mum', timebox: 15, dayId: monday })).body.data;
    const done = await alice.client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
    const token = done.headers.get('undo-token');
    expect(token).toMatch(UNDO_TOKEN_SHAPE);

    expectNotFound(await bob.api.post('/undo', { token })); // another person's token: as a missing one
    expectUnauthorized(await new KeyClient(app.url, '').post('/undo', { token }));
    expectNotFound(await alice.api.post('/undo', { token: 'not-a-token' })); // not signed here: as a missing one
    expect((await alice.api.post('/undo', { token: 42 })).status).toBe(400); // not a string: the body's types are checked

    const undone = await alice.api.post('/undo', { token });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toEqual({ ok: true, data: { kind: 'task_update', recordId: task.id } });
    expect((await alice.client.get(`/api/v1/tasks/${task.id}`)).body.data).toMatchObject({ status: 'todo', completedAt: null });
    expectNotFound(await alice.api.post('/undo', { token })); // single use

    // The record changed since the write: 409, as the Session API answers.
    const again = (await alice.client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' })).headers.get('undo-token');
    await alice.client.patch(`/api/v1/tasks/${task.id}`, { title: 'Call mum back' });
    const conflict = await alice.api.post('/undo', { token: again });
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body.error.code).toBe('UNDO_CONFLICT');
  });

  // The Public API's writes answer Undo-Token once their mutations are undo kinds (src/undo/kinds/).
  it('a Public API write answers Undo-Token, and its undo reverts it', async () => {
    const alice = await keyHolder(app);
    const logged = await alice.api.post('/water', { volume: 250 });
    expect(logged.status, logged.text).toBe(200);
    const token = logged.headers.get('undo-token');
    expect(token).toMatch(UNDO_TOKEN_SHAPE);
    expect((await alice.api.post('/undo', { token })).status).toBe(200);
    expectNotFound(await alice.api.post('/undo', { token }));
  });
});
