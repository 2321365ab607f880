import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { recordStatements } from './statement-counter.js';
import { startScheduled } from '../../src/core/scheduled-work.js';
import { BOOK_RECURRING_TRANSACTIONS_JOB } from '../../src/finance/finance.jobs.js';

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

it('leaves out the scheduled work that shares the ORM\'s connections (a recurring job), even when its timer fires during the recording', async () => {
  const orm = app.server.orm;
  let fired!: Promise<unknown>;
  // As the job runner starts Agenda's poll: a timer made in the scheduled scope runs in it later.
  await startScheduled(async () => {
    fired = new Promise((resolve) => setTimeout(() => resolve(orm.em.fork().getConnection().execute("select 'job' as scheduled")), 20));
  });
  const recorder = recordStatements();
  try {
    await fired;
    await orm.em.fork().getConnection().execute("select 'request' as served");
  } finally {
    recorder.stop();
  }
  expect(recorder.statements).toEqual(["select 'request' as served"]);
});

it("leaves out a job the job runner runs on the ORM's connections (the recurring transactions)", async () => {
  const { agenda } = app.server.deps.jobs;
  const recorder = recordStatements();
  try {
    const completed = new Promise((resolve) => agenda.once(`complete:${BOOK_RECURRING_TRANSACTIONS_JOB}`, resolve));
    await agenda.now(BOOK_RECURRING_TRANSACTIONS_JOB);
    await completed;
  } finally {
    recorder.stop();
  }
  expect(recorder.statements).toEqual([]);
});
