import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { startServiceProcess } from './service-process.js';

// A separate process on the test app's database: it starts like `npm start` and stops cleanly on SIGTERM.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

it('starts as its own process and exits 0 on SIGTERM', async () => {
  const service = await startServiceProcess({ DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir });
  const health = await fetch(`${service.url}/readyz`);
  expect(health.status).toBe(200);
  expect(await service.stop()).toBe(0);
});
