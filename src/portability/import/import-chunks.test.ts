import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createLogger } from '../../core/logger.js';
import { dbRows, postMultipart } from '../../files/files.test-helpers.js';
import { startServer, type RunningServer } from '../../app/server.js';
import { sql } from '../../../test/support/db.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { Job } from 'agenda';
import { IMPORT_JOB } from './import.jobs.js';
import { IMPORT_CHUNK_ROWS, ImportService } from './import.service.js';

/** Imports in committed chunks: progress, resuming after a stop or a crash without doing anything twice, one runner. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const MAPPING = JSON.stringify({ date: 'date', amount: 'amount', description: 'text' });

/** `count` bank rows, each its own day and text, so every row is a new transaction of -1.00. */
function bankCsv(count: number, text = (i: number) => `Row ${i}`): string {
  const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return `date,amount,text\n${Array.from({ length: count }, (_, i) => `${day(i)},-1.00,${text(i)}`).join('\n')}\n`;
}

async function upload(client: HttpClient, accountId: string, csv: string): Promise<string> {
  const res = await postMultipart(client, '/api/v1/account/import/transactions', { accountId, mapping: MAPPING, file: { data: Buffer.from(csv), fileName: 'bank.csv', contentType: 'text/csv' } });
  expect(res.status, res.text).toBe(202);
  return res.body.data.id;
}

