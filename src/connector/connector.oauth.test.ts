import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { hashSecret } from './oauth/oauth-secrets.js';
import { ALL_SCOPES } from './scopes/connector-scopes.js';
import { connectWithOAuth, decide, hiddenFields, rawMcp, REDIRECT_URI, startConnectorApp, TestOAuthClient, toolJson } from './connector.test-helpers.js';

type User = { client: HttpClient; id: string; email: string; password: string };

let app: TestApp;
let base: string;
let mcpUrl: string;
let pro: User;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
  mcpUrl = `${base}/mcp`;
  pro = await proUser();
});
afterAll(async () => {
  await app?.close();
});

async function proUser(): Promise<User> {
  const user = await signUp(base);
  await setPlan(app.databaseUrl, user.id, 'pro');
  return user;
}

async function register(metadata: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw Client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: res.status, body: await res.json() };
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', resource: mcpUrl, ...extra });
  return `${base}/authorize?${params}`;
}

async function token(form: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: await res.json() };
}

/** Registration, consent by `user`, code exchange: the token response. */
async function grant(user: User, clientMetadata: Record<string, unknown> = {}): Promise<{ clientId: string; clientSecret?: string; tokens: any }> {
  const client = await register(clientMetadata);
  const { verifier, challenge } = pkce();
  const back = await decide(authorizeUrl(client.body.client_id, challenge), user.client.cookie!);
  const form: Record<string, string> = { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, client_id: client.body.client_id, redirect_uri: REDIRECT_URI, resource: mcpUrl };
  if (client.body.client_secret) form.client_secret = client.body.client_secret;
  const res = await token(form);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { clientId: client.body.client_id, clientSecret: client.body.client_secret, tokens: res.body };
}

