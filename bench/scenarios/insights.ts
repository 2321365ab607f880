import 'reflect-metadata';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { connectAppOrm } from '../../src/app/database.js';
import { addDays, mondayOf, todayIn } from '../../src/core/dates.js';
import { runNightlyInsights, BATCH_PEOPLE, type NightlyRun } from '../../src/insights/nightly-insights.js';
import { aggregateSelect } from '../../src/insights/daily-sources.queries.js';
import { MB } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { cloneUsers } from '../lib/mixed-users.js';

/**
 * Issue 37: the nightly insights job for PEOPLE people with a year of data each. One person is made
 * through the API (account, a year of generated weeks, a book, an account) and given a year of entries
 * in a few SQL statements (sleep, mood and energy on the days, steps, water, sleep entries with
 * bedtimes, reading, cardio and gym sessions with sets, tasks done and deferred, expenses by category,
 * happenings); that person is copied to the others (bench/lib/mixed-users.ts's cloneUsers). Then the job runs in this
 * process on its own ORM as the Agenda job runs it, run after run until nobody is due: the first night
 * builds each person's whole year, the second only the last weeks. Reported: wall time, this process's
 * CPU, peak RSS (sampled every 50 ms) and the longest event-loop delay (the 50 ms rule).
 *
 * BENCH_INSIGHTS_PEOPLE (default 1000), BENCH_INSIGHTS_DAYS (default 365). BENCH_INSIGHTS_EXPLAIN=1 first prints
 * PostgreSQL's plan (EXPLAIN ANALYZE) of one batch's aggregate SELECT over a whole year.
 */
const PEOPLE = Number(process.env.BENCH_INSIGHTS_PEOPLE ?? 1000);
const DAYS = Number(process.env.BENCH_INSIGHTS_DAYS ?? 365);

/** A year of one person's entries, set-based, on their generated days from `from` to `to`. */
async function fillYear(databaseUrl: string, userId: string, from: string, to: string, bookId: string, accountId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const days = `select id, user_id, date from days where user_id = $1 and date between $2::date and $3::date`;
  const run = (text: string) => db.query(text, [userId, from, to]);
  try {
    await db.query('select setseed(0.37)');
    // Sleep drives mood (a planted relation the job should find); energy and the rest are noise.
    await run(`update days set sleep_hours = round((5.5 + random() * 3.5) * 2) / 2, energy = 1 + floor(random() * 10) where user_id = $1 and date between $2::date and $3::date`);
    await run(`update days set mood = least(10, greatest(1, round(sleep_hours - 1 + random() * 2))) where user_id = $1 and date between $2::date and $3::date`);
    await run(`insert into sleep_entries (id, created_at, updated_at, user_id, day_id, duration, bedtime)
               select gen_random_uuid(), now(), now(), d.user_id, d.id, x.sleep_hours, (d.date - 1)::timestamp + interval '22 hours' + random() * interval '150 minutes'
               from (${days}) d join days x on x.id = d.id`);
    await run(`insert into steps_entries (id, created_at, updated_at, user_id, day_id, steps, time) select gen_random_uuid(), now(), now(), user_id, id, (3000 + random() * 9000)::int, date + interval '20 hours' from (${days}) d`);
    await run(`insert into water_intakes (id, created_at, updated_at, user_id, day_id, volume, time) select gen_random_uuid(), now(), now(), user_id, id, 250 * (2 + floor(random() * 8)), date + interval '12 hours' from (${days}) d`);
    await db.query(
      `insert into reading_sessions (id, created_at, updated_at, user_id, day_id, book_id, pages_read, duration, pages_added)
       select gen_random_uuid(), now(), now(), user_id, id, $4, 10, (10 + random() * 50)::int, 0 from (${days}) d where random() < 0.5`,
      [userId, from, to, bookId],
    );
    await run(`insert into cardio_sessions (id, created_at, updated_at, user_id, day_id, type, duration, intensity, start_time) select gen_random_uuid(), now(), now(), user_id, id, 'run', 30, 5, date + interval '7 hours' from (${days}) d where random() < 0.2`);
    await run(`insert into training_sessions (id, created_at, updated_at, user_id, day_id, split, start_time) select gen_random_uuid(), now(), now(), user_id, id, 'Push', date + interval '18 hours' from (${days}) d where random() < 0.3`);
    await run(`insert into training_exercises (id, created_at, updated_at, user_id, session_id, exercise_name, position)
               select gen_random_uuid(), now(), now(), t.user_id, t.id, 'Bench press', n from training_sessions t cross join generate_series(1, 3) n where t.user_id = $1 and $2::date <= $3::date`);
    await run(`insert into training_sets (id, created_at, updated_at, user_id, training_exercise_id, set_number, reps, load)
               select gen_random_uuid(), now(), now(), e.user_id, e.id, n, 5 + floor(random() * 6), 40 + floor(random() * 60) from training_exercises e cross join generate_series(1, 3) n where e.user_id = $1 and $2::date <= $3::date`);
    await run(`insert into tasks (id, created_at, updated_at, user_id, title, timebox, status, day_id, completed_at, deferred_at)
               select gen_random_uuid(), now(), now(), user_id, 'Task', 30, s, id, case when s = 'done' then date + interval '15 hours' end, case when s = 'deferred' then date + interval '16 hours' end
               from (${days}) d cross join lateral (select case when random() < 0.8 then 'done' else 'deferred' end as s from generate_series(1, 3)) k`);
    await db.query(
      `insert into finance_transactions (id, created_at, updated_at, user_id, account_id, amount, category, date)
       select gen_random_uuid(), now(), now(), user_id, $4, -round((random() * 40)::numeric, 2), (array['food', 'transport', 'fun'])[1 + floor(random() * 3)], date
       from (${days}) d cross join generate_series(1, 2) where random() < 0.7`,
      [userId, from, to, accountId],
    );
    await run(`insert into social_happenings (id, created_at, updated_at, user_id, day_id, title, start_time, end_time, guest_ids, item_ids)
               select gen_random_uuid(), now(), now(), user_id, id, 'Dinner', date + interval '19 hours', date + interval '21 hours', '[]', '[]' from (${days}) d where random() < 0.15`);
  } finally {
    await db.end();
  }
}

