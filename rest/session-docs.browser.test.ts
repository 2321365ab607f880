import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../test/support/test-app.js';
import { externalRequests, launchBrowser, pageErrors } from '../test/support/browser.js';
import { sessionRoutes } from './session-routes.js';

let app: TestApp;
let browser: Browser | undefined;
beforeAll(async () => {
  app = await sharedTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Session API docs page in a real browser', () => {
  it('renders the reference from local assets, lists every route and shows a route\'s parameters and body', async () => {
    const page = await browser!.newPage();
    const outside = externalRequests(page, app.url);
    const errors = pageErrors(page);

    const res = await page.goto(`${app.url}/api/v1/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    expect(await page.locator('.info .title').first().innerText()).toContain('Session API');

    // The operations the page shows, from Swagger UI's own state: past ~150 operations it renders only those
    // near the viewport, so the DOM never holds them all at once.
    const operations = await page.evaluate(() =>
      ((window as any).ui.specSelectors.operations().toJS() as { method: string; path: string }[]).map((o) => `${o.method.toUpperCase()} ${o.path}`),
    );
    const bytes = ['POST /files/upload', 'GET /files/{fileId}/download', 'GET /files/{fileId}/content', 'POST /body-composition/photos', 'GET /transactions/export', 'POST /account/export', 'GET /account/export/{exportId}', 'GET /account/export/{exportId}/download', 'GET /brain/export', 'GET /brain/public/forms/{publicSlug}', 'POST /brain/public/forms/{publicSlug}/submit', 'POST /account/import/{source}', 'GET /account/import/{importId}', 'DELETE /account', 'GET /events/stream', 'GET /auth/oidc/start', 'GET /auth/oidc/callback', 'POST /auth/oidc/link'];
    // Templates that differ only by parameter names are one in the document (OpenAPI 3 forbids both).
    const merged: Record<string, string> = {
      '/weeks/{startDate}': '/weeks/{startDateOrWeekId}',
      '/weeks/{weekId}': '/weeks/{startDateOrWeekId}',
      '/account/import/{source}': '/account/import/{sourceOrImportId}',
      '/account/import/{importId}': '/account/import/{sourceOrImportId}',
    };
    const expected = [...Object.values(sessionRoutes).map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`), ...bytes].map((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return `${method} ${merged[path] ?? path}`;
    });
    expect(operations.sort()).toEqual(expected.sort());
    // The session cookie scheme is offered (Authorize button).
    expect(await page.locator('.btn.authorize').count()).toBeGreaterThan(0);

    // Expanding PATCH /tasks/{taskId} shows its path parameter and its body.
    const taskPatch = page.locator('.opblock-patch .opblock-summary-path[data-path="/tasks/{taskId}"]');
    for (let i = 0; i < 200 && !(await taskPatch.count()); i++) await page.mouse.wheel(0, 600); // scrolled into rendering
    await taskPatch.click();
    await page.waitForSelector('.opblock.is-open .opblock-section-request-body', { timeout: 10_000 });
    const open = await page.locator('.opblock.is-open').innerText();
    expect(open).toContain('taskId');
    expect(open).toContain('title');
    expect(open).toContain('404');

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });
});