async function callTool(accessToken: string, name: string, args: Record<string, unknown>): Promise<any> {
  const res = await rawMcp(mcpUrl, accessToken, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
  expect(res.status).toBe(200);
  return (await res.json()).result;
}

describe('metadata documents', () => {
  it('authorization server metadata, at both paths, with BASE_URL as the issuer', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const doc = await res.json();
      expect(doc).toEqual({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        revocation_endpoint: `${base}/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_post'],
        scopes_supported: [...ALL_SCOPES],
      });
    }
  });

  it('protected resource metadata, bare and /mcp-suffixed, each naming the resource its URL was built from (RFC 9728 §3.3), and the issuer', async () => {
    for (const [path, resource] of [['/.well-known/oauth-protected-resource', base], ['/.well-known/oauth-protected-resource/mcp', mcpUrl]] as const) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({
        resource,
        authorization_servers: [base],
        bearer_methods_supported: ['header'],
        resource_name: 'Life planner assistant connector',
        scopes_supported: [...ALL_SCOPES],
      });
    }
  });

  it('/mcp without a valid token: 401 naming the resource metadata', async () => {
    for (const bearer of [undefined, 'lpat_nope']) {
      const res = await rawMcp(mcpUrl, bearer);
      expect(res.status).toBe(401);
      const header = res.headers.get('www-authenticate')!;
      expect(header).toMatch(/^Bearer error="invalid_token"/);
      expect(header).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    }
  });

  it('the home page links the connector surfaces', async () => {
    const res = await fetch(`${base}/`, { headers: { accept: 'application/json' } });
    const links = (await res.json()).data.links.map((l: { href: string }) => l.href);
    expect(links).toEqual(expect.arrayContaining(['/mcp', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource']));
  });
});

describe('authorization', () => {
  it('refuses a plain PKCE challenge (on our page: the person never approved this client, issue 23 item 9)', async () => {
    const client = await register();
    const res = await fetch(authorizeUrl(client.body.client_id, 'x'.repeat(43), { code_challenge_method: 'plain' }), { headers: { cookie: pro.client.cookie! }, redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('code_challenge_method must be S256');
  });

  it('refuses an unregistered redirect_uri without redirecting', async () => {
    const client = await register();
    const res = await fetch(authorizeUrl(client.body.client_id, pkce().challenge, { redirect_uri: 'https://evil.example/cb' }), { headers: { cookie: pro.client.cookie! }, redirect: 'manual' });
    expect(res.status).toBe(400);
  });

  it('refuses a resource other than /mcp', async () => {
    const client = await register();
    const res = await fetch(authorizeUrl(client.body.client_id, pkce().challenge, { resource: `${base}/graphql` }), { headers: { cookie: pro.client.cookie! }, redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain(`only for ${mcpUrl}`);
  });

  it('deny redirects with error=access_denied and the state', async () => {
    const client = await register();
    const back = await decide(authorizeUrl(client.body.client_id, pkce().challenge), pro.client.cookie!, 'deny');
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('the consent form without its CSRF token is refused', async () => {
    const client = await register();
    const url = authorizeUrl(client.body.client_id, pkce().challenge);
    const page = await fetch(url, { headers: { cookie: pro.client.cookie! } });
    const html = await page.text();
    expect(html).toContain('Raw Client');
    expect(html).toMatch(/name="decision" value="approve"/);
    expect(html).toMatch(/name="decision" value="deny"/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const { _csrf, ...fields } = hiddenFields(html);
    expect(_csrf).toBeTruthy();
    const res = await fetch(`${base}/authorize`, {
      method: 'POST',
      headers: { cookie: pro.client.cookie!, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });

  it('a visitor without a session gets the sign-in form; wrong credentials stay there; right ones return to consent', async () => {
    const client = await register();
    const url = authorizeUrl(client.body.client_id, pkce().challenge);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="password"');
    expect(html).not.toContain('name="decision"');
    const csrfCookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const post = (password: string) =>
      fetch(`${base}/authorize`, {
        method: 'POST',
        headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...hiddenFields(html), email: pro.email, password }).toString(),
        redirect: 'manual',
      });
    const wrong = await post('wrong password!');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('name="password"');
    const right = await post(pro.password);
    expect(right.status).toBe(303);
    const next = new URL(right.headers.get('location')!, base);
    expect(next.pathname).toBe('/authorize');
    expect(next.searchParams.get('client_id')).toBe(client.body.client_id);
    const session = right.headers.getSetCookie().find((c) => c.startsWith('lp_session='))!.split(';')[0]!;
    const back = await decide(next, session);
    expect(back.searchParams.get('code')).toMatch(/^lpac_/);
  });

  it('a user without a plan including the connector is refused at authorization', async () => {
    const free = await signUp(base);
    const client = await register();
    const res = await fetch(authorizeUrl(client.body.client_id, pkce().challenge), { headers: { cookie: free.client.cookie! }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toMatch(/plan/);
    expect(back.searchParams.get('state')).toBe('st');
  });
});

describe('the token endpoint', () => {
  it('refuses a redirect_uri other than the authorization request’s', async () => {
    const second = 'http://127.0.0.1:7777/other';
    const client = await register({ redirect_uris: [REDIRECT_URI, second] });
    const { verifier, challenge } = pkce();
    const back = await decide(authorizeUrl(client.body.client_id, challenge), pro.client.cookie!);
    const code = back.searchParams.get('code')!;
    const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.body.client_id, redirect_uri: second });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('an expired code, access token or refresh token is refused (access tokens last at most an hour)', async () => {
    const past = new Date(Date.now() - 1000);
    // A code past its 5 minutes.
    const client = await register();
    const { verifier, challenge } = pkce();
    const back = await decide(authorizeUrl(client.body.client_id, challenge), pro.client.cookie!);
    const code = back.searchParams.get('code')!;
    await sql(app.databaseUrl, 'update oauth_codes set expires_at = $1 where code_hash = $2', [past, hashSecret(code)]);
    const late = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.body.client_id, redirect_uri: REDIRECT_URI, resource: mcpUrl });
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');

    // An access token past its hour: /mcp answers 401; a refresh token past its life: invalid_grant.
    const { tokens, clientId } = await grant(pro);
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(200);
    await sql(app.databaseUrl, 'update oauth_tokens set expires_at = $1 where token_hash = $2', [past, hashSecret(tokens.access_token)]);
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(401);
    await sql(app.databaseUrl, 'update oauth_tokens set expires_at = $1 where token_hash = $2', [past, hashSecret(tokens.refresh_token)]);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
  });

  it('refuses a wrong verifier; a code works once, and its reuse revokes what it issued', async () => {
    const client = await register();
    const { verifier, challenge } = pkce();
    const back = await decide(authorizeUrl(client.body.client_id, challenge), pro.client.cookie!);
    const code = back.searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, client_id: client.body.client_id, redirect_uri: REDIRECT_URI };
    expect((await token({ ...form, code_verifier: pkce().verifier })).body.error).toBe('invalid_grant');
    const first = await token({ ...form, code_verifier: verifier });
    expect(first.status).toBe(200);
    expect((await rawMcp(mcpUrl, first.body.access_token)).status).toBe(200);
    const again = await token({ ...form, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await rawMcp(mcpUrl, first.body.access_token)).status).toBe(401);
  });

  it('another client cannot use a code or refresh token', async () => {
    const { tokens, clientId } = await grant(pro);
    const other = await register();
    const res = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: other.body.client_id });
    expect(res.body.error).toBe('invalid_grant');
    const own = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(own.status).toBe(200);
  });

  it('a confidential client: its secret is stored hashed and required at /token', async () => {
    const client = await register({ token_endpoint_auth_method: 'client_secret_post' });
    expect(client.status).toBe(201);
    const secret = client.body.client_secret as string;
    expect(secret).toBeTruthy();
    const [row] = await sql(app.databaseUrl, 'select client_secret_hash from oauth_clients where id = $1', [client.body.client_id]);
    expect(row!.client_secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(await sql(app.databaseUrl, 'select * from oauth_clients'))).not.toContain(secret);
    const { verifier, challenge } = pkce();
    const back = await decide(authorizeUrl(client.body.client_id, challenge), pro.client.cookie!);
    const form = { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, client_id: client.body.client_id };
    expect((await token({ ...form, client_secret: 'wrong' })).body.error).toBe('invalid_client');
    expect((await token({ ...form, client_secret: row!.client_secret_hash })).body.error).toBe('invalid_client');
    expect((await token({ ...form, client_secret: secret })).status).toBe(200);
  });

  it('/revoke ends a refresh token and its family', async () => {
    const { tokens, clientId } = await grant(pro);
    const res = await fetch(`${base}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }).toString() });
    expect(res.status).toBe(200);
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
  });
});

