import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/http-client.js';

// PostgreSQL cannot store U+0000; any text field carrying it must be a 400, never a 500.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
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
