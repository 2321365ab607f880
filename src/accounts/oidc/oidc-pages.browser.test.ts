import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, pageErrors } from '../../../test/support/browser.js';
import { signUp } from '../../../test/support/http-client.js';
import { sql } from '../../../test/support/db.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { callbackOf, CLIENT, oidcEnv, reserveTestProvider, type TestProvider } from './oidc-provider.test-helpers.js';

/**
 * Single sign-on in the real headless Chromium, through the provider's own pages: the cookies as a
 * browser keeps them (SameSite=Lax across the provider's redirect back), the link page and its script
 * under the Content-Security-Policy, and the error page escaping what the provider sends.
 */
let idp: TestProvider;
let app: TestApp;
let base: string;
let browser: Browser | undefined;
let context: BrowserContext;

beforeAll(async () => {
  idp = await reserveTestProvider();
  app = await startTestApp(oidcEnv(idp.issuer, { OIDC_AUTO_CREATE: 'true' }));
  base = app.server.deps.config.baseUrl;
  await idp.start([{ ...CLIENT, redirect_uris: [callbackOf(base)] }]);
  browser = await launchBrowser();
  // Chromium runs as one process here and closing a page or context can end it: one context, its
  // cookies cleared before each test, pages left open until the browser closes.
  context = await browser.newContext();
}, 120_000);

async function freshPage(): Promise<Page> {
  await context.clearCookies();
  return context.newPage();
}
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await idp?.close();
});

/** Signs in at the provider's development pages as `accountId` and consents. */
async function throughProvider(page: Page, accountId: string): Promise<void> {
  await page.locator('input[name=login]').fill(accountId);
  await page.locator('input[name=password]').fill('any');
  await page.locator('button[type=submit]').click();
  await page.locator('button[type=submit]', { hasText: 'Continue' }).click();
}

describe('single sign-on in the browser', { timeout: 90_000 }, () => {
  it('signs a new person in and lands on returnTo', async () => {
    idp.accounts.set('grace', { email: 'grace@example.com', email_verified: true });
    const page = await freshPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/api/v1/auth/oidc/start?returnTo=${encodeURIComponent('/api/v1/auth/me')}`);
    await throughProvider(page, 'grace');
    await page.waitForURL(`${base}/api/v1/auth/me`);
    expect(JSON.parse(await page.locator('body').innerText()).data.email).toBe('grace@example.com');
    const cookies = await page.context().cookies(base);
    expect(cookies.find((c) => c.name === 'lp_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookies.find((c) => c.name === 'lp_oidc_flow')).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('asks for the password of an existing account on the link page, refuses a wrong one, then links and signs in', async () => {
    const user = await signUp(base);
    idp.accounts.set('heidi', { email: user.email, email_verified: true });
    const page = await freshPage();
    const errors = pageErrors(page);
    await page.goto(`${base}/api/v1/auth/oidc/start?returnTo=${encodeURIComponent('/api/v1/auth/me')}`);
    await throughProvider(page, 'heidi');
    await page.locator('h1', { hasText: 'Link your account' }).waitFor();
    expect(await page.locator('#email').innerText()).toBe(user.email);
    expect((await page.context().cookies(base)).find((c) => c.name === 'lp_session')).toBeUndefined();

    await page.locator('#password').fill('wrong password');
    await page.locator('button[type=submit]').click();
    await expect.poll(() => page.locator('#status').innerText()).toBe('Wrong password');
    expect(await sql(app.databaseUrl, 'select 1 from oidc_identities where user_id = $1', [user.id])).toEqual([]);

    await page.locator('#password').fill(user.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(`${base}/api/v1/auth/me`);
    expect(JSON.parse(await page.locator('body').innerText()).data.id).toBe(user.id);
    expect(await sql(app.databaseUrl, 'select subject from oidc_identities where user_id = $1', [user.id])).toEqual([{ subject: 'heidi' }]);
    expect(errors).toEqual([]);
  });

  it("shows the provider's refusal on the error page, escaped, and signs nobody in", async () => {
    const page = await freshPage();
    const errors = pageErrors(page);
    const authorize = page.waitForRequest((request) => request.url().startsWith(`${idp.issuer}/auth?`));
    await page.goto(`${base}/api/v1/auth/oidc/start`);
    const state = new URL((await authorize).url()).searchParams.get('state')!;
    const hostile = '<img src=x onerror="window.pwned=1">';
    const res = await page.goto(`${base}/api/v1/auth/oidc/callback?error=access_denied&error_description=${encodeURIComponent(hostile)}&state=${state}&iss=${encodeURIComponent(idp.issuer)}`);
    expect(res?.status()).toBe(400);
    expect(await page.locator('h1').innerText()).toBe('Single sign-on failed');
    expect(await page.locator('#message').innerText()).toContain(`access_denied (${hostile})`);
    expect(await page.locator('#message img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect((await page.context().cookies(base)).find((c) => c.name === 'lp_session')).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
