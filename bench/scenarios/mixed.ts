import { Agent, request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { MB, readCpuSeconds, readMemory, sampleRss } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { inBatches, MIXED_OPERATIONS, seedHistoryUser, sendOperation, type MixedOperation, type MixedUser } from '../lib/mixed-operations.js';
import { recordStatements } from '../../test/support/statement-counter.js';

/** Issue 18: 200 users with a month of history each; p99 under 100 ms for every operation at 32 connections. */
const USERS = Number(process.env.BENCH_MIXED_USERS ?? 200);
const HISTORY_DAYS = 30;
const TARGET_P99_MS = 100;
/** One request per active user every this many seconds. */
const SECONDS_PER_USER_REQUEST = 10;

/** Rows that belong to a session or a secret are not copied to the other users (nor the event log). */
const NOT_CLONED = new Set(['users', 'login_sessions', 'api_keys', 'auth_tokens', 'event_outbox', 'webhook_endpoints', 'webhook_deliveries']);

/**
 * Copies the template user's rows (every table with a user_id, and the day/perimeter links) to `count`
 * new users in a few statements: each new user gets the template's history with ids remapped
 * (md5(old id, new user)), so relations between the copied rows hold. Foreign-key triggers are off
 * during the copy (session_replication_role), which is why the ids must be consistent by construction.
 */
export async function cloneUsers(databaseUrl: string, templateId: string, count: number): Promise<string[]> {
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
    await db.query(
      `create temp table clone_ids on commit drop as ${owned.map(([name]) => `select id from "${name}" where user_id = $1`).join(' union all ')}`,
      [templateId],
    );
    await db.query(`create index on clone_ids (id)`);
    const remap = (col: string) =>
      `case when t."${col}" = $1 then c.new_id when exists (select 1 from clone_ids i where i.id = t."${col}") then md5(t."${col}"::text || c.new_id::text)::uuid else t."${col}" end`;
    const copy = async (table: string, where: string) => {
      const cols = tables.get(table)!;
      const list = cols.map((c) => `"${c.name}"`).join(', ');
      const values = cols.map((c) => (c.uuid ? remap(c.name) : `t."${c.name}"`)).join(', ');
      await db.query(`insert into "${table}" (${list}) select ${values} from "${table}" t cross join clone_users c where ${where}`, [templateId]);
    };
    // The users themselves: a new id and address each, the template's password.
    const userCols = tables.get('users')!.map((c) => c.name);
    await db.query(
      `insert into users (${userCols.map((c) => `"${c}"`).join(', ')})
       select ${userCols.map((c) => (c === 'id' ? 'c.new_id' : c === 'email' ? `'mixed-' || c.n || '-' || u.email` : `u."${c}"`)).join(', ')}
         from users u cross join clone_users c where u.id = $1`,
      [templateId],
    );
    for (const [name] of owned) await copy(name, 't.user_id = $1');
    // Link tables without user_id whose rows hang off copied rows (a day's perimeter tasks).
    if (tables.has('day_perimeter_tasks')) await copy('day_perimeter_tasks', 'exists (select 1 from clone_ids i where i.id = t.day_id) and $1::uuid is not null');
    const { rows } = await db.query<{ email: string }>(`select 'mixed-' || c.n || '-' || u.email as email from users u cross join clone_users c where u.id = $1 order by c.n`, [templateId]);
    await db.query('commit');
    return rows.map((r) => r.email);
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await db.end();
  }
}