describe('connections, plan and isolation', () => {
  it('lists connections and revoking one stops its tokens at once; another user’s id is 404', async () => {
    const user = await proUser();
    const provider = new TestOAuthClient(user.client.cookie!, { client_name: 'Revocable' });
    const client = await connectWithOAuth(mcpUrl, provider);
    const list = await user.client.get('/api/v1/connections');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const connection = list.body.data[0];
    expect(connection).toMatchObject({ clientId: (provider.info as { client_id: string }).client_id, clientName: 'Revocable' });
    expect(Object.keys(connection).sort()).toEqual(['clientId', 'clientName', 'createdAt', 'id', 'lastUsedAt', 'scopes', 'updatedAt']);

    expect((await pro.client.delete(`/api/v1/connections/${connection.id}`)).status).toBe(404);
    expect((await user.client.delete(`/api/v1/connections/${MISSING_ID}`)).status).toBe(404);
    expect((await user.client.delete('/api/v1/connections/not-a-uuid')).status).toBe(400);
    expect((await user.client.withoutCookie().get('/api/v1/connections')).status).toBe(401);
    expect((await rawMcp(mcpUrl, provider.saved!.access_token)).status).toBe(200);

    const revoked = await user.client.delete(`/api/v1/connections/${connection.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: connection.id, message: 'Connection revoked' });
    expect((await rawMcp(mcpUrl, provider.saved!.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: connection.clientId })).body.error).toBe('invalid_grant');
    expect((await user.client.get('/api/v1/connections')).body.data).toEqual([]);
    expect((await user.client.delete(`/api/v1/connections/${connection.id}`)).status).toBe(404);
    await client.close();
  });

  it('a lapsed plan stops the token at once, and refresh with it', async () => {
    const user = await proUser();
    const { tokens, clientId } = await grant(user);
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(200);
    await setPlan(app.databaseUrl, user.id, 'pro', new Date(Date.now() - 1000));
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).body.error).toBe('invalid_grant');
    await setPlan(app.databaseUrl, user.id, 'pro');
    expect((await rawMcp(mcpUrl, tokens.access_token)).status).toBe(200);
  });

  it("a token of user A never reaches B's tasks or days", async () => {
    const a = await proUser();
    const b = await proUser();
    const { tokens } = await grant(a);
    const bTask = (await b.client.post('/api/v1/tasks', { title: 'B private', timebox: 10 })).body.data;
    const bDay = (await b.client.get('/api/v1/days/today')).body.data;
    const listed = toolJson(await callTool(tokens.access_token, 'tasks_list', {}));
    expect(listed.tasks).toEqual([]);
    for (const [name, args] of [
      ['tasks_update_status', { taskId: bTask.id, status: 'done' }],
      ['tasks_list', { dayId: bDay.id }],
      ['checklist_toggle', { key: 'MAKE_BED', dayId: bDay.id }],
      ['log_water', { volume: 200, dayId: bDay.id }],
      ['log_mood', { mood: 5, energy: 5, dayId: bDay.id }],
      ['tasks_create', { title: 'on B day', timebox: 5, dayId: bDay.id }],
    ] as const) {
      const result = await callTool(tokens.access_token, name, args);
      if (name === 'tasks_list') {
        expect(toolJson(result).tasks, name).toEqual([]);
        continue;
      }
      expect(result.isError, name).toBe(true);
      expect(toolJson(result).error.code, name).toBe('NOT_FOUND');
    }
    expect((await b.client.get(`/api/v1/tasks/${bTask.id}`)).body.data.status).toBe('todo');
    expect((await b.client.get(`/api/v1/days/${bDay.id}`)).body.data.waterIntakes ?? []).toEqual([]);
  });

  it("a token of user A never reaches B's Brain forms or databases", async () => {
    const a = await proUser();
    const b = await proUser();
    const { tokens } = await grant(a);
    const bForm = (await b.client.post('/api/v1/brain/forms', { name: 'B form', createDatabase: { name: 'B answers' }, config: { fields: [{ key: 'q', label: 'Q', type: 'text' }] } })).body.data;
    expect(bForm.id).toBeDefined();
    expect(toolJson(await callTool(tokens.access_token, 'brain_form_list', {})).forms).toEqual([]);
    for (const [name, args] of [
      ['brain_form_update', { formId: bForm.id, name: 'taken' }],
      ['brain_form_publish', { formId: bForm.id, published: true }],
      ['brain_form_submit', { formId: bForm.id, values: { q: 'x' } }],
      ['brain_form_delete', { formId: bForm.id }],
      ['brain_form_make', { name: 'on B database', databaseId: bForm.databaseId }],
    ] as const) {
      const result = await callTool(tokens.access_token, name, args);
      expect(result.isError, name).toBe(true);
      expect(toolJson(result).error.code, name).toBe('NOT_FOUND');
    }
    const after = (await b.client.get(`/api/v1/brain/forms/${bForm.id}`)).body.data;
    expect(after).toMatchObject({ name: 'B form', published: false });
    expect((await b.client.get(`/api/v1/brain/databases/${bForm.databaseId}/records`)).body.data).toEqual([]);
  });

  it('reads cost a fixed number of statements: the connection list, and the token check of /mcp', async () => {
    const user = await proUser();
    const grants = [await grant(user), await grant(user), await grant(user)];
    expect((await user.client.get('/api/v1/connections')).body.data).toHaveLength(3);
    let recorder = recordStatements();
    try {
      await user.client.get('/api/v1/connections');
    } finally {
      recorder.stop();
    }
    // One select (the session check is not counted, statement-counter.ts).
    expect(recorder.statements).toHaveLength(1);
    expect(recorder.statements.filter((s) => s.includes('oauth_connections'))).toHaveLength(1);

    await rawMcp(mcpUrl, grants[0]!.tokens.access_token); // the first use writes lastUsedAt
    recorder = recordStatements();
    try {
      expect((await rawMcp(mcpUrl, grants[0]!.tokens.access_token)).status).toBe(200);
    } finally {
      recorder.stop();
    }
    // tools/list: one lookup of the token with its connection and plan, nothing else.
    expect(recorder.statements).toHaveLength(1);
    expect(recorder.statements[0]).toContain('oauth_tokens');
  });

  it('GET /mcp answers 405 to a valid token', async () => {
    const { tokens } = await grant(pro);
    const res = await fetch(mcpUrl, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
  });
});

describe('rate limits', () => {
  it('/register and /token are limited per IP like the auth routes, with an OAuth error body', async () => {
    const limited = await startConnectorApp({ RATE_LIMIT_AUTH_MAX: '2' });
    try {
      const url = limited.server.deps.config.baseUrl;
      const post = (path: string, body: string, type: string) => fetch(url + path, { method: 'POST', headers: { 'content-type': type }, body });
      const registration = JSON.stringify({ client_name: 'x', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
      expect((await post('/register', registration, 'application/json')).status).toBe(201);
      expect((await post('/register', registration, 'application/json')).status).toBe(201);
      const third = await post('/register', registration, 'application/json');
      expect(third.status).toBe(429);
      expect(await third.json()).toEqual({ error: 'too_many_requests', error_description: 'Too many requests: at most 2 per 900 seconds' });
      // /token shares the counter.
      const tokenRes = await post('/token', 'grant_type=refresh_token&refresh_token=x&client_id=y', 'application/x-www-form-urlencoded');
      expect(tokenRes.status).toBe(429);
      // Discovery is not limited this way.
      expect((await fetch(`${url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