/** PostgreSQL's plan of one batch's aggregate (BATCH_PEOPLE people, `from` to `to`), with its timings. */
async function explainBatch(databaseUrl: string, from: string, to: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('analyze');
    const { rows: people } = await db.query('select id from users order by id limit $1', [BATCH_PEOPLE]);
    const ids = people.map((p) => p.id as string);
    const { rows } = await db.query(`explain (analyze, buffers, costs off) ${aggregateSelect()}`, [ids, ids.map(() => from), ids.map(() => to), ids.map(() => 'UTC')]);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  } finally {
    await db.end();
  }
}

interface NightResult {
  label: string;
  runs: number;
  run: NightlyRun;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  maxLoopDelayMs: number;
}

/** Runs the job until nobody is due at `now`, measuring it. */
async function night(label: string, em: Parameters<typeof runNightlyInsights>[0], now: Date): Promise<NightResult> {
  const total: NightlyRun = { people: 0, days: 0, tests: 0, insights: 0, batches: 0, slowestPersonMs: 0, more: true };
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let runs = 0;
  while (total.more) {
    const run = await runNightlyInsights(em.fork(), { now });
    runs++;
    for (const key of ['people', 'days', 'tests', 'insights', 'batches'] as const) total[key] += run[key];
    total.slowestPersonMs = Math.max(total.slowestPersonMs, run.slowestPersonMs);
    total.more = run.more;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  loop.disable();
  clearInterval(sampler);
  return { label, runs, run: total, seconds, cpuSeconds: (used.user + used.system) / 1e6, peakRssMb: peak / MB, maxLoopDelayMs: loop.max / 1e6 };
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database);
  const today = todayIn('UTC');
  const from = addDays(today, -DAYS);
  const template = await signUp(service.url, `bench-insights-${Date.now()}@example.com`);
  for (let monday = mondayOf(from); monday <= today; monday = addDays(monday, 7)) {
    const res = await template.client.post('/api/v1/weeks/generate', { startDate: monday });
    if (res.status !== 200 && res.status !== 201) throw new Error(`week ${monday}: ${res.status} ${res.text}`);
  }
  const book = await template.client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 100000 });
  const account = await template.client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 0, currency: 'EUR' });
  let started = performance.now();
  await fillYear(database.url, template.id, from, today, book.body.data.id, account.body.data.id);
  ctx.log(`one person's year seeded in ${round((performance.now() - started) / 1000, 1)} s`);
  started = performance.now();
  await cloneUsers(database.url, template.id, PEOPLE - 1);
  ctx.log(`copied to ${PEOPLE} people in ${round((performance.now() - started) / 1000, 1)} s`);
  const counts = await (async () => {
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query(`select (select count(*) from days)::int as days, (select count(*) from tasks)::int as tasks, (select count(*) from finance_transactions)::int as transactions, (select count(*) from training_sets)::int as sets`);
      return rows[0] as Record<string, number>;
    } finally {
      await db.end();
    }
  })();
  ctx.log(`rows: ${JSON.stringify(counts)}`);
  await service.stop();
  if (process.env.BENCH_INSIGHTS_EXPLAIN) await explainBatch(database.url, from, addDays(today, -1));

  const orm = await connectAppOrm(database.url, { pool: { min: 0, max: 4 } });
  try {
    const first = await night('first night (a whole year each)', orm.em, new Date(`${addDays(today, 1)}T04:00:00.000Z`));
    const second = await night('next night (the last weeks)', orm.em, new Date(`${addDays(today, 2)}T04:00:00.000Z`));
    console.log('');
    printTable(
      ['night', 'people', 'person-days written', 'tests', 'insights', 'batches', 'job runs', 'seconds', 'CPU s (this process)', 'peak RSS MB', 'max loop delay ms', 'slowest person ms'],
      [first, second].map((n) => [n.label, n.run.people, n.run.days, n.run.tests, n.run.insights, n.run.batches, n.runs, round(n.seconds, 1), round(n.cpuSeconds, 1), round(n.peakRssMb, 0), round(n.maxLoopDelayMs, 0), round(n.run.slowestPersonMs, 0)]),
    );
    console.log(`load average ${loadavg().map((l) => round(l, 1)).join(' ')} (2 cores here; a busy machine stretches the seconds)`);
    return { people: PEOPLE, days: DAYS, rows: counts, nights: [first, second] };
  } finally {
    await orm.close();
  }
}

const scenario: Scenario = {
  name: 'insights',
  description: 'the nightly insights job for 1,000 people with a year of data: time and peak memory',
  run,
};
export default scenario;
