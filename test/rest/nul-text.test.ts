import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/http-client.js';
import { keyHolder } from '../../src/public-api/public-api.test-helpers.js';

// PostgreSQL cannot store U+0000; any text field carrying it must be a 400, never a 500.
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

describe('text with a NUL character', () => {
  it('is refused with 400 VALIDATION_ERROR on a field without its own check (task title)', async () => {
    const { client } = await signUp(app.url);
    const res = await client.post('/api/v1/tasks', { title: 'a\u0000b', timebox: 30 });
    expect(res.status).toBe(400);
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toEqual(['title']);
    const list = await client.get('/api/v1/tasks');
    expect(list.body.data).toEqual([]);
  });

  it('is refused the same way through GraphQL', async () => {
    const { client } = await signUp(app.url);
    const res = await client.graphql('mutation ($t: String!) { createTaskCategory(name: $t) { id } }', { t: 'x\u0000' });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors?.[0]?.extensions?.details.errors[0].path).toEqual(['name']);
  });
});

// A lone UTF-16 surrogate is valid in a JS string (JSON "\ud800") but not in UTF-8 or jsonb: the
// outbox's event payload refused it and the write answered 500.
describe('text with a lone surrogate', () => {
  const LONE = 'a\ud800b';

  it('is refused with 400 VALIDATION_ERROR on the session REST surface (task title), nothing stored', async () => {
    const { client } = await signUp(app.url);
    const res = await client.post('/api/v1/tasks', undefined, { rawBody: '{"title":"a\\ud800b","timebox":30}' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toEqual(['title']);
    expect((await client.get('/api/v1/tasks')).body.data).toEqual([]);
    // A low surrogate alone, on an update, through the deprecated /api/... paths too.
    const task = await client.post('/api/v1/tasks', { title: 'fine 😀', timebox: 30 });
    expect(task.status).toBe(201);
    const update = await client.patch(`/api/tasks/${task.body.data.id}`, undefined, { rawBody: '{"title":"\\udc00"}' });
    expect(update.status).toBe(400);
    expect(update.body.error.details.errors[0].path).toEqual(['title']);
    expect((await client.get(`/api/v1/tasks/${task.body.data.id}`)).body.data.title).toBe('fine 😀');
  });

  it('is refused the same way through GraphQL (variables)', async () => {
    const { client } = await signUp(app.url);
    const res = await client.graphql('mutation ($t: String!) { createTask(title: $t, timebox: 30) { id } }', { t: LONE });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors?.[0]?.extensions?.details.errors[0].path).toEqual(['title']);
    const category = await client.graphql('mutation ($t: String!) { createTaskCategory(name: $t) { id } }', { t: LONE });
    expect(category.body.errors?.[0]?.extensions?.details.errors[0].path).toEqual(['name']);
    // JSON.stringify escapes the lone surrogate, so the body really carries "\ud800".
    expect(JSON.stringify({ t: LONE })).toContain('\\ud800');
  });

  it('is refused on the Public API (mood notes)', async () => {
    const { api } = await keyHolder(app);
    const res = await api.post('/mood', undefined, { rawBody: '{"mood":5,"energy":5,"notes":"x\\ud800"}' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toEqual(['notes']);
  });
});
