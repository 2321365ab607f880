import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient } from '../../test/support/http-client.js';
import { externalRequests, launchBrowser, pageErrors } from '../../test/support/browser.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

let app: TestApp;
let browser: Browser | undefined;
beforeAll(async () => {
  app = await sharedTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LINKS = ['/api/v1/docs', '/api/v1/openapi.yaml', '/api/public/v1/docs', '/api/public/v1/openapi.yaml', '/graphql', '/healthz'];

describe('GET /', () => {
  it('shows browsers a page with the name, the version and working links to the docs, the GraphQL IDE and /healthz', async () => {
    const page = await browser!.newPage();
    const outside = externalRequests(page, app.url);
    const errors = pageErrors(page);
    const res = await page.goto(`${app.url}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    const heading = await page.locator('h1').innerText();
    expect(heading).toContain(pkg.name);
    expect(heading).toContain(pkg.version);
    const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(LINKS));

    // Following the links in the browser reaches the docs and the IDE.
    await page.locator('a[href="/api/v1/docs"]').click();
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    await page.goBack();
    await page.locator('a[href="/graphql"]').first().click();
    await page.locator('.graphiql-query-editor').waitFor({ timeout: 30_000 });

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  it('answers API clients JSON with the same links', async () => {
    const http = new HttpClient(app.url);
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await http.get('/', accept ? { headers: { accept } } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('vary')).toMatch(/Accept/i);
      expect(res.body.ok).toBe(true);
      expect(res.body.data).toMatchObject({ name: pkg.name, version: pkg.version });
      const hrefs = res.body.data.links.map((l: { href: string }) => l.href);
      expect(hrefs).toEqual(expect.arrayContaining(LINKS));
      for (const link of res.body.data.links) expect(link).toEqual({ rel: expect.any(String), href: expect.any(String), title: expect.any(String) });
    }
    for (const href of LINKS) {
      const res = await http.get(href, { headers: { accept: 'text/html' } });
      expect(res.status, href).toBe(200);
    }
  });
});