/** A signed-in clone: its session, today, today's tasks and an exercise of its catalog. */
async function signIn(baseUrl: string, email: string, password: string): Promise<MixedUser> {
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (login.status !== 200) throw new Error(`login of ${email} answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('lp_session='));
  if (!cookie) throw new Error(`login of ${email} set no session cookie`);
  const get = async (path: string) => {
    const res = await fetch(baseUrl + path, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return ((await res.json()) as any).data;
  };
  const today = await get('/api/v1/days/today');
  const tasks = await get(`/api/v1/tasks?dayId=${today.id}&limit=50`);
  const exercises = await get('/api/v1/exercises?limit=1');
  const monday = new Date(`${today.date}T00:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return { cookie, todayId: today.id, weekStart: monday.toISOString().slice(0, 10), taskIds: tasks.map((t: { id: string }) => t.id), exerciseId: exercises[0].id };
}

interface OpStats {
  latencies: number[];
  failed: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `connections` clients, each sending one request after the other: a random user, an operation drawn by weight. */
async function drive(baseUrl: string, users: MixedUser[], connections: number, seconds: number, record: boolean, stats: Map<string, OpStats>): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(baseUrl);
  const total = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const pick = (): MixedOperation => {
    let r = Math.random() * total;
    for (const op of MIXED_OPERATIONS) if ((r -= op.weight) < 0) return op;
    return MIXED_OPERATIONS[0]!;
  };
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  let answered = 0;
  const send = (op: MixedOperation, user: MixedUser) =>
    new Promise<number>((resolve) => {
      const req = op.request(user, n++);
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      const r = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers: { cookie: user.cookie, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ok = res.statusCode! < 300 && !(req.path === '/graphql' && Buffer.concat(chunks).includes('"errors"'));
            resolve(ok ? res.statusCode! : 0);
          });
        },
      );
      r.on('error', () => resolve(0));
      r.end(body);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const op = pick();
        const user = users[Math.floor(Math.random() * users.length)]!;
        const started = performance.now();
        const status = await send(op, user);
        answered++;
        if (!record) continue;
        const s = stats.get(op.name)!;
        if (status) s.latencies.push(performance.now() - started);
        else s.failed++;
      }
    }),
  );
  agent.destroy();
  return answered;
}

