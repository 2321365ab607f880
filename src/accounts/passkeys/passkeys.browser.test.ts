import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../test/support/browser.js';
import { sql } from '../../../test/support/db.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';

/**
 * Passkeys in a real headless Chromium with its DevTools virtual authenticator (CTAP2, internal, resident
 * keys, user verification that always succeeds). Pages are opened on http://localhost:<port>, the
 * origin BASE_URL names when it is not set (RP ID `localhost`; an IP address is not a valid RP ID, and
 * localhost is a secure context). The app's pages are the GraphQL IDE: its CSP lets the page fetch its own
 * origin (the home page's does not).
 */

let app: TestApp;
/** Every browser a test opened, closed at the end. */
const browsers: Browser[] = [];
/** The app's own origin (BASE_URL), not app.url's 127.0.0.1. */
let origin: string;
/** Another origin on the same host (another port): a page there may use `localhost` passkeys too. */
let foreign: Server;
let foreignOrigin: string;

beforeAll(async () => {
  app = await sharedTestApp();
  origin = app.url.replace('127.0.0.1', 'localhost');
  foreign = createServer((_req, res) => res.setHeader('content-type', 'text/html').end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignOrigin = `http://localhost:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  foreign?.closeAllConnections();
  await new Promise((resolve) => foreign?.close(resolve));
});

interface Tab {
  browser: Browser;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * A browser of its own (no cookies) on `url` with a virtual platform authenticator. Not a context of a
 * shared browser: @sparticuz/chromium runs `--single-process`, where contexts share one cookie jar.
 */
async function openTab(url: string): Promise<Tab> {
  const browser = await launchBrowser();
  browsers.push(browser);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { browser, page, cdp, authenticatorId };
}

/** A new virtual authenticator in the tab, replacing the current one (a second device). */
async function swapAuthenticator(tab: Tab): Promise<void> {
  await tab.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: tab.authenticatorId });
  const { authenticatorId } = await tab.cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  tab.authenticatorId = authenticatorId;
}

/** The credentials (private keys included) the tab's authenticator holds, to carry to another tab. */
async function credentialsOf(tab: Tab) {
  return (await tab.cdp.send('WebAuthn.getCredentials', { authenticatorId: tab.authenticatorId })).credentials;
}

/** A JSON request from the page itself: its origin, its cookies. */
async function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; setCookie: boolean }> {
  const response = page.waitForResponse((r) => r.url().endsWith(`/api/v1${path}`));
  const result = await page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(`/api/v1${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
  const setCookie = ((await (await response).headerValue('set-cookie')) ?? '').includes('lp_session=');
  return { ...result, setCookie };
}

/** navigator.credentials.create() with the server's options; the browser's JSON of the new credential. */
function create(page: Page, options: unknown): Promise<any> {
  return page.evaluate(async (json) => {
    const PKC = PublicKeyCredential as any;
    const credential = (await navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(json) })) as any;
    return credential.toJSON();
  }, options);
}

/** navigator.credentials.get() with the server's options; the assertion as JSON. */
function get(page: Page, options: unknown): Promise<any> {
  return page.evaluate(async (json) => {
    const PKC = PublicKeyCredential as any;
    const credential = (await navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(json) })) as any;
    return credential.toJSON();
  }, options);
}

/** A passkey added through the page: options, the browser's ceremony, finish. */
async function register(tab: Tab, name: string): Promise<{ status: number; body: any }> {
  const started = await api(tab.page, 'POST', '/auth/passkeys/registration/options', {});
  expect(started.status).toBe(200);
  const options = started.body.data.options;
  expect(options.rp.id).toBe('localhost');
  expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
  return api(tab.page, 'POST', '/auth/passkeys', { name, response: await create(tab.page, options) });
}

