import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('smoke', () => {
  it('registers and reads me', async () => {
    const { client, email } = await signUp(app.url);
    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ ok: true, data: { email } });
    expect(me.headers.get('api-version')).toBe('v1');
    const gql = await client.graphql('{ me { id email } }');
    expect(gql.body.data.me.email).toBe(email);
  });
});
