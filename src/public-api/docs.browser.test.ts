import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { externalRequests, launchBrowser, pageErrors } from '../../test/support/browser.js';
import { publicRoutes } from '../../rest/public-routes.js';

let app: TestApp;
let browser: Browser | undefined;
beforeAll(async () => {
  app = await sharedTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the docs page in a real browser', () => {
  it('renders the reference from local assets and lists every operation', async () => {
    const page = await browser!.newPage();
    const outside = externalRequests(page, app.url);
    const errors = pageErrors(page);

    const res = await page.goto(`${app.url}/api/public/v1/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.info .title').first().innerText()).toContain('Public API');

    const operations = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    // The reference writes path parameters as OpenAPI does (`{habitId}`); the route table as Express (`:habitId`).
    const expected = Object.values(publicRoutes).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(operations.sort()).toEqual(expected.sort());
    // The bearer scheme is offered (Authorize button).
    expect(await page.locator('.btn.authorize').count()).toBeGreaterThan(0);

    // Expanding an operation shows its request body schema.
    await page.locator('.opblock-post .opblock-summary-path[data-path="/water"]').click();
    await page.waitForSelector('.opblock.is-open .opblock-section-request-body', { timeout: 10_000 });
    expect(await page.locator('.opblock.is-open').innerText()).toContain('volume');

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });
});
