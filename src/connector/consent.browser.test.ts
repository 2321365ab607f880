import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan } from '../../test/support/db.js';
import { externalRequests, launchBrowser, pageErrors } from '../../test/support/browser.js';
import { startConnectorApp } from './connector.test-helpers.js';

let app: TestApp;
let base: string;
let browser: Browser | undefined;
/** The assistant's redirect URI: a local page recording the query it was sent back with. */
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
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await app?.close();
});

async function registerClient(name: string): Promise<string> {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [callbackUrl], token_endpoint_auth_method: 'none' }),
  });
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string, challenge: string, state: string): string {
  const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callbackUrl, code_challenge: challenge, code_challenge_method: 'S256', state, resource: `${base}/mcp` });
  return `${base}/authorize?${params}`;
}

describe('the consent step in a real browser', () => {
  it('signs in, names the client, and Allow sends the code back; the code gets tokens', async () => {
    const user = await signUp(base);
    await setPlan(app.databaseUrl, user.id, 'pro');
    const clientId = await registerClient('Browser <Assistant> & Co');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');

    const context = await browser!.newContext();
    const page = await context.newPage();
    const errors = pageErrors(page);
    const outside = externalRequests(page, base);
    const res = await page.goto(authorizeUrl(clientId, challenge, 'browser-state'), { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Sign in');
    expect(await page.locator('body').innerText()).toContain('Browser <Assistant> & Co');

    await page.fill('#email', user.email);
    await page.fill('#password', 'not the password');
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    expect(await page.locator('[role=alert]').innerText()).toMatch(/invalid|credentials|password/i);

    await page.fill('#password', user.password);
    await Promise.all([page.waitForURL(/\/authorize\?/), page.click('button[type=submit]')]);
    expect(await page.locator('#client-name').innerText()).toBe('Browser <Assistant> & Co');
    expect(await page.locator('body').innerText()).toContain(user.email);
    // Every area ticked and read-and-write by default (the client named no scope); the person narrows it.
    expect(await page.locator('input[name=areas]').count()).toBe(7);
    expect(await page.locator('input[name=areas]:checked').count()).toBe(7);
    expect(await page.locator('input[name=access][value=write]').isChecked()).toBe(true);
    await page.uncheck('input[name=areas][value=money]');
    await page.check('input[name=access][value=read]');

    await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[name=decision][value=approve]')]);
    expect(await page.locator('#done').innerText()).toBe('back at the assistant');
    const back = received.at(-1)!;
    expect(back.get('state')).toBe('browser-state');
    const code = back.get('code')!;
    expect(code).toMatch(/^lpac_/);

    const tokens = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: callbackUrl }).toString(),
    });
    expect(tokens.status).toBe(200);
    const issued = (await tokens.json()) as { access_token: string; scope: string };
    expect(issued.access_token).toMatch(/^lpat_/);
    expect(issued.scope).toBe('planning:read health:read food:read journal:read people:read projects:read');
    const connections = await user.client.get('/api/v1/connections');
    expect(connections.body.data[0].scopes).toEqual(issued.scope.split(' '));

    // A client naming scopes gets them pre-ticked (and only them).
    const narrow = new URL(authorizeUrl(clientId, challenge, 'scoped'));
    narrow.searchParams.set('scope', 'food:write');
    await page.goto(narrow.href, { waitUntil: 'load' });
    expect(await page.locator('input[name=areas]:checked').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value))).toEqual(['food']);
    expect(await page.locator('input[name=access][value=write]').isChecked()).toBe(true);

    // Signed in now: the next authorization goes straight to consent, and Deny says so to the client.
    await page.goto(authorizeUrl(clientId, challenge, 'second'), { waitUntil: 'load' });
    await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[name=decision][value=deny]')]);
    expect(received.at(-1)!.get('error')).toBe('access_denied');
    expect(received.at(-1)!.get('state')).toBe('second');

    expect(errors).toEqual([]);
    expect(outside.filter((u) => !u.startsWith(callbackUrl))).toEqual([]);
    await context.close();
  });
});
