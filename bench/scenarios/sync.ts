import { loadavg } from 'node:os';
import pg from 'pg';
import type { HttpClient } from '../../test/support/http-client.js';
import { readCpuSeconds } from '../lib/memory.js';
import { seedHistoryUser } from '../lib/mixed-operations.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 38 item 1 (docs/sync.md): the change feed's reads. One person is seeded through the API with
 * BENCH_SYNC_DAYS (default 365) days of history (bench/lib/mixed-operations.ts: weeks, tasks, checklist,
 * water, mood, journal, training, transactions), so every row of their feed was written by the real write
 * path. Then, each RUNS times (the median reported):
 *
 * - (a) first sync: `GET /api/v1/sync?limit=1000` from no cursor until `hasMore` is false;
 * - (b) after 1,000 changes (500 task renames, 500 water logs, made once before the runs): the sync
 *   from the cursor before them.
 *
 * Reported: wall time, pages, records and tombstones, answer bytes, and the service's CPU for the whole sync.
 */
const DAYS = Number(process.env.BENCH_SYNC_DAYS ?? 365);
const RUNS = 5;
const LIMIT = 1000;

interface SyncRun {
  ms: number;
  cpuMs: number;
  pages: number;
  records: number;
  tombstones: number;
  bytes: number;
  cursor: string;
}

async function syncAll(client: HttpClient, pid: number, since?: string): Promise<SyncRun> {
  const cpuBefore = readCpuSeconds(pid) ?? NaN;
  const started = performance.now();
  let cursor = since;
  const run = { pages: 0, records: 0, tombstones: 0, bytes: 0 };
  for (;;) {
    const res = await client.get(`/api/v1/sync?limit=${LIMIT}${cursor ? `&since=${cursor}` : ''}`, { outsideContract: true });
    if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${res.text.slice(0, 300)}`);
    const page = res.body.data;
    run.pages++;
    run.bytes += Buffer.byteLength(res.text);
    run.records += page.changes.reduce((n: number, g: { records: unknown[] }) => n + g.records.length, 0);
    run.tombstones += page.deleted.length;
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  return { ...run, ms: performance.now() - started, cpuMs: ((readCpuSeconds(pid) ?? NaN) - cpuBefore) * 1000, cursor: cursor! };
}

function median(runs: SyncRun[]): SyncRun {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database);
  ctx.log(`service pid ${service.pid}; seeding ${DAYS} days through the API…`);
  const seedStarted = Date.now();
  const { client, id } = await seedHistoryUser(service.url, DAYS, `bench-sync-${Date.now()}@example.com`);
  ctx.log(`seeded in ${round((Date.now() - seedStarted) / 1000)} s`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const feedRows = Number((await db.query('select count(*)::int as n from lp_change_feed where user_id = $1', [id])).rows[0].n);
  ctx.log(`${feedRows} feed rows`);

  for (let i = 0; i < 2; i++) await syncAll(client, service.pid); // warm-up
  const first: SyncRun[] = [];
  for (let i = 0; i < RUNS; i++) first.push(await syncAll(client, service.pid));
  const before = first[0]!.cursor;

  // 1,000 changes: 500 renames of the person's tasks and 500 water logs on today.
  const tasks = (await client.get('/api/v1/tasks?limit=100', { outsideContract: true })).body.data as { id: string }[];
  const today = (await client.get('/api/v1/days/today', { outsideContract: true })).body.data;
  for (let i = 0; i < 500; i++) await client.patch(`/api/v1/tasks/${tasks[i % tasks.length]!.id}`, { title: `renamed ${i}` }, { outsideContract: true });
  await db.query('alter table water_intakes disable trigger water_intakes_cap_insert'); // past the cap of 100 a day
  for (let i = 0; i < 500; i++) await client.graphql('mutation($d: UUID!) { logWater(dayId: $d, volume: 250) { id } }', { d: today.id });
  await db.query('alter table water_intakes enable trigger water_intakes_cap_insert');
  await db.end();
  const after: SyncRun[] = [];
  for (let i = 0; i < RUNS; i++) after.push(await syncAll(client, service.pid, before));

  const rows = [
    ['(a) first sync, a year of data', median(first)],
    ['(b) sync after 1,000 changes', median(after)],
  ] as const;
  console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores)`);
  printTable(
    ['sync', 'ms', 'service cpu ms', 'pages', 'records', 'tombstones', 'answer kB'],
    rows.map(([name, r]) => [name, round(r.ms), round(r.cpuMs), r.pages, r.records, r.tombstones, round(r.bytes / 1024)]),
  );
  return { days: DAYS, feedRows, limit: LIMIT, first: median(first), afterChanges: median(after), loadAverage: loadavg() };
}

const scenario: Scenario = {
  name: 'sync',
  description: 'Issue 38: the change feed: a first sync of a year of data, a sync after 1,000 changes',
  run,
};
export default scenario;
