import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { externalRequests, launchBrowser, pageErrors } from '../../test/support/browser.js';
import { enableTotp, freshTimeStep, totpCode, wrongCode } from '../accounts/two-factor/two-factor.test-helpers.js';
import { startConnectorApp } from './connector.test-helpers.js';

let app: TestApp;
let base: string;
let browser: Browser | undefined;
/** One context for the file (Chromium here runs as one process: closing its last context ends it); cookies are cleared per test. */
let context: BrowserContext;
let callback: Server;
let callbackUrl: string;
const received: URLSearchParams[] = [];

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
  callback = createServer((req, res) => {
    received.push(new URL(req.url!, 'http://127.0.0.1').searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Connected</title><p id="done">back at the assistant</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
  browser = await launchBrowser();
  context = await browser.newContext();
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await app?.close();
});

async function authorizeUrl(): Promise<string> {
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Two-factor Assistant', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' }),
  });
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callbackUrl, code_challenge: challenge, code_challenge_method: 'S256', state: 'tf-state', resource: `${base}/mcp` });
  return `${base}/authorize?${params}`;
}

const sessionCookies = async (page: Page) => (await page.context().cookies()).filter((c) => c.name === 'lp_session');

describe("the connector's sign-in with two-factor, in a real browser", () => {
  it('asks for the authenticator code after the password; the session and consent come only after it', async () => {
    await freshTimeStep();
    const user = await signUp(base);
    await setPlan(app.databaseUrl, user.id, 'pro');
    const { secret } = await enableTotp(user.client);
    const sessionsBefore = (await sql(app.databaseUrl, 'select id from login_sessions where user_id = $1', [user.id])).length;

    await context.clearCookies();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const outside = externalRequests(page, base);
    await page.goto(await authorizeUrl(), { waitUntil: 'load' });
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);

    // The second page: the code field, the step's token and the CSRF token as hidden fields; no session yet.
    expect(await page.locator('h1').innerText()).toBe('Enter your code');
    expect(await page.locator('input[type=hidden][name=challengeToken]').getAttribute('value')).toMatch(/^[\w-]{43}$/);
    expect(await page.locator('input[type=hidden][name=_csrf]').count()).toBe(1);
    expect(await page.locator('#code').getAttribute('autocomplete')).toBe('one-time-code');
    expect(await sessionCookies(page)).toEqual([]);
    expect((await sql(app.databaseUrl, 'select id from login_sessions where user_id = $1', [user.id])).length).toBe(sessionsBefore);

    await page.fill('#code', wrongCode(secret));
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    expect(await page.locator('[role=alert]').innerText()).toMatch(/wrong.*4 tries left/i);
    expect(await sessionCookies(page)).toEqual([]);

    await page.fill('#code', totpCode(secret));
    await Promise.all([page.waitForURL(/\/authorize\?/), page.click('button[type=submit]')]);
    expect(await page.locator('#client-name').innerText()).toBe('Two-factor Assistant');
    expect(await sessionCookies(page)).toHaveLength(1);
    const sessions = await sql(app.databaseUrl, 'select user_agent from login_sessions where user_id = $1 order by created_at desc', [user.id]);
    expect(sessions.length).toBe(sessionsBefore + 1);
    expect(sessions[0]!.user_agent).toMatch(/Chrome/);

    await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[name=decision][value=approve]')]);
    expect(received.at(-1)!.get('code')).toMatch(/^lpac_/);
    expect(received.at(-1)!.get('state')).toBe('tf-state');
    expect(errors).toEqual([]);
    expect(outside.filter((u) => !u.startsWith(callbackUrl))).toEqual([]);
    await page.close();
  });

  it('takes a recovery code on the same page, and sends a dead step back to the password', async () => {
    await freshTimeStep();
    const user = await signUp(base);
    await setPlan(app.databaseUrl, user.id, 'pro');
    const { recoveryCodes } = await enableTotp(user.client);
    await context.clearCookies();
    const page = await context.newPage();
    const url = await authorizeUrl();

    // A step that expired: back to the sign-in form.
    await page.goto(url, { waitUntil: 'load' });
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await sql(app.databaseUrl, "update sign_in_challenges set expires_at = now() - interval '1 second' where user_id = $1", [user.id]);
    await page.fill('#code', recoveryCodes[0]!);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    expect(await page.locator('h1').innerText()).toBe('Sign in');
    expect(await page.locator('[role=alert]').innerText()).toMatch(/sign in again/i);
    expect(await sessionCookies(page)).toEqual([]);

    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await page.fill('#code', recoveryCodes[0]!);
    await Promise.all([page.waitForURL(/\/authorize\?/), page.click('button[type=submit]')]);
    expect(await page.locator('#client-name').innerText()).toBe('Two-factor Assistant');
    expect(await sessionCookies(page)).toHaveLength(1);
    await page.close();
  });
});
