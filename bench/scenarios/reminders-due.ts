import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { Receiver } from '../../src/webhooks/webhooks.test-receiver.js';
import { join } from 'node:path';
import { findProfile, printProfileSummary, summariseProfile, type ProfileSummary } from '../lib/cpu-profile.js';
import { probeHealth } from '../lib/health-probe.js';
import { MB, readCpuSeconds, sampleRss } from '../lib/memory.js';
import { percentile, printTable, resultsDir, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Reads `path` with the session cookie in a loop until stopped: their latencies (ms). */
function probeReads(url: string, cookie: string, pauseMs = 50): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(url, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

/** Users, each with one reminder falling due in the same minute (BENCH_REMINDER_USERS). */
const USERS = Number(process.env.BENCH_REMINDER_USERS ?? 10_000);

/** Rows of a session or a secret are not copied, nor the event log. */
const NOT_CLONED = new Set(['users', 'login_sessions', 'api_keys', 'auth_tokens', 'event_outbox', 'webhook_endpoints', 'webhook_deliveries', 'reminder_deliveries']);

/**
 * Copies the template user's rows (every table with a user_id) to `count` new users, ids remapped as
 * md5(old id, new user) so the copied relations hold (the reminder's target is the copied task), with
 * foreign-key triggers off during the copy (as the `mixed` scenario does).
 */
async function cloneUsers(databaseUrl: string, templateId: string, count: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(`set local session_replication_role = replica`);
    await db.query(`create temp table clone_users on commit drop as select n, gen_random_uuid() as new_id from generate_series(1, $1::int) as n`, [count]);
    const { rows: columns } = await db.query<{ table_name: string; column_name: string; udt_name: string }>(
      `select c.table_name, c.column_name, c.udt_name from information_schema.columns c
         join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema and t.table_type = 'BASE TABLE'
        where c.table_schema = 'public' and c.is_generated = 'NEVER' order by c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, { name: string; uuid: boolean }[]>();
    for (const c of columns) {
      if (!tables.has(c.table_name)) tables.set(c.table_name, []);
      tables.get(c.table_name)!.push({ name: c.column_name, uuid: c.udt_name === 'uuid' });
    }
    const owned = [...tables].filter(([name, cols]) => !NOT_CLONED.has(name) && cols.some((c) => c.name === 'user_id') && cols.some((c) => c.name === 'id'));
    await db.query(`create temp table clone_ids on commit drop as ${owned.map(([name]) => `select id from "${name}" where user_id = $1`).join(' union all ')}`, [templateId]);
    await db.query(`create index on clone_ids (id)`);
    const remap = (col: string) =>
      `case when t."${col}" = $1 then c.new_id when exists (select 1 from clone_ids i where i.id = t."${col}") then md5(t."${col}"::text || c.new_id::text)::uuid else t."${col}" end`;
    const userCols = tables.get('users')!.map((c) => c.name);
    await db.query(
      `insert into users (${userCols.map((c) => `"${c}"`).join(', ')})
       select ${userCols.map((c) => (c === 'id' ? 'c.new_id' : c === 'email' ? `'reminders-' || c.n || '-' || u.email` : `u."${c}"`)).join(', ')}
         from users u cross join clone_users c where u.id = $1`,
      [templateId],
    );
    for (const [table, cols] of owned) {
      const list = cols.map((c) => `"${c.name}"`).join(', ');
      const values = cols.map((c) => (c.uuid ? remap(c.name) : `t."${c.name}"`)).join(', ');
      await db.query(`insert into "${table}" (${list}) select ${values} from "${table}" t cross join clone_users c where t.user_id = $1`, [templateId]);
    }
    await db.query('commit');
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await db.end();
  }
}

/**
 * Issue 26: USERS users, each with one `task_at_time` reminder on a task of theirs, all due in the same
 * minute, sent by one instance over the push URL channel to a local HTTP receiver (the bench's own
 * process). The template user is made through the API (task, reminder, push URL), copied by SQL, then
 * every reminder is set due at the next whole minute. Lateness = arrival at the receiver − due time
 * (same clock); rate = reminders ÷ (last arrival − due time). Also: the service's CPU during the
 * burst, its peak RSS, and the longest `/healthz` round trip meanwhile (how long its event loop was held).
 */
async function run(ctx: ScenarioContext) {
  const receiver = await Receiver.listen({});
  ctx.defer(() => receiver.close());
  const database = await ctx.database();
  const service = await ctx.startService(database, { REMINDER_ALLOW_PRIVATE_URLS: 'true' });
  ctx.log(`service pid ${service.pid} at ${service.url}; receiver at ${receiver.url}; ${USERS} users`);

  const user = await signUp(service.url, `reminders-template-${Date.now()}@example.com`);
  const path = receiver.endpoint();
  await user.client.patch('/api/v1/notifications/settings', { pushUrl: receiver.url + path });
  const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const monday = new Date(`${date}T00:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  const week = await generateWeek(user.client, monday.toISOString().slice(0, 10));
  const day = week.days.find((d: { date: string }) => d.date === date);
  const task = (await user.client.post('/api/v1/tasks', { title: 'Stand-up notes', timebox: 15, dayId: day.id })).body.data;
  const created = await user.client.post('/api/v1/reminders', { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '09:00' });
  if (created.status !== 201) throw new Error(`reminder creation answered ${created.status}: ${created.text}`);

  const cloneStarted = Date.now();
  await cloneUsers(database.url, user.id, USERS - 1);
  ctx.log(`copied the template to ${USERS - 1} users in ${round((Date.now() - cloneStarted) / 1000, 1)} s`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  ctx.defer(() => db.end());
  await db.query('analyze');

  // Every reminder due at the next whole minute more than the engine's look-ahead (60 s) away, as reminders
  // set earlier are: the instance claims them during the minute before and sends them at the minute.
  const dueAt = new Date(Math.ceil((Date.now() + 65_000) / 60_000) * 60_000);
  const { rowCount } = await db.query(`update reminders set next_due_at = $1`, [dueAt]);
  if (rowCount !== USERS) throw new Error(`expected ${USERS} reminders, found ${rowCount}`);
  ctx.log(`${rowCount} reminders due at ${dueAt.toISOString()}; waiting ${round((dueAt.getTime() - Date.now()) / 1000, 1)} s`);
  // Meanwhile the instance claims them ahead (its look-ahead): when were all the deliveries made?
  const readUrl = `${service.url}/api/v1/reminders?limit=10`;
  let quietReads: number[] | null = null;
  let allMadeAt: number | null = null;
  while (Date.now() < dueAt.getTime() - 500) {
    if (allMadeAt === null) {
      const { rows } = await db.query(`select count(*)::int as n from reminder_deliveries`);
      if (rows[0].n >= USERS) allMadeAt = Date.now();
    } else if (quietReads === null && dueAt.getTime() - Date.now() > 4000) {
      // A session read (cookie check and one query) on the quiet service, for comparison.
      const probe = probeReads(readUrl, user.client.cookie!);
      await new Promise((r) => setTimeout(r, 2500));
      quietReads = await probe.stop();
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const windowStart = Number(process.hrtime.bigint() / 1000n);
  const cpuBefore = readCpuSeconds(service.pid);
  const rss = sampleRss(service.pid, 50);
  const health = probeHealth(service.url, 20);
  const reads = probeReads(readUrl, user.client.cookie!);
  const deadline = Date.now() + 300_000;
  while (receiver.received.length < USERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const lastAt = Math.max(...receiver.received.map((r) => r.at));
  const cpuAfter = readCpuSeconds(service.pid);
  const windowEnd = Number(process.hrtime.bigint() / 1000n);
  const memory = rss.stop();
  const longestHealthMs = await health.stop();
  const burstReads = await reads.stop();
  await new Promise((r) => setTimeout(r, 1000)); // the last outcomes are being written

  const received = receiver.received;
  const lateness = received.map((r) => r.at - dueAt.getTime());
  const distinct = new Set(received.map((r) => String(r.headers['x-reminder-id']))).size;
  const firstAt = Math.min(...received.map((r) => r.at));
  const { rows: statusRows } = await db.query(`select status, count(*)::int as n from reminder_deliveries group by status order by status`);
  const { rows: left } = await db.query(`select count(*)::int as n from reminders where next_due_at <= now()`);


  const summary = {
    users: USERS,
    received: received.length,
    distinctReminders: distinct,
    duplicates: received.length - distinct,
    complete: received.length === USERS,
    remindersPerS: round(received.length / ((lastAt - dueAt.getTime()) / 1000), 0),
    burstRemindersPerS: round(received.length / Math.max(0.001, (lastAt - firstAt) / 1000), 0),
    latenessMs: { first: Math.min(...lateness), p50: percentile(lateness, 50), p90: percentile(lateness, 90), p99: percentile(lateness, 99), max: Math.max(...lateness) },
    serviceCpuS: cpuBefore !== null && cpuAfter !== null ? round(cpuAfter - cpuBefore, 2) : null,
    cpuMsPerReminder: cpuBefore !== null && cpuAfter !== null ? round(((cpuAfter - cpuBefore) * 1000) / Math.max(1, received.length), 2) : null,
    peakRssMB: round(memory.peak / MB, 1),
    longestHealthzMs: round(longestHealthMs, 0),
    /** `GET /api/v1/reminders` (session check and one query) every 50 ms: quiet, and during the burst. */
    sessionReadMs: {
      quiet: quietReads?.length ? { n: quietReads.length, p50: round(percentile(quietReads, 50), 1), p99: round(percentile(quietReads, 99), 1) } : null,
      burst: { n: burstReads.length, p50: round(percentile(burstReads, 50), 1), p99: round(percentile(burstReads, 99), 1), max: round(Math.max(...burstReads), 1) },
    },
    statuses: Object.fromEntries(statusRows.map((r) => [r.status, r.n])),
    /** When every delivery had been made by the scanner, relative to the due time (negative: before it; null: not before it). */
    allDeliveriesMadeMs: allMadeAt === null ? null : allMadeAt - dueAt.getTime(),
    stillDue: left[0].n,
  };
  console.log('');
  printTable(
    ['reminders', 'sent', 'duplicates', 'reminders/s (from due)', 'burst/s', 'lateness p50 ms', 'p90', 'p99', 'max', 'CPU ms/reminder', 'peak RSS MB', 'longest /healthz ms'],
    [[USERS, received.length, summary.duplicates, summary.remindersPerS, summary.burstRemindersPerS, summary.latenessMs.p50, summary.latenessMs.p90, summary.latenessMs.p99, summary.latenessMs.max, summary.cpuMsPerReminder ?? '-', summary.peakRssMB, summary.longestHealthzMs]],
  );
  console.log('');
  console.log(
    `all ${USERS} deliveries made (the scanner's look-ahead) ${summary.allDeliveriesMadeMs === null ? 'not before the due time' : `${round(-summary.allDeliveriesMadeMs / 1000, 1)} s before the due time`}; first arrival ${summary.latenessMs.first} ms after it`,
  );
  const q = summary.sessionReadMs.quiet;
  console.log(`a session read (GET /api/v1/reminders) p50/p99: quiet ${q ? `${q.p50}/${q.p99}` : '-'} ms, during the burst ${summary.sessionReadMs.burst.p50}/${summary.sessionReadMs.burst.p99} ms (max ${summary.sessionReadMs.burst.max})`);
  console.log(`delivery statuses: ${JSON.stringify(summary.statuses)}; reminders still due: ${summary.stillDue}; machine load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  let profile: ProfileSummary | undefined;
  if (ctx.profile) {
    await service.stop(); // --cpu-prof writes the profile on exit
    const file = await findProfile(join(resultsDir, 'profiles'), service.pid);
    if (file) {
      profile = await summariseProfile(file, [{ start: windowStart, end: windowEnd }]);
      printProfileSummary('service CPU profile during the burst', profile);
    } else ctx.log('WARNING: the service wrote no CPU profile');
  }
  return {
    ...(profile ? { profile } : {}),
    scenario: 'reminders-due',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpus().length, loadavg: loadavg() },
    dueAt: dueAt.toISOString(),
    summary,
  };
}

const scenario: Scenario = {
  name: 'reminders-due',
  description: `${USERS} users' reminders due in the same minute, one instance, push URL to a local receiver: reminders/s and p99 lateness`,
  run,
};
export default scenario;
