import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { publicRoutes } from '../../rest/public-routes.js';

/** Debian's chromium (CI installs it: see .ci/run). */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let app: TestApp;
let profile: string;
let browser: BrowserContext | undefined;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the docs browser test`);
  }
  app = await startTestApp();
  profile = await mkdtemp(join(tmpdir(), 'lp-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
});
afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await app?.close();
});

describe('the docs page in a real browser', () => {
  it('renders the reference from local assets and lists every operation', async () => {
    const page = await browser!.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app.url)) outside.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const res = await page.goto(`${app.url}/api/public/v1/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.info .title').first().innerText()).toContain('Public API');

    const operations = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    const expected = Object.values(publicRoutes).map((r) => `${r.method} ${r.path}`);
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