async function signUpInPage(tab: Tab): Promise<string> {
  const email = `passkey${Date.now()}${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await api(tab.page, 'POST', '/auth/register', { email, password: 'correct horse battery' });
  expect(res.status).toBe(201);
  return email;
}

describe('passkeys in a real browser (virtual authenticator)', () => {
  let owner: Tab;
  let email: string;
  /** The credential of the passkey that stays registered ("Phone"), with its private key. */
  let phoneCredential: Awaited<ReturnType<typeof credentialsOf>>[number];
  let phoneId: string;

  it('registers two named passkeys (one per device), lists, renames and removes them', async () => {
    owner = await openTab(`${origin}/graphql`);
    email = await signUpInPage(owner);

    const laptop = await register(owner, 'Laptop');
    expect(laptop.status).toBe(201);
    expect(laptop.body.data).toMatchObject({ name: 'Laptop', transports: ['internal'], lastUsedAt: null });
    expect(laptop.body.data).not.toHaveProperty('publicKey');
    // The same device again: its credential is in excludeCredentials, so the browser refuses to make another.
    await expect(register(owner, 'Laptop again')).rejects.toThrow(/InvalidStateError|excluded|already/i);

    await swapAuthenticator(owner);
    const phone = await register(owner, 'Phone');
    expect(phone.status).toBe(201);
    phoneId = phone.body.data.id;
    phoneCredential = (await credentialsOf(owner))[0]!;
    expect(phoneCredential.isResidentCredential).toBe(true);

    const listed = await api(owner.page, 'GET', '/auth/passkeys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: any) => p.name)).toEqual(['Laptop', 'Phone']);
    // Another account's page sees none of them.
    const renamed = await api(owner.page, 'PATCH', `/auth/passkeys/${phoneId}`, { name: 'Work phone' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Work phone');
    const removed = await api(owner.page, 'DELETE', `/auth/passkeys/${laptop.body.data.id}`);
    expect(removed.status).toBe(200);
    expect((await api(owner.page, 'GET', '/auth/passkeys')).body.data.map((p: any) => p.name)).toEqual(['Work phone']);
    // A removed passkey is gone: removing it again is 404.
    expect((await api(owner.page, 'DELETE', `/auth/passkeys/${laptop.body.data.id}`)).status).toBe(404);
  });

  it('answers 404 NOT_FOUND for another user\'s passkey, exactly as for a missing one', async () => {
    const { client: other } = await signUp(app.url);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [phoneId, missing]) {
      const renamed = await other.patch(`/api/v1/auth/passkeys/${id}`, { name: 'Mine now' });
      const removed = await other.delete(`/api/v1/auth/passkeys/${id}`);
      for (const res of [renamed, removed]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Passkey not found' });
      }
    }
    expect((await other.get('/api/v1/auth/passkeys')).body.data).toEqual([]);
    const [row] = await sql(app.databaseUrl, 'select name from passkeys where id = $1', [phoneId]);
    expect(row!.name).toBe('Work phone');
  });

  it('signs in with the passkey alone in a fresh browser: the new cookie works on GET /auth/me, and a replayed assertion is refused', async () => {
    const visitor = await openTab(`${origin}/graphql`);
    await visitor.cdp.send('WebAuthn.addCredential', { authenticatorId: visitor.authenticatorId, credential: phoneCredential });
    expect((await api(visitor.page, 'GET', '/auth/me')).status).toBe(401);

    const started = await api(visitor.page, 'POST', '/auth/passkey-sign-in/options', {});
    expect(started.status).toBe(200);
    const { challengeId, options } = started.body.data;
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    const assertion = await get(visitor.page, options);

    const signedIn = await api(visitor.page, 'POST', '/auth/passkey-sign-in', { challengeId, response: assertion });
    expect(signedIn.status).toBe(200);
    expect(signedIn.setCookie).toBe(true);
    expect(signedIn.body.data.user.email).toBe(email);
    const me = await api(visitor.page, 'GET', '/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(email);
    const [row] = await sql(app.databaseUrl, 'select counter, last_used_at from passkeys where id = $1', [phoneId]);
    expect(row!.last_used_at).not.toBeNull();
    const used = (await credentialsOf(visitor))[0]!;
    expect(Number(row!.counter)).toBe(used.signCount);
    expect(used.signCount).toBeGreaterThan(phoneCredential.signCount);

    // The same answer again, from a browser without a session: its challenge is spent.
    const replayer = new HttpClient(app.url);
    const replayed = await replayer.post('/api/v1/auth/passkey-sign-in', { challengeId, response: assertion }, { headers: { origin } });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(replayer.cookie).toBeUndefined();
    // Nor does it answer a fresh challenge (it signed another one).
    const fresh = (await replayer.post('/api/v1/auth/passkey-sign-in/options', {}, { headers: { origin } })).body.data;
    const again = await replayer.post('/api/v1/auth/passkey-sign-in', { challengeId: fresh.challengeId, response: assertion }, { headers: { origin } });
    expect(again.status).toBe(401);
    expect(replayer.cookie).toBeUndefined();
    await visitor.browser.close();

    // A copy of the key taken before that sign-in (its counter behind the server's): a cloned authenticator.
    const clone = await openTab(`${origin}/graphql`);
    await clone.cdp.send('WebAuthn.addCredential', { authenticatorId: clone.authenticatorId, credential: phoneCredential });
    const cloneStart = (await api(clone.page, 'POST', '/auth/passkey-sign-in/options', {})).body.data;
    const cloned = await api(clone.page, 'POST', '/auth/passkey-sign-in', { challengeId: cloneStart.challengeId, response: await get(clone.page, cloneStart.options) });
    expect(cloned.status).toBe(401);
    expect(cloned.setCookie).toBe(false);
    await clone.browser.close();
    phoneCredential = used;
  });

  it('refuses an assertion made on a page of another origin, and one whose clientDataJSON origin was rewritten', async () => {
    const elsewhere = await openTab(`${foreignOrigin}/`);
    await elsewhere.cdp.send('WebAuthn.addCredential', { authenticatorId: elsewhere.authenticatorId, credential: phoneCredential });
    const client = new HttpClient(app.url);

    // A page of localhost:<other port> may use the `localhost` passkey; its assertion names its own origin.
    const first = (await client.post('/api/v1/auth/passkey-sign-in/options', {}, { headers: { origin } })).body.data;
    const foreignAssertion = await get(elsewhere.page, first.options);
    const clientData = JSON.parse(Buffer.from(foreignAssertion.response.clientDataJSON, 'base64url').toString());
    expect(clientData.origin).toBe(foreignOrigin);
    const refused = await client.post('/api/v1/auth/passkey-sign-in', { challengeId: first.challengeId, response: foreignAssertion }, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(client.cookie).toBeUndefined();

    // The origin rewritten to the app's: the signature no longer matches the client data.
    const second = (await client.post('/api/v1/auth/passkey-sign-in/options', {}, { headers: { origin } })).body.data;
    const signed = await get(elsewhere.page, second.options);
    const data = JSON.parse(Buffer.from(signed.response.clientDataJSON, 'base64url').toString());
    const tampered = { ...signed, response: { ...signed.response, clientDataJSON: Buffer.from(JSON.stringify({ ...data, origin })).toString('base64url') } };
    const forged = await client.post('/api/v1/auth/passkey-sign-in', { challengeId: second.challengeId, response: tampered }, { headers: { origin } });
    expect(forged.status).toBe(401);
    expect(client.cookie).toBeUndefined();
    const sessions = await sql(app.databaseUrl, 'select count(*)::int as n from login_sessions s join users u on u.id = s.user_id where u.email = $1', [email]);
    expect(sessions[0]!.n).toBe(2); // the sign-up's and the passkey sign-in's, no more

    // Registration made on the other origin is refused as well (400), and nothing is stored.
    const started = await api(owner.page, 'POST', '/auth/passkeys/registration/options', {});
    await swapAuthenticator(elsewhere);
    const made = await create(elsewhere.page, started.body.data.options);
    const finished = await api(owner.page, 'POST', '/auth/passkeys', { name: 'Elsewhere', response: made });
    expect(finished.status).toBe(400);
    expect(finished.body.error.code).toBe('VALIDATION_ERROR');
    expect((await api(owner.page, 'GET', '/auth/passkeys')).body.data).toHaveLength(1);
    await elsewhere.browser.close();
  });

  it('uses a passkey as the second factor after the password when TOTP is on: no cookie before it', async () => {
    const [user] = await sql(app.databaseUrl, 'select id from users where email = $1', [email]);
    // TOTP switched on directly in the table: this test is about the passkey answering the second step.
    await sql(app.databaseUrl, `insert into totp_credentials (id, user_id, secret_encrypted, enabled_at, created_at) values (gen_random_uuid(), $1, 'x', now(), now())`, [user!.id]);

    const tab = await openTab(`${origin}/graphql`);
    await tab.cdp.send('WebAuthn.addCredential', { authenticatorId: tab.authenticatorId, credential: phoneCredential });
    const login = await api(tab.page, 'POST', '/auth/login', { email, password: 'correct horse battery' });
    expect(login.status).toBe(401);
    expect(login.setCookie).toBe(false);
    expect(login.body.error.code).toBe('SECOND_FACTOR_REQUIRED');
    expect(login.body.error.details.methods).toContain('passkey');
    const { challengeToken } = login.body.error.details;

    const started = await api(tab.page, 'POST', '/auth/login/second-factor/passkey/options', { challengeToken });
    expect(started.status).toBe(200);
    expect(started.setCookie).toBe(false);
    expect(started.body.data.options.allowCredentials.map((c: any) => c.id)).toEqual([phoneCredential.credentialId.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')]);
    const assertion = await get(tab.page, started.body.data.options);

    expect((await api(tab.page, 'GET', '/auth/me')).status).toBe(401);
    const done = await api(tab.page, 'POST', '/auth/login/second-factor/passkey', { challengeToken, response: assertion });
    expect(done.status).toBe(200);
    expect(done.setCookie).toBe(true);
    expect((await api(tab.page, 'GET', '/auth/me')).body.data.email).toBe(email);
    // The step is spent: the same answer opens nothing.
    const replayed = await new HttpClient(app.url).post('/api/v1/auth/login/second-factor/passkey', { challengeToken, response: assertion }, { headers: { origin } });
    expect(replayed.status).toBe(400);
    expect(replayed.headers.getSetCookie().join()).not.toContain('lp_session=');
    await tab.browser.close();
  });
});
