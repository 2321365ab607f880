import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { externalRequests, launchBrowser, pageErrors } from '../../test/support/browser.js';

let app: TestApp;
let browser: Browser | undefined;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'error' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('GET /graphql from a browser: the GraphQL IDE', () => {
  it('loads from local assets and runs a typed `me` query with the session cookie', async () => {
    const { client, email } = await signUp(app.url);
    const context = await browser!.newContext();
    const [name, value] = client.cookie!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.url }]);
    const page = await context.newPage();
    const outside = externalRequests(page, app.url);
    const errors = pageErrors(page);

    const res = await page.goto(`${app.url}/graphql`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor({ timeout: 30_000 });

    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('query Me { me { email } }', { delay: 10 });
    await page.keyboard.press('Escape'); // closes a completion list, if one is open
    const answered = page.waitForResponse((r) => r.url() === `${app.url}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('query Me'));
    await page.locator('.graphiql-execute-button').click();
    const response = await answered;
    expect(response.request().headers()['content-type']).toMatch(/^application\/json/);

    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 }).toContain(email);
    expect(await page.locator('.graphiql-response').innerText()).not.toContain('errors');

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it('runs a subscription over the WebSocket with the session cookie and shows each change as it comes', async () => {
    const { client } = await signUp(app.url);
    const [dayId] = (await client.post('/api/v1/weeks/generate', { startDate: '2026-11-23' })).body.data.days.map((d: { id: string }) => d.id);
    // A browser of its own: the single-process Chromium ends when another test closes its context.
    const own = await launchBrowser();
    const context = await own.newContext();
    const [name, value] = client.cookie!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${app.url}/graphql`, { waitUntil: 'load' });
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('subscription Mine { myChanges { entity kind } }', { delay: 10 });
    await page.keyboard.press('Escape');
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 }).toContain('myChanges');
    expect(sockets).toEqual([`${app.url.replace('http', 'ws')}/graphql`]);

    expect((await client.post(`/api/v1/checklist/${dayId}/toggle/GYM`, {})).status).toBe(200);
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 }).toContain('ChecklistItem');
    expect(errors).toEqual([]);
    await own.close();
  });

  it('answers API clients as before: JSON for a GET without text/html, no Apollo landing page', async () => {
    const http = new HttpClient(app.url);
    // (Apollo's CSRF prevention wants a preflight-forcing header on a GET operation.)
    const query = await http.get('/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(query.status).toBe(200);
    expect(query.body).toEqual({ data: { __typename: 'Query' } });
    // A browser-like Accept with an operation runs the operation, not the IDE.
    const browserQuery = await http.get('/graphql?query=%7B__typename%7D', { headers: { accept: 'text/html,*/*;q=0.8', 'apollo-require-preflight': 'true' } });
    expect(browserQuery.headers.get('content-type')).toMatch(/json/);
    expect(browserQuery.body).toEqual({ data: { __typename: 'Query' } });
    // A GET without an operation from an API client is Apollo's 400, not the page.
    const bare = await http.get('/graphql', { headers: { accept: 'application/json' } });
    expect(bare.status).toBe(400);
    expect(bare.headers.get('content-type')).not.toMatch(/html/);

    const ide = await http.get('/graphql', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(ide.status).toBe(200);
    expect(ide.text).not.toMatch(/apollo|https?:\/\//i);
    const sources = [...ide.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const src of sources) expect((await http.get(src)).status, src).toBe(200);
    expect((await http.get('/graphql-ide/package.json')).status).toBe(404);
  });
});
