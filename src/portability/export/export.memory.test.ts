import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../core/database/provision.js';
import { sql } from '../../../test/support/db.js';
import { weekDayIds } from '../../../test/support/fixtures.js';
import { signUp } from '../../../test/support/http-client.js';
import { startServiceProcess, type ServiceProcess } from '../../../test/support/service-process.js';
import { getBytes, pathOf, runExport } from './export.test-helpers.js';
import { unzip } from '../../../test/support/zip.js';

/**
 * 20,000 records of one user through the real job in a service process of its own, whose resident
 * memory (VmRSS in /proc/<pid>/status) is sampled every 20 ms while the export runs. The growth is
 * the highest sample minus the process's resident size just before the export started (after a
 * warm-up export, so loading the export's code is not counted).
 */
const COUNTS = { tasks: 8000, water_intakes: 4000, finance_transactions: 4000, journal_entries: 2000, mood_entries: 2000 };
const TOTAL = Object.values(COUNTS).reduce((a, b) => a + b, 0);
const LIMIT_BYTES = 100 * 1024 * 1024;

let service: ServiceProcess;
let databaseUrl: string;
let dbName: string;
let dataDir: string;

async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** `n` copies of a template row (new ids, `text` columns made unique and long): one INSERT … SELECT. */
async function copies(table: string, templateId: string, n: number, textColumn: string | null): Promise<void> {
  const rows = await sql(databaseUrl, 'SELECT column_name, character_maximum_length FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [table]);
  const columns = rows.map((r) => r.column_name as string);
  const select = rows.map(({ column_name: c, character_maximum_length: max }) => {
    if (c === 'id') return 'gen_random_uuid()';
    if (c === textColumn) return `left("${c}" || ' #' || g || ' ' || repeat('lorem ipsum ', 100), ${Number(max ?? 1200)})`;
    return `"${c}"`;
  });
  // Far past the per-day caps (docs/security.md, "Caps on lists") on one day: the volume an export must stream, copied
  // with the cap triggers off, as rows stored before the caps would be.
  await sql(databaseUrl, `ALTER TABLE "${table}" DISABLE TRIGGER USER`);
  await sql(databaseUrl, `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}", generate_series(1, ${n}) g WHERE id = $1`, [templateId]);
  await sql(databaseUrl, `ALTER TABLE "${table}" ENABLE TRIGGER USER`);
}

beforeAll(async () => {
  const serverUrl = inject('dbServerUrl');
  dbName = `lp_exp_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  databaseUrl = await createDatabase(serverUrl, dbName, inject('dbTemplate'));
  dataDir = await mkdtemp(join(tmpdir(), 'lp-export-mem-'));
  service = await startServiceProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    FILE_UPLOAD_DIR: join(dataDir, 'uploads'),
    JWT_SECRET: 'export-memory-test-secret-0123456789abcdef',
    DISABLE_RATE_LIMIT: 'true',
  });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  if (databaseUrl) await dropDatabase(inject('dbServerUrl'), dbName);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it(`exports ${TOTAL} records with the service's resident memory growing by less than 100 MB`, async () => {
  const { client: alice } = await signUp(service.url);
  const [day] = await weekDayIds(alice, '2026-05-04');
  const template = async (res: { status: number; text: string; body: any }) => {
    expect([200, 201], res.text).toContain(res.status);
    return (res.body.data?.id ?? res.body.data) as string;
  };
  const task = await template(await alice.post('/api/v1/tasks', { title: 'bulk task', description: 'long', timebox: 25, dayId: day }));
  const account = await template(await alice.post('/api/v1/accounts', { name: 'bank', type: 'checking', currency: 'EUR' }));
  const transaction = await template(await alice.post('/api/v1/transactions', { accountId: account, amount: -3.2, description: 'coffee', date: '2026-05-04' }));
  const water = (await alice.graphql('mutation($d: UUID!) { logWater(dayId: $d, volume: 250, notes: "glass") { id } }', { d: day })).body.data.logWater.id;
  const mood = (await alice.graphql('mutation($d: UUID!) { logMood(dayId: $d, mood: 6, energy: 5, notes: "fine") { id } }', { d: day })).body.data.logMood.id;
  const questions = (await alice.get('/api/v1/journal/questions')).body.data;
  const entry = await template(await alice.post('/api/v1/journal/entries', { dayId: day, questionId: questions[0].id, answer: 'an answer' }));
  await copies('tasks', task, COUNTS.tasks, 'description');
  await copies('water_intakes', water, COUNTS.water_intakes, 'notes');
  await copies('finance_transactions', transaction, COUNTS.finance_transactions, 'description');
  await copies('journal_entries', entry, COUNTS.journal_entries, 'answer');
  await copies('mood_entries', mood, COUNTS.mood_entries, 'notes');

  // Warm-up: another user's (small) export loads the export's code paths first.
  const { client: warm } = await signUp(service.url);
  expect((await runExport(warm)).status).toBe('done');

  const before: number[] = [];
  for (let i = 0; i < 10; i++) {
    before.push(await rss(service.pid));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const baseline = Math.max(...before);
  let peak = baseline;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rss(service.pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = Date.now();
  const finished = await runExport(alice, 300_000);
  const seconds = (Date.now() - started) / 1000;
  sampling = false;
  await sampler;
  const growth = peak - baseline;
  console.log(
    `export of ${TOTAL} records: ${seconds.toFixed(1)} s, RSS before ${(baseline / 2 ** 20).toFixed(1)} MB, ` +
      `peak ${(peak / 2 ** 20).toFixed(1)} MB, growth ${(growth / 2 ** 20).toFixed(1)} MB`,
  );
  expect(finished.status).toBe('done');
  expect(growth).toBeLessThan(LIMIT_BYTES);

  const zip = await getBytes(alice, pathOf(finished.url!));
  expect(zip.status).toBe(200);
  const entries = await unzip(zip.body);
  console.log(`archive ${(zip.body.length / 2 ** 20).toFixed(1)} MB, data.json ${(entries.get('data.json')!.length / 2 ** 20).toFixed(1)} MB, ${entries.size} entries`);
  const data = JSON.parse(entries.get('data.json')!.toString('utf8'));
  expect(data.tasks.tasks).toHaveLength(COUNTS.tasks + 1);
  expect(data.wellness.water).toHaveLength(COUNTS.water_intakes + 1);
  expect(data.finance.transactions).toHaveLength(COUNTS.finance_transactions + 1);
  expect(data.journal.entries).toHaveLength(COUNTS.journal_entries + 1);
  expect(data.wellness.mood).toHaveLength(COUNTS.mood_entries + 1);
  expect(new Set(data.tasks.tasks.map((t: { id: string }) => t.id)).size).toBe(COUNTS.tasks + 1);
  expect(parse(entries.get('tasks.csv')!, { columns: true })).toHaveLength(COUNTS.tasks + 1);
  expect([...entries.keys()].filter((n) => n.startsWith('journal/'))).toHaveLength(COUNTS.journal_entries + 1);
}, 600_000);
