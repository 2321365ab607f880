import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { sql } from '../../../test/support/db.js';
import { browserRequest, callBack, callbackOf, CookieJar, oidcEnv, reserveTestProvider, runToCallback, CLIENT, type TestProvider } from './oidc-provider.test-helpers.js';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider) on a free port of this process, over
 * real HTTP: success (a new account, then the linked identity), and every refusal without a session.
 */
let idp: TestProvider;
let open: TestApp; // OIDC_AUTO_CREATE, only example.com
let closed: TestApp; // no auto-create, any domain
const base = (app: TestApp) => app.server.deps.config.baseUrl;

beforeAll(async () => {
  idp = await reserveTestProvider();
  open = await startTestApp(oidcEnv(idp.issuer, { OIDC_AUTO_CREATE: 'true', OIDC_ALLOWED_EMAIL_DOMAINS: 'example.com', OIDC_BUTTON_LABEL: 'Sign in with <Test> ID' }));
  closed = await startTestApp(oidcEnv(idp.issuer));
  await idp.start([{ ...CLIENT, redirect_uris: [callbackOf(base(open)), callbackOf(base(closed))] }]);
  idp.accounts.set('alice', { email: 'Alice.OIDC@example.com', email_verified: true });
  idp.accounts.set('bob', { email: 'bob@elsewhere.org', email_verified: true });
  idp.accounts.set('eve', { email: 'eve@example.com', email_verified: false });
  idp.accounts.set('nomail', {});
}, 60_000);
afterAll(async () => {
  await Promise.all([open?.close(), closed?.close()]);
  await idp?.close();
});

const usersWith = async (app: TestApp, email: string) => sql(app.databaseUrl, 'select id, email, email_verified_at from users where email = $1', [email]);
const identities = async (app: TestApp, subject: string) => sql(app.databaseUrl, 'select user_id, issuer, subject, email, last_used_at from oidc_identities where subject = $1', [subject]);

/** The refusal every failed path must be: the envelope with its reason, no session cookie, no session row. */
async function expectRefused(result: Awaited<ReturnType<typeof callBack>>, status: number, reason: string) {
  expect(result.response.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body).toMatchObject({ ok: false, error: { code: 'OIDC_SIGN_IN_FAILED', details: { reason } } });
  expect(result.sessionSet).toBe(false);
}

describe('GET /auth/oidc/start', () => {
  it('redirects to the provider with the code flow, PKCE S256, state and nonce, bound to this browser by an HttpOnly cookie', async () => {
    const jar = new CookieJar();
    const start = await browserRequest(jar, `${base(open)}/api/v1/auth/oidc/start?returnTo=/plan`);
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get('location')!);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'planner',
      redirect_uri: callbackOf(base(open)),
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[\w-]{20,}$/);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith('lp_oidc_flow='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/oidc/);
    // Encrypted: the verifier and nonce are not readable in the browser.
    expect(cookie).not.toContain(url.searchParams.get('nonce')!);
  });
});

