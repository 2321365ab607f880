import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { setPlan } from '../../test/support/db.js';
import { tokenFromMail } from '../../test/support/mailbox.js';
import { connectWithOAuth, rawMcp, startConnectorApp, TestOAuthClient } from '../connector/connector.test-helpers.js';

/**
 * What a password reset or change ends beside sessions: a reset every connector grant; a change,
 * when asked, the connector grants and the Public API keys. Real OAuth grants, real keys.
 */
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
});
afterAll(async () => {
  await app?.close();
});

const NEW_PASSWORD = 'a completely new password';

/** A pro user with a connected assistant (its access token) and a Public API key. */
async function credentials() {
  const user = await signUp(base);
  await setPlan(app.databaseUrl, user.id, 'pro');
  const provider = new TestOAuthClient(user.client.cookie!);
  const mcp = await connectWithOAuth(`${base}/mcp`, provider);
  await mcp.close();
  const key = await user.client.post('/api/v1/api-keys', { name: 'Phone' });
  expect(key.status, key.text).toBe(201);
  const apiKey: string = key.body.data.key;
  return {
    ...user,
    grantWorks: async () => (await rawMcp(`${base}/mcp`, provider.saved!.access_token)).status !== 401,
    keyWorks: async () => (await new HttpClient(base).post('/api/public/v1/water', { volume: 250 }, { headers: { authorization: `Bearer ${apiKey}` } })).status !== 401,
    connections: async () => (await user.client.get('/api/v1/connections')).body.data as unknown[],
  };
}

describe('credentials after a password reset or change', { timeout: 60_000 }, () => {
  it('a reset ends every connector grant (and every session); API keys stay', async () => {
    const u = await credentials();
    expect(await u.grantWorks()).toBe(true);
    expect(await u.keyWorks()).toBe(true);
    expect(await new HttpClient(base).post('/api/v1/auth/request-password-reset', { email: u.email })).toMatchObject({ status: 200 });
    const token = await tokenFromMail(`${app.dataDir}/mail`, u.email, base, '/reset-password');
    const reset = await new HttpClient(base).post('/api/v1/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(reset.status, reset.text).toBe(200);
    expect(await u.grantWorks()).toBe(false);
    expect(await u.keyWorks()).toBe(true);
    expect((await u.client.get('/api/v1/auth/me')).status).toBe(401);
    const again = await new HttpClient(base).post('/api/v1/auth/login', { email: u.email, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
  });

  it('a change keeps grants and keys by default, and ends them when asked', async () => {
    const u = await credentials();
    const plain = await u.client.post('/api/v1/auth/change-password', { currentPassword: u.password, newPassword: NEW_PASSWORD });
    expect(plain.status, plain.text).toBe(200);
    expect(await u.grantWorks()).toBe(true);
    expect(await u.keyWorks()).toBe(true);

    const both = await u.client.post('/api/v1/auth/change-password', { currentPassword: NEW_PASSWORD, newPassword: 'third password here', endConnectorGrants: true, revokeApiKeys: true });
    expect(both.status, both.text).toBe(200);
    expect(await u.grantWorks()).toBe(false);
    expect(await u.keyWorks()).toBe(false);
    expect(await u.connections()).toEqual([]);
    expect((await u.client.get('/api/v1/auth/me')).status).toBe(200); // this session stays

    const v = await credentials();
    const grantsOnly = await v.client.graphql(
      'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n, endConnectorGrants: true) { message } }',
      { c: v.password, n: NEW_PASSWORD },
    );
    expect(grantsOnly.body.errors, grantsOnly.text).toBeUndefined();
    expect(await v.grantWorks()).toBe(false);
    expect(await v.keyWorks()).toBe(true);
    const bad = await v.client.post('/api/v1/auth/change-password', { currentPassword: NEW_PASSWORD, newPassword: 'fourth password', revokeApiKeys: 'yes' });
    expect(bad.status).toBe(400);
  });
});
