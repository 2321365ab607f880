import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { REDIRECT_URI, startConnectorApp, TestOAuthClient, connectWithOAuth } from './connector.test-helpers.js';
import { REGISTRATION_MAX_BYTES } from './oauth/client-registration.js';

/** Issue 23 items 9 and 11: what a self-registered client may say about itself, and where its errors go. */
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
});
afterAll(async () => {
  await app?.close();
});

async function register(metadata: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Some Client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: res.status, body: await res.json() };
}

const challenge = () => createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');

describe('client registration', () => {
  it('takes https and loopback http redirect URIs and a private-use reverse-domain scheme', async () => {
    for (const uri of ['https://assistant.example/cb', 'http://127.0.0.1:33418/callback', 'http://localhost/cb', 'http://[::1]:8080/cb', 'com.example.assistant:/oauth/callback']) {
      expect((await register({ redirect_uris: [uri] })).status, uri).toBe(201);
    }
  });

  it('refuses redirect URIs that make an open redirect or reach outside the client (RFC 9700, RFC 8252)', async () => {
    for (const uri of ['http://evil.example/cb', 'file:///etc/passwd', 'https://*.evil.example/cb', 'https://user:pw@assistant.example/cb', 'https://assistant.example/cb#frag', 'javascript:alert(1)', 'data:text/html,x', 'myapp:/cb', 'not a url']) {
      const res = await register({ redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body.error, uri).toBe('invalid_redirect_uri');
    }
    expect((await register({ redirect_uris: Array.from({ length: 6 }, (_, i) => `https://a.example/${i}`) })).body.error).toBe('invalid_redirect_uri');
  });

  it('refuses invented auth methods, oversized metadata and text PostgreSQL cannot store, naming the field', async () => {
    expect(await register({ token_endpoint_auth_method: 'magic_link' })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata', error_description: expect.stringContaining('token_endpoint_auth_method') } });
    const big = await register({ client_name: 'x'.repeat(REGISTRATION_MAX_BYTES) });
    expect(big).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    const huge = await register({ contacts: Array.from({ length: 3000 }, (_, i) => `c${i}@x.example`) });
    expect(huge).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata', error_description: expect.stringContaining(`${REGISTRATION_MAX_BYTES} bytes`) } });
    expect(await register({ client_name: 'bad\u0000name' })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata', error_description: expect.stringContaining('client_name') } });
    expect(await register({ client_name: 'bad\ud800name' })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata', error_description: expect.stringContaining('client_name') } });
    const [{ n }] = await sql(app.databaseUrl, "select count(*)::int as n from oauth_clients where metadata::text like '%magic_link%' or client_name like 'bad%'");
    expect(n).toBe(0);
  });

  it('shows the errors of a client nobody approved on its own page, never redirecting to the client', async () => {
    const client = await register({ redirect_uris: ['https://evil.example/cb'] });
    const params = new URLSearchParams({ response_type: 'token', client_id: client.body.client_id, redirect_uri: 'https://evil.example/cb', code_challenge: challenge(), code_challenge_method: 'S256', state: 's' });
    const res = await fetch(`${base}/authorize?${params}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('response_type must be code');
    const noPkce = new URLSearchParams({ response_type: 'code', client_id: client.body.client_id, redirect_uri: 'https://evil.example/cb' });
    expect((await fetch(`${base}/authorize?${noPkce}`, { redirect: 'manual' })).status).toBe(400);
  });

  it('still tells a client the person approved of its own errors by redirect (RFC 6749 §4.1.2.1)', async () => {
    const user = await signUp(base);
    await setPlan(app.databaseUrl, user.id, 'pro');
    const provider = new TestOAuthClient(user.client.cookie!);
    const mcp = await connectWithOAuth(`${base}/mcp`, provider);
    await mcp.close();
    const params = new URLSearchParams({ response_type: 'token', client_id: provider.info!.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge(), code_challenge_method: 'S256', state: 's' });
    const res = await fetch(`${base}/authorize?${params}`, { redirect: 'manual', headers: { cookie: user.client.cookie! } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:7777\/callback\?error=invalid_request/);
  });

  it('removes a client nobody approved a day after it registered (at the next registration)', async () => {
    const stale = await register({ client_name: 'Stale' });
    await sql(app.databaseUrl, "update oauth_clients set created_at = now() - interval '25 hours' where id = $1", [stale.body.client_id]);
    expect((await register({ client_name: 'Fresh' })).status).toBe(201);
    const rows = await sql(app.databaseUrl, 'select id from oauth_clients where id = $1', [stale.body.client_id]);
    expect(rows).toEqual([]);
  });
});
