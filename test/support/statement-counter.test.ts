import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { recordStatements } from './statement-counter.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

it("records the statements of the app's request connections, not those of a pool beside them (the background engines') nor the test's own", async () => {
  // As the job runner and the reminder and webhook engines read: a pg.Pool of their own.
  const beside = new pg.Pool({ connectionString: app.databaseUrl, max: 1 });
  const own = new pg.Client({ connectionString: app.databaseUrl });
  await own.connect();
  const recorder = recordStatements();
  try {
    await beside.query("select 'background' as beside");
    await own.query("select 'test' as own");
    await app.server.orm.em.fork().getConnection().execute("select 'request' as served");
  } finally {
    recorder.stop();
    await beside.end();
    await own.end();
  }
  expect(recorder.statements).toEqual(["select 'request' as served"]);
});
