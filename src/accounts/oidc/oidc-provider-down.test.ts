import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { callbackOf, CLIENT, oidcEnv, reserveTestProvider, type TestProvider } from './oidc-provider.test-helpers.js';

/**
 * A provider that is down or hangs answers a clear 503 in time, never a 500 or a hang, and /readyz says
 * so; one that comes back is used again without a restart; OIDC off is a 404.
 */
let down: TestApp;
let hanging: TestApp;
let off: TestApp;
let back: TestApp;
let backPort: number;
let returned: TestProvider | undefined;
let silent: Server;

async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const downPort = await closedPort();
  backPort = await closedPort();
  // Accepts connections and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  [down, hanging, off, back] = await Promise.all([
    startTestApp(oidcEnv(`http://127.0.0.1:${downPort}`, { RATE_LIMIT_AUTH_MAX: '4' })),
    startTestApp(oidcEnv(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, { OIDC_TIMEOUT_MS: '300', PASSWORD_SIGN_IN_DISABLED: 'true' })),
    sharedTestApp(),
    // READYZ_PROBE_CACHE_MS 0: /readyz asks the provider each time, so its return shows at once.
    startTestApp(oidcEnv(`http://127.0.0.1:${backPort}`, { READYZ_PROBE_CACHE_MS: '0' })),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([down?.close(), hanging?.close(), back?.close()]);
  await returned?.close();
  silent?.closeAllConnections();
  silent?.close();
});

describe('an identity provider that cannot be reached', () => {
  it('answers 503 IDENTITY_PROVIDER_UNAVAILABLE (envelope or page), and the auth rate limit counts the routes', async () => {
    const json = await fetch(`${down.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    expect(json.status).toBe(503);
    expect(await json.json()).toMatchObject({ ok: false, error: { code: 'IDENTITY_PROVIDER_UNAVAILABLE' } });
    const page = await fetch(`${down.url}/api/v1/auth/oidc/start`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Single sign-on failed');
    // Discovery is tried again on the next request (a failure is not cached), each one counted.
    expect((await fetch(`${down.url}/api/v1/auth/oidc/callback?code=x&state=y`)).status).toBe(400);
    expect((await fetch(`${down.url}/api/v1/auth/oidc/start`, { redirect: 'manual' })).status).toBe(503);
    const limited = await fetch(`${down.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('gives up on a provider that does not answer after OIDC_TIMEOUT_MS', async () => {
    const started = Date.now();
    const res = await fetch(`${hanging.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect((await res.json()).error.message).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('an identity provider that comes back', () => {
  const oidcState = async (app: TestApp) => {
    const res = await fetch(`${app.url}/readyz`);
    const body = await res.json();
    if (!body.data) throw new Error(`/readyz answered ${res.status} ${JSON.stringify(body)}`);
    return { status: res.status, oidc: body.data.dependencies.oidc };
  };

  it('is reported down (still ready) in /readyz, within the probe bound when it hangs, and used again once it answers', async () => {
    expect(await oidcState(back)).toEqual({ status: 200, oidc: { state: 'down', required: false } });
    const started = Date.now();
    expect(await oidcState(hanging)).toEqual({ status: 200, oidc: { state: 'down', required: false } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await fetch(`${back.url}/api/v1/auth/oidc/start`, { redirect: 'manual' })).status).toBe(503);

    // Back on its address: nothing to restart; the next sign-in reads the discovery document again.
    returned = await reserveTestProvider(backPort);
    await returned.start([{ ...CLIENT, redirect_uris: [callbackOf(back.server.deps.config.baseUrl)] }]);
    const deadline = Date.now() + 15_000;
    while ((await oidcState(back)).oidc.state !== 'up') {
      if (Date.now() > deadline) throw new Error('/readyz did not report the provider up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const start = await fetch(`${back.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(new RegExp(`^${returned.issuer}/`));
  });
});

describe('PASSWORD_SIGN_IN_DISABLED', () => {
  it('refuses password sign-in and registration with a clear error, on REST and GraphQL, and says so in signInMethods', async () => {
    const post = (path: string, body: unknown) => fetch(`${hanging.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const login = await post('/api/v1/auth/login', { email: 'someone@example.com', password: 'whatever it is' });
    expect(login.status).toBe(403);
    expect((await login.json()).error).toMatchObject({ code: 'PASSWORD_SIGN_IN_DISABLED', message: expect.stringContaining('single sign-on') });
    const register = await post('/api/v1/auth/register', { email: 'new@example.com', password: 'long enough password' });
    expect(register.status).toBe(403);
    expect(register.headers.getSetCookie().some((c) => /^lp_session=[^;]/.test(c))).toBe(false);
    const gql = await (await post('/graphql', { query: 'mutation { login(email: "a@example.com", password: "whatever it is") { user { id } } }' })).json();
    expect(gql.errors[0].extensions.code).toBe('PASSWORD_SIGN_IN_DISABLED');
    const methods = await (await fetch(`${hanging.url}/api/v1/auth/sign-in-methods`)).json();
    expect(methods.data).toMatchObject({ password: false, oidc: { label: 'Sign in with single sign-on' } });
  });
});

describe('without OIDC_ISSUER', () => {
  it('has no single sign-on routes and says so in signInMethods', async () => {
    const res = await fetch(`${off.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
    const methods = await (await fetch(`${off.url}/api/v1/auth/sign-in-methods`)).json();
    expect(methods.data).toMatchObject({ password: true, oidc: null });
    expect(typeof methods.data.passkeys).toBe('boolean');
  });
});