describe('GET /auth/oidc/callback', { timeout: 60_000 }, () => {
  it('creates a verified account on the first sign-in (OIDC_AUTO_CREATE), then the linked identity signs the same user in', async () => {
    const first = await runToCallback(base(open), 'alice', { returnTo: '/plan?week=1' });
    const answer = await callBack(first.jar, first.callbackUrl);
    expect(answer.response.status, JSON.stringify(answer.body)).toBe(302);
    expect(answer.response.headers.get('location')).toBe(`${base(open)}/plan?week=1`);
    expect(answer.sessionSet).toBe(true);
    const me = await browserRequest(first.jar, `${base(open)}/api/v1/auth/me`);
    expect(me.status).toBe(200);
    const user = (await me.json()).data;
    expect(user.email).toBe('alice.oidc@example.com');
    // REST's `me` is the spec's id, email, createdAt; GraphQL says whether the address is verified.
    const asked = await browserRequest(first.jar, `${base(open)}/graphql`, { method: 'POST', body: JSON.stringify({ query: '{ me { emailVerifiedAt } }' }), headers: { 'content-type': 'application/json' } });
    expect((await asked.json()).data.me.emailVerifiedAt).toEqual(expect.any(String));
    const [link] = await identities(open, 'alice');
    expect(link).toMatchObject({ user_id: user.id, issuer: idp.issuer, email: 'Alice.OIDC@example.com' });
    // The new account has no usable password.
    const login = await fetch(`${base(open)}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: 'a guess at the password' }) });
    expect(login.status).toBe(401);

    const again = await runToCallback(base(open), 'alice');
    const second = await callBack(again.jar, again.callbackUrl);
    expect(second.response.status).toBe(302);
    expect(second.response.headers.get('location')).toBe(`${base(open)}/`);
    expect(second.sessionSet).toBe(true);
    expect((await (await browserRequest(again.jar, `${base(open)}/api/v1/auth/me`)).json()).data.id).toBe(user.id);
    expect(await usersWith(open, 'alice.oidc@example.com')).toHaveLength(1);
    const [after] = await identities(open, 'alice');
    expect(after!.last_used_at.getTime()).toBeGreaterThan(link!.last_used_at.getTime());
  });

  it('keeps returnTo to paths of this service', async () => {
    for (const returnTo of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      const flow = await runToCallback(base(open), 'alice', { returnTo });
      const answer = await callBack(flow.jar, flow.callbackUrl);
      expect(answer.response.headers.get('location'), returnTo).toBe(`${base(open)}/`);
    }
  });

  it('refuses a wrong state, and a callback from a browser that did not start the sign-in', async () => {
    const flow = await runToCallback(base(open), 'alice');
    const forged = new URL(flow.callbackUrl);
    forged.searchParams.set('state', 'not-the-state-of-this-browser');
    await expectRefused(await callBack(flow.jar, forged.href), 400, 'state_mismatch');
    // The flow ended with the refusal: the real answer is refused too.
    await expectRefused(await callBack(flow.jar, flow.callbackUrl), 400, 'flow_missing');
    const other = await runToCallback(base(open), 'alice');
    await expectRefused(await callBack(new CookieJar(), other.callbackUrl), 400, 'flow_missing');
  });

  it('refuses a replayed authorization code (the provider refuses it) without a session', async () => {
    const flow = await runToCallback(base(open), 'alice');
    expect((await callBack(flow.jar, flow.callbackUrl)).response.status).toBe(302);
    // The same browser's flow cookie and the same answer again: only the provider can tell.
    const replay = new CookieJar();
    replay.set(base(open), 'lp_oidc_flow', flow.flowCookie!);
    await expectRefused(await callBack(replay, flow.callbackUrl), 400, 'code_refused');
  });

  it('refuses an ID token issued for another audience', async () => {
    const flow = await runToCallback(base(open), 'alice');
    idp.tamper.audience = 'someone-else';
    try {
      const answer = await callBack(flow.jar, flow.callbackUrl);
      await expectRefused(answer, 400, 'id_token_invalid');
      expect(answer.body.error.message).toMatch(/"aud" \(audience\)/);
    } finally {
      delete idp.tamper.audience;
    }
  });

  it('refuses an email outside OIDC_ALLOWED_EMAIL_DOMAINS, an unverified or missing email, and creates nobody', async () => {
    const bob = await runToCallback(base(open), 'bob');
    const refused = await callBack(bob.jar, bob.callbackUrl);
    await expectRefused(refused, 403, 'email_domain_refused');
    expect(refused.body.error.message).toContain('elsewhere.org');
    expect(await usersWith(open, 'bob@elsewhere.org')).toEqual([]);
    const eve = await runToCallback(base(open), 'eve');
    await expectRefused(await callBack(eve.jar, eve.callbackUrl), 403, 'email_unverified');
    expect(await usersWith(open, 'eve@example.com')).toEqual([]);
    const nomail = await runToCallback(base(open), 'nomail');
    await expectRefused(await callBack(nomail.jar, nomail.callbackUrl), 403, 'email_missing');
    expect(await identities(open, 'bob')).toEqual([]);
  });

  it('without OIDC_AUTO_CREATE refuses an email that has no account', async () => {
    const flow = await runToCallback(base(closed), 'bob');
    await expectRefused(await callBack(flow.jar, flow.callbackUrl), 403, 'no_account');
    expect(await usersWith(closed, 'bob@elsewhere.org')).toEqual([]);
  });

  it('answers a browser with an HTML page, escaped', async () => {
    const flow = await runToCallback(base(open), 'bob');
    const page = await browserRequest(flow.jar, flow.callbackUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.getSetCookie().some((c) => /^lp_session=[^;]/.test(c))).toBe(false);
    expect(await page.text()).toContain('Accounts of elsewhere.org may not sign in here');
  });
});

describe('signInMethods', () => {
  it('tells clients which sign-in methods are on, without a session', async () => {
    const query = async (app: TestApp) => (await (await fetch(`${base(app)}/api/v1/auth/sign-in-methods`)).json()).data;
    expect(await query(open)).toMatchObject({ password: true, oidc: { label: 'Sign in with <Test> ID', startPath: '/api/v1/auth/oidc/start' } });
    const gql = await fetch(`${base(closed)}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ signInMethods { password passkeys oidc { label } } }' }) });
    expect((await gql.json()).data.signInMethods).toMatchObject({ password: true, oidc: { label: 'Sign in with single sign-on' } });
  });
});