/** The statements each operation sends, counted in this process by a second instance of the service on the same database. */
async function statementsPerOperation(databaseUrl: string, jwtSecret: string, user: MixedUser): Promise<Record<string, number>> {
  const { loadConfig } = await import('../../src/core/config.js');
  const { createLogger } = await import('../../src/core/logger.js');
  const { startServer } = await import('../../src/app/server.js');
  const dataDir = await mkdtemp(join(tmpdir(), 'lp-bench-mixed-'));
  const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DISABLE_RATE_LIMIT: 'true', DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret }), {
    logger: createLogger('silent'),
  });
  const background = /agenda_jobs|from event_outbox where dispatched_at is null|update event_outbox set dispatched_at|webhook_deliveries|^(begin|commit)$/;
  const counts: Record<string, number> = {};
  try {
    for (const op of MIXED_OPERATIONS) {
      await sendOperation(server.url, user, op, 0);
      const recorder = recordStatements();
      try {
        await sendOperation(server.url, user, op, 1);
      } finally {
        recorder.stop();
      }
      counts[op.name] = recorder.statements.filter((s) => !background.test(s.replace(/\s+/g, ' ').trim())).length;
    }
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return counts;
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database);
  ctx.log(`service pid ${service.pid} at ${service.url}`);

  let t = performance.now();
  const template = await seedHistoryUser(service.url, HISTORY_DAYS, `template-${Date.now()}@example.com`);
  ctx.log(`template user seeded through the API (${HISTORY_DAYS} days of history) in ${round((performance.now() - t) / 1000, 1)} s`);
  t = performance.now();
  const emails = await cloneUsers(database.url, template.id, USERS - 1);
  ctx.log(`copied to ${emails.length} more users with SQL in ${round((performance.now() - t) / 1000, 1)} s`);
  t = performance.now();
  const users: MixedUser[] = [template.user];
  await inBatches(emails, 8, async (email) => void users.push(await signIn(service.url, email, template.password)));
  ctx.log(`${users.length} users signed in in ${round((performance.now() - t) / 1000, 1)} s`);

  const { load } = ctx;
  const idle = readMemory(service.pid);
  ctx.log(`load: ${load.connections} connections, ${load.warmupS} s warm-up + ${load.durationS} s measured`);
  const stats = new Map<string, OpStats>(MIXED_OPERATIONS.map((op) => [op.name, { latencies: [], failed: 0 }]));
  await drive(service.url, users, load.connections, load.warmupS, false, stats);
  const rss = sampleRss(service.pid);
  const cpuBefore = readCpuSeconds(service.pid);
  const started = performance.now();
  const answered = await drive(service.url, users, load.connections, load.durationS, true, stats);
  const elapsedS = (performance.now() - started) / 1000;
  const cpuAfter = readCpuSeconds(service.pid);
  const memory = rss.stop();
  await sleep(200);

  ctx.log('counting statements per operation (a second instance in this process, same database)');
  const statements = await statementsPerOperation(database.url, service.jwtSecret, users[users.length - 1]!);

  const rps = answered / elapsedS;
  const cpuMsPerRequest = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) * 1000) / answered : NaN;
  const weightTotal = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const meanStatements = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight * statements[op.name]!, 0) / weightTotal;
  const rows = MIXED_OPERATIONS.map((op) => {
    const s = stats.get(op.name)!;
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      name: op.name,
      kind: op.kind,
      surface: op.surface,
      share: round((100 * op.weight) / weightTotal, 0),
      requests: sorted.length,
      rps: round(sorted.length / elapsedS, 1),
      p50Ms: round(percentile(sorted, 50), 1),
      p99Ms: round(percentile(sorted, 99), 1),
      failed: s.failed,
      statements: statements[op.name]!,
    };
  });
  console.log('');
  printTable(
    ['operation', 'kind', 'surface', 'share %', 'req/s', 'p50 ms', 'p99 ms', 'SQL stmts', 'failed'],
    rows.map((r) => [r.name, r.kind, r.surface, r.share, r.rps, r.p50Ms, r.p99Ms, r.statements, r.failed]),
  );
  const activeUsers = Math.floor(rps * SECONDS_PER_USER_REQUEST);
  const slow = rows.filter((r) => !(r.p99Ms < TARGET_P99_MS)).map((r) => r.name);
  console.log('');
  console.log(`all operations: ${round(rps, 0)} req/s, CPU ${round(cpuMsPerRequest, 2)} ms/request (service process), ${round(meanStatements, 1)} SQL statements/request (weighted)`);
  console.log(
    `=> about ${activeUsers} active users at one request per user per ${SECONDS_PER_USER_REQUEST} s on this machine (req/s × ${SECONDS_PER_USER_REQUEST}; PostgreSQL and the load generator share its cores)`,
  );
  console.log(`p99 < ${TARGET_P99_MS} ms for every operation: ${slow.length ? `MISSED (${slow.join(', ')})` : 'met'}`);
  console.log(`service RSS: idle ${round((idle?.rss ?? NaN) / MB, 1)} MB, peak under load ${round(memory.peak / MB, 1)} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  return {
    scenario: 'mixed',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length, loadAverage: loadavg() },
    load,
    users: users.length,
    historyDays: HISTORY_DAYS,
    targets: { p99Ms: TARGET_P99_MS, met: { p99: slow.length === 0 } },
    summary: {
      rps: round(rps, 1),
      cpuMsPerRequest: round(cpuMsPerRequest, 2),
      statementsPerRequest: round(meanStatements, 2),
      activeUsersAt10s: activeUsers,
      idleRssMb: round((idle?.rss ?? NaN) / MB, 1),
      peakRssMb: round(memory.peak / MB, 1),
    },
    operations: rows,
  };
}

const scenario: Scenario = {
  name: 'mixed',
  description: `${USERS} users with ${HISTORY_DAYS} days of history; ~70% reads / ~30% writes through REST and GraphQL at once`,
  run,
};
export default scenario;