async function view(client: HttpClient, id: string): Promise<any> {
  const res = await client.get(`/api/v1/account/import/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function until(client: HttpClient, id: string, done: (v: any) => boolean, ms = 30_000): Promise<any> {
  const started = Date.now();
  for (;;) {
    const v = await view(client, id);
    if (done(v)) return v;
    if (Date.now() - started > ms) throw new Error(`import ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A pending import of bank rows with no job queued for it: the test plays the runners itself. */
async function pendingImport(userId: string, accountId: string, csv: string): Promise<string> {
  const run = await new ImportService(app.server.deps.orm.em.fork()).start(userId, 'transactions', Buffer.from(csv), { accountId, mapping: MAPPING });
  return run.id;
}

async function untilTrue(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function account(client: HttpClient): Promise<string> {
  const res = await client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 0, currency: 'EUR' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

/** A second instance of the service on the same database (another process would do the same). */
async function secondInstance(databaseUrl: string, dataDir: string): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, FILE_UPLOAD_DIR: `${dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
  return startServer(config, { logger: createLogger('silent') });
}

/** A row whose insert takes `seconds` (a trigger): a window in which the import is certainly mid-way. */
async function slowRow(db: (sql: string) => Promise<unknown>, text: string, seconds: number): Promise<void> {
  await db(`create or replace function import_test_slow() returns trigger language plpgsql as $$ begin if new.description = '${text}' then perform pg_sleep(${seconds}); end if; return new; end $$`);
  await db('create trigger import_test_slow before insert on finance_transactions for each row execute function import_test_slow()');
}

describe('chunked imports', () => {
  it('shows progress, commits chunk by chunk, and counts equal rows across chunks as one run would', async () => {
    const { client } = await signUp(app.url);
    const accountId = await account(client);
    const rows = IMPORT_CHUNK_ROWS * 2 + 100;
    // Two equal rows (same day, amount, text) in different chunks: both are new, both come in.
    const csv = bankCsv(rows, (i) => (i === 5 || i === IMPORT_CHUNK_ROWS + 5 ? 'Coffee' : `Row ${i}`)).replace(/^.*,Coffee$/gm, '2020-01-06,-1.00,Coffee');
    const id = await upload(client, accountId, csv);
    const mid = await until(client, id, (v) => v.progress.done > 0);
    expect(mid.progress.rows).toBe(rows);
    const done = await until(client, id, (v) => v.status === 'done');
    expect(done).toMatchObject({ status: 'done', created: rows, skipped: 0, refused: [], refusedTotal: 0, progress: { rows, done: rows } });
    expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(-rows);
    // Again: every row (both coffees included) was there before this import started.
    const again = await until(client, await upload(client, accountId, csv), (v) => v.status === 'done');
    expect(again).toMatchObject({ created: 0, skipped: rows });
  });

  it('a shutdown stops after the chunk in progress; another instance goes on from there, writing nothing twice', async () => {
    const first = await startTestApp();
    let second: RunningServer | undefined;
    try {
      const { client } = await signUp(first.url);
      const accountId = await account(client);
      const rows = IMPORT_CHUNK_ROWS * 3;
      await slowRow((q) => sql(first.databaseUrl, q), `Row ${IMPORT_CHUNK_ROWS + 10}`, 1.5);
      const id = await upload(client, accountId, bankCsv(rows));
      await until(client, id, (v) => v.progress.done === IMPORT_CHUNK_ROWS);
      await untilTrue(async () => (await sql(first.databaseUrl, "select 1 from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'")).length > 0);
      // SIGTERM's path: the chunk in progress ends with its batch (100 bank rows, the slow one among them) and commits; the rest waits.
      await first.server.close();
      const [stopped] = await sql(first.databaseUrl, 'select status, rows_done from account_imports where id = $1', [id]);
      expect(stopped).toEqual({ status: 'pending', rows_done: IMPORT_CHUNK_ROWS + 100 });
      await sql(first.databaseUrl, 'drop trigger import_test_slow on finance_transactions; drop function import_test_slow()');

      second = await secondInstance(first.databaseUrl, first.dataDir);
      const resumed = new HttpClient(second.url);
      resumed.cookie = client.cookie;
      const done = await until(resumed, id, (v) => v.status === 'done');
      expect(done).toMatchObject({ created: rows, skipped: 0, progress: { rows, done: rows } });
      const [{ n }] = await sql(first.databaseUrl, 'select count(*)::int as n from finance_transactions where account_id = $1', [accountId]);
      expect(n).toBe(rows);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
    }
  });

  it('a run whose runner died (stale heartbeat) is taken over and resumed; a live one is never run twice', async () => {
    const { client } = await signUp(app.url);
    const accountId = await account(client);
    const rows = IMPORT_CHUNK_ROWS + 50;
    // Held back from the job runner: the test plays the runners itself.
    await dbRows(app, "update account_imports set status = 'done' where status = 'pending'");
    const id = await upload(client, accountId, bankCsv(rows));
    await dbRows(app, "delete from agenda_jobs where data->>'importId' = ?", [id]);
    const deps = app.server.deps;
    const rt = deps.files;
    const run = () => new ImportService(deps.orm.em.fork()).run(id, rt, deps.logger, { signal: new AbortController().signal, chunkMs: 5_000 });

    // As a crashed runner leaves it: running, the first chunk committed, its heartbeat fresh.
    await dbRows(app, "update account_imports set status = 'running', heartbeat_at = now(), started_at = now() where id = ?", [id]);
    expect(await run()).toBe('taken');
    expect((await view(client, id)).progress.done).toBe(0);

    // The heartbeat goes stale: the next runner takes it over and finishes it once.
    await dbRows(app, "update account_imports set heartbeat_at = now() - interval '5 minutes' where id = ?", [id]);
    expect(await run()).toBe('finished');
    expect(await view(client, id)).toMatchObject({ status: 'done', created: rows, progress: { done: rows } });
    expect(await run()).toBe('finished');
    const [{ n }] = await dbRows(app, 'select count(*)::int as n from finance_transactions where account_id = ?', [accountId]);
    expect(n).toBe(rows);
  });

  it('a chunk takes no more rows once it has run IMPORT_CHUNK_MS: it ends with the batch in progress', async () => {
    const { client, id: userId } = await signUp(app.url);
    const accountId = await account(client);
    const rows = 250; // bank rows go in batches of 100
    // Every move of an import's cursor, in order: one per committed chunk.
    await dbRows(app, 'create table if not exists import_test_cursor (import_id uuid, rows_done int, at timestamptz default clock_timestamp())');
    await dbRows(app, "create or replace function import_test_cursor() returns trigger language plpgsql as $$ begin insert into import_test_cursor (import_id, rows_done) values (new.id, new.rows_done); return new; end $$");
    await dbRows(app, 'create or replace trigger import_test_cursor after update of rows_done on account_imports for each row when (old.rows_done is distinct from new.rows_done) execute function import_test_cursor()');
    const deps = app.server.deps;
    const rt = deps.files;
    const chunksOf = async (chunkMs: number) => {
      const id = await pendingImport(userId, accountId, bankCsv(rows, (i) => `Bound ${chunkMs} ${i}`));
      expect(await new ImportService(deps.orm.em.fork()).run(id, rt, deps.logger, { signal: new AbortController().signal, chunkMs })).toBe('finished');
      expect(await view(client, id)).toMatchObject({ status: 'done', created: rows });
      return (await dbRows(app, 'select rows_done from import_test_cursor where import_id = ? order by at', [id])).map((r) => r.rows_done);
    };
    try {
      // 1 ms is over after the first batch of every chunk.
      expect(await chunksOf(1)).toEqual([100, 200, 250]);
      // Given the time, one chunk takes the whole file (under IMPORT_CHUNK_ROWS).
      expect(await chunksOf(60_000)).toEqual([250]);
    } finally {
      await dbRows(app, 'drop trigger if exists import_test_cursor on account_imports');
    }
  });

  it('a job Agenda cancels mid-import (its lock lost) stops after its chunk and queues itself again: the import finishes, nothing twice', async () => {
    const { client } = await signUp(app.url);
    const accountId = await account(client);
    const rows = IMPORT_CHUNK_ROWS * 2;
    const agenda = app.server.deps.jobs.agenda;
    const runs: Job[] = [];
    const started = (job: Job) => void runs.push(job);
    agenda.on(`start:${IMPORT_JOB}`, started);
    await slowRow((q) => dbRows(app, q), `Row ${IMPORT_CHUNK_ROWS - 10}`, 2);
    try {
      const id = await upload(client, accountId, bankCsv(rows));
      // The first chunk is writing its slow row: Agenda gives the job up, as its expiry check does.
      await untilTrue(async () => (await dbRows(app, "select 1 from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'")).length > 0);
      const job = runs.find((r) => (r.attrs.data as { importId?: string }).importId === id)!;
      job.cancel(new Error('execution took more than the lock lifetime'));
      const done = await until(client, id, (v) => v.status !== 'running' && v.status !== 'pending', 60_000);
      expect(done).toMatchObject({ status: 'done', created: rows, skipped: 0, progress: { rows, done: rows } });
      const [{ n }] = await dbRows(app, 'select count(*)::int as n from finance_transactions where account_id = ?', [accountId]);
      expect(n).toBe(rows);
      // Resumed by a job of its own.
      expect(runs.filter((r) => (r.attrs.data as { importId?: string }).importId === id).length).toBeGreaterThanOrEqual(2);
    } finally {
      agenda.off(`start:${IMPORT_JOB}`, started);
      await dbRows(app, 'drop trigger if exists import_test_slow on finance_transactions');
    }
  }, 90_000);

  it('two runners at one cursor: the chunk committed second rolls back and its runner stops; every row goes in once', async () => {
    const { client, id: userId } = await signUp(app.url);
    const accountId = await account(client);
    const rows = 150;
    const id = await pendingImport(userId, accountId, bankCsv(rows, (i) => `Twice ${i}`));
    const deps = app.server.deps;
    const rt = deps.files;
    const run = () => new ImportService(deps.orm.em.fork()).run(id, rt, deps.logger, { signal: new AbortController().signal, chunkMs: 60_000 });
    await slowRow((q) => dbRows(app, q), 'Twice 120', 1.5);
    try {
      const first = run();
      await untilTrue(async () => (await dbRows(app, "select 1 from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'")).length > 0);
      // As if the first runner had been held past the heartbeat's lifetime: a second one takes the import over.
      await dbRows(app, "update account_imports set heartbeat_at = now() - interval '5 minutes' where id = ?", [id]);
      const second = run();
      expect((await Promise.all([first, second])).sort()).toEqual(['finished', 'taken']);
      expect(await view(client, id)).toMatchObject({ status: 'done', created: rows, progress: { done: rows } });
      const [{ n }] = await dbRows(app, 'select count(*)::int as n from finance_transactions where account_id = ?', [accountId]);
      expect(n).toBe(rows);
      expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(-rows);
    } finally {
      await dbRows(app, 'drop trigger if exists import_test_slow on finance_transactions');
    }
  }, 60_000);

  it('a job run with keepingLock outlives its lock lifetime uncancelled; the same job without is cancelled', async () => {
    const { agenda } = app.server.deps.jobs;
    const jobs = app.server.deps.jobs;
    const outcomes = new Map<string, { aborted: boolean; cancelled: unknown }>();
    const longStep = (job: Job, signal?: AbortSignal) =>
      new Promise<void>((resolve) => setTimeout(resolve, 2_500)).then(() => void outcomes.set(job.attrs.name, { aborted: signal?.aborted ?? false, cancelled: job.getCanceledMessage() }));
    agenda.define('test:kept-lock', (job) => jobs.keepingLock(job, (signal) => longStep(job, signal)), { lockLifetime: 1_000 });
    agenda.define('test:plain-lock', (job) => longStep(job), { lockLifetime: 1_000 });
    await agenda.now('test:kept-lock');
    await agenda.now('test:plain-lock');
    await untilTrue(async () => outcomes.size === 2, 30_000);
    expect(outcomes.get('test:kept-lock')).toEqual({ aborted: false, cancelled: undefined });
    expect(outcomes.get('test:plain-lock')!.cancelled).toMatch(/execution took more than 1000ms/);
  });

  it('a chunk in which a rule refuses a record is written again record by record: the others go in, the refused one is listed', async () => {
    const { client } = await signUp(app.url);
    // Eleven workouts on one day: the day holds at most ten training sessions (a database cap).
    const header = 'Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE';
    const rows = Array.from({ length: 11 }, (_, i) => `2026-11-02 ${String(6 + i).padStart(2, '0')}:00:00,Session ${i},30m,Bench Press (Barbell),1,60,10,,,,,`);
    const res = await postMultipart(client, '/api/v1/account/import/strong', { file: { data: Buffer.from(`${header}\n${rows.join('\n')}\n`), fileName: 's.csv', contentType: 'text/csv' } });
    expect(res.status, res.text).toBe(202);
    const done = await until(client, res.body.data.id, (v) => v.status === 'done');
    expect(done).toMatchObject({ created: 10, skipped: 0, refusedTotal: 1, refused: [{ row: 12, reason: expect.stringMatching(/./) }] });
    expect((await client.get('/api/v1/training/sessions?limit=100')).body.data).toHaveLength(10);
  });
});
