import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { findProfile, printProfileSummary, summariseProfile, type ProfileSummary } from '../lib/cpu-profile.js';
import { probeHealth } from '../lib/health-probe.js';
import { MB, readCpuSeconds, sampleRss } from '../lib/memory.js';
import { printTable, resultsDir, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 34 item 8: imports of real exports of ordinary size, through the real API and job.
 * - a Goodreads library export of 1,200 books read over ten years (most with a Date Read, so the import
 *   makes the days and weeks of ~1,000 dates spread over ~520 weeks);
 * - a Strong workout export of 10,000 set rows (~500 workouts over four years).
 * Each in the apps' own export format (every column the apps write, their quoting), for a user of its
 * own, from upload to `done`. Reported: status, records created, time to done, the service's CPU, the
 * longest `/healthz` wait meanwhile and peak RSS. Targets of the issue: books < 20 s, workouts < 30 s.
 */
const BOOKS = Number(process.env.BENCH_EXPORT_BOOKS ?? 1_200);
const WORKOUT_ROWS = Number(process.env.BENCH_EXPORT_WORKOUT_ROWS ?? 10_000);

/** A seeded generator: the same files on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Goodreads' "Export Library" file: its 24 columns, ISBNs as `"=""…"""` (a spreadsheet formula, quoted), dates as 2019/03/14. */
export function goodreadsExport(books: number): Buffer {
  const rand = random(34_8);
  const header =
    'Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies';
  const from = Date.UTC(2015, 0, 1);
  const span = 10 * 365 * 86_400_000;
  const lines = [header];
  for (let i = 0; i < books; i++) {
    const shelf = i % 12 === 0 ? 'to-read' : i % 40 === 1 ? 'currently-reading' : 'read';
    const read = new Date(from + Math.floor(rand() * span));
    const dateRead = shelf === 'read' && i % 25 !== 2 ? `${read.getUTCFullYear()}/${pad(read.getUTCMonth() + 1)}/${pad(read.getUTCDate())}` : '';
    const added = dateRead || '2024/06/01';
    const author = `Author ${Math.floor(rand() * 400)}`;
    const [first, last] = author.split(' ');
    const title = i % 7 === 0 ? `Volume ${i}: A Story (The Series, #${(i % 9) + 1})` : `Book ${i}`;
    const isbn = String(1_000_000_000 + i * 7919).slice(0, 10);
    lines.push(
      [
        String(100_000 + i),
        csvCell(title),
        author,
        csvCell(`${last}, ${first}`),
        '',
        `"=""${isbn}"""`,
        `"=""978${isbn}"""`,
        String(shelf === 'read' ? 1 + (i % 5) : 0),
        (3 + rand() * 2).toFixed(2),
        csvCell('Penguin Books, Ltd.'),
        i % 3 ? 'Paperback' : 'Kindle Edition',
        String(120 + Math.floor(rand() * 600)),
        String(1950 + (i % 75)),
        String(1950 + (i % 75)),
        dateRead,
        added,
        shelf === 'read' ? '' : shelf,
        shelf === 'read' ? '' : `${shelf} (#${i})`,
        shelf,
        '',
        '',
        '',
        shelf === 'read' ? '1' : '0',
        '0',
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const EXERCISES = [
  'Bench Press (Barbell)',
  'Squat (Barbell)',
  'Deadlift (Barbell)',
  'Overhead Press (Barbell)',
  'Lat Pulldown (Cable)',
  'Bent Over Row (Barbell)',
  'Bicep Curl (Dumbbell)',
  'Triceps Pushdown (Cable)',
  'Lateral Raise (Dumbbell)',
  'Leg Press',
  'Pull Up',
  'Incline Bench Press (Dumbbell)',
  'Hip Thrust (Barbell)',
  'Cable Crunch',
  'Farmer Carry Variation X',
];

/** Strong's "Export Data" file: one row per set, every field quoted, durations like `1h 5m`. */
export function strongExport(rows: number): Buffer {
  const rand = random(34_9);
  const lines = ['Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE'];
  const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
  let day = Date.UTC(2021, 0, 4);
  let workout = 0;
  while (lines.length - 1 < rows) {
    day += (1 + Math.floor(rand() * 4)) * 86_400_000;
    const d = new Date(day);
    const start = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(6 + (workout % 12))}:${pad(workout % 60)}:00`;
    const name = ['Push Day', 'Pull Day', 'Leg Day', 'Full Body'][workout % 4]!;
    const duration = `${1 + (workout % 2)}h ${workout % 60}m`;
    const exercises = 4 + Math.floor(rand() * 3);
    for (let e = 0; e < exercises && lines.length - 1 < rows; e++) {
      const exercise = EXERCISES[(workout * 3 + e) % EXERCISES.length]!;
      for (let s = 1; s <= 4 && lines.length - 1 < rows; s++) {
        const order = s === 1 && e === 0 ? 'W' : String(s);
        const weight = (20 + Math.floor(rand() * 80) * 2.5).toFixed(1);
        lines.push([start, name, duration, exercise, order, weight, String(5 + Math.floor(rand() * 8)), '0', '0', s === 4 ? 'felt heavy' : '', e === 0 && s === 1 ? 'Good session' : '', s === 4 ? '8.5' : ''].map(q).join(','));
      }
    }
    workout += 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function waitDone(client: HttpClient, id: string): Promise<any> {
  for (;;) {
    const res = await client.get(`/api/v1/account/import/${id}`);
    if (res.body.data.status === 'done' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The weeks and days the user has after the import (each made week has its 7 days). */
async function weeksAndDays(databaseUrl: string, email: string): Promise<{ weeks: number; days: number }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      'select (select count(*)::int from weeks w where w.user_id = u.id) as weeks, (select count(*)::int from days d where d.user_id = u.id) as days from users u where u.email = $1',
      [email],
    );
    return rows[0] ?? { weeks: 0, days: 0 };
  } finally {
    await db.end();
  }
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  const files = [
    { label: `${BOOKS} Goodreads books over ten years`, source: 'goodreads', file: goodreadsExport(BOOKS), targetS: 20 },
    { label: `${WORKOUT_ROWS} Strong set rows`, source: 'strong', file: strongExport(WORKOUT_ROWS), targetS: 30 },
  ];
  const rows: (string | number)[][] = [];
  const results = [];
  const windows: { start: number; end: number }[] = [];
  for (const { label, source, file, targetS } of files) {
    const email = `bench-exports-${source}-${Date.now()}@example.com`;
    const { client } = await signUp(service.url, email);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), `${source}.csv`);
    const rss = sampleRss(service.pid, 100);
    const health = probeHealth(service.url);
    const cpuBefore = readCpuSeconds(service.pid);
    const windowStart = Number(process.hrtime.bigint() / 1000n);
    const started = performance.now();
    let done;
    let longestHealth = 0;
    let memory = { peak: 0 };
    try {
      const res = await fetch(`${service.url}/api/v1/account/import/${source}`, { method: 'POST', body: form, headers: { cookie: client.cookie! } });
      const posted = (await res.json()) as any;
      if (res.status !== 202) throw new Error(`${label}: ${res.status} ${JSON.stringify(posted)}`);
      done = await waitDone(client, posted.data.id);
    } finally {
      longestHealth = await health.stop();
      memory = rss.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    windows.push({ start: windowStart, end: Number(process.hrtime.bigint() / 1000n) });
    const cpuAfter = readCpuSeconds(service.pid);
    const made = await weeksAndDays(database.url, email);
    const result = {
      label,
      status: done.status,
      created: done.created,
      skipped: done.skipped,
      refusedTotal: done.refusedTotal,
      rows: done.progress.rows,
      seconds: round(seconds, 1),
      targetS,
      serviceCpuS: cpuBefore !== null && cpuAfter !== null ? round(cpuAfter - cpuBefore, 1) : null,
      longestHealthMs: round(longestHealth, 0),
      peakRssMB: round(memory.peak / MB, 0),
      weeksMade: made.weeks,
      daysMade: made.days,
    };
    results.push(result);
    rows.push([label, result.status, result.created, result.refusedTotal, result.seconds, `< ${targetS}`, result.serviceCpuS ?? '-', result.weeksMade, result.longestHealthMs, result.peakRssMB]);
  }
  console.log('');
  printTable(['file', 'status', 'created', 'refused', 'to done s', 'target s', 'service CPU s', 'weeks made', 'longest /healthz ms', 'peak RSS MB'], rows);
  const load = loadavg().map((l) => round(l, 1));
  console.log(`machine load average ${load.join(' ')}`);
  let profile: ProfileSummary | undefined;
  if (ctx.profile) {
    await service.stop(); // --cpu-prof writes the profile on exit
    const file = await findProfile(join(resultsDir, 'profiles'), service.pid);
    if (file) {
      profile = await summariseProfile(file, windows);
      printProfileSummary('service CPU profile during the imports', profile);
    } else ctx.log('WARNING: the service wrote no CPU profile');
  }
  return { scenario: 'real-exports', measuredAt: new Date().toISOString(), loadAverage: load, results, ...(profile ? { profile } : {}) };
}

const scenario: Scenario = {
  name: 'real-exports',
  description: 'issue 34 item 8: a Goodreads export of 1,200 books over ten years and a Strong export of 10,000 set rows, upload to done',
  run,
};
export default scenario;
