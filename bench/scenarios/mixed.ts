import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MB, readMemory } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { MIXED_OPERATIONS, sendOperation, type MixedUser } from '../lib/mixed-operations.js';
import { measureMixed } from '../lib/mixed-drive.js';
import { MIXED_HISTORY_DAYS, MIXED_USERS, seedMixedUsers } from '../lib/mixed-users.js';
import { recordStatements } from '../../test/support/statement-counter.js';

/** Issue 18: 200 users with a month of history each; p99 under 100 ms for every operation at 32 connections. */
const USERS = MIXED_USERS;
const HISTORY_DAYS = MIXED_HISTORY_DAYS;
const TARGET_P99_MS = 100;
/** One request per active user every this many seconds. */
const SECONDS_PER_USER_REQUEST = 10;

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
  const users = await seedMixedUsers(service.url, database.url, USERS, HISTORY_DAYS, ctx.log);

  const { load } = ctx;
  const idle = readMemory(service.pid);
  ctx.log(`load: ${load.connections} connections, ${load.warmupS} s warm-up + ${load.durationS} s measured`);
  const measured = await measureMixed(service.url, users, load, [service.pid]);
  const { rps, answered } = measured;
  const serviceUse = measured.processes[0]!;
  await sleep(200);

  ctx.log('counting statements per operation (a second instance in this process, same database)');
  const statements = await statementsPerOperation(database.url, service.jwtSecret, users[users.length - 1]!);

  const cpuMsPerRequest = (serviceUse.cpuS * 1000) / answered;
  const weightTotal = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const meanStatements = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight * statements[op.name]!, 0) / weightTotal;
  const rows = measured.operations.map((r) => ({ ...r, statements: statements[r.name]! }));
  console.log('');
  printTable(
    ['operation', 'kind', 'surface', 'share %', 'req/s', 'p50 ms', 'p99 ms', 'SQL stmts', 'failed'],
    rows.map((r) => [r.name, r.kind, r.surface, r.share, r.rps, r.p50Ms, r.p99Ms, r.statements, r.failed]),
  );
  const activeUsers = Math.floor(rps * SECONDS_PER_USER_REQUEST);
  const slow = rows.filter((r) => !(r.p99Ms < TARGET_P99_MS)).map((r) => r.name);
  console.log('');
  console.log(`all operations: ${round(rps, 0)} req/s, p99 ${measured.p99Ms} ms, CPU ${round(cpuMsPerRequest, 2)} ms/request (service process), ${round(meanStatements, 1)} SQL statements/request (weighted)`);
  console.log(
    `=> about ${activeUsers} active users at one request per user per ${SECONDS_PER_USER_REQUEST} s on this machine (req/s × ${SECONDS_PER_USER_REQUEST}; PostgreSQL and the load generator share its cores)`,
  );
  console.log(`p99 < ${TARGET_P99_MS} ms for every operation: ${slow.length ? `MISSED (${slow.join(', ')})` : 'met'}`);
  console.log(`service RSS: idle ${round((idle?.rss ?? NaN) / MB, 1)} MB, peak under load ${round(serviceUse.peakRssBytes / MB, 1)} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

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
      p99Ms: measured.p99Ms,
      cpuMsPerRequest: round(cpuMsPerRequest, 2),
      statementsPerRequest: round(meanStatements, 2),
      activeUsersAt10s: activeUsers,
      idleRssMb: round((idle?.rss ?? NaN) / MB, 1),
      peakRssMb: round(serviceUse.peakRssBytes / MB, 1),
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
