import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { signUp } from '../../test/support/http-client.js';
import { MB, readMemory } from '../lib/memory.js';
import { measureMixed, warmUpMixed, type MixedMeasurement } from '../lib/mixed-drive.js';
import { MIXED_OPERATIONS, type MixedUser } from '../lib/mixed-operations.js';
import { MIXED_HISTORY_DAYS, MIXED_USERS, seedMixedUsers } from '../lib/mixed-users.js';
import { findProxy, startProxy } from '../lib/proxy.js';
import { printTable, round } from '../lib/report.js';
import type { BenchService, Scenario, ScenarioContext } from '../lib/scenario.js';

/*
 * Issue 36 item 9: two instances of the built service on one PostgreSQL and one Redis behind a real proxy
 * (HAProxy or nginx from the distribution), the `mixed` load through it, next to the same load on one of
 * the two alone, in the same run.
 */

/** One request per active user every this many seconds (as in `mixed`). */
const SECONDS_PER_USER_REQUEST = 10;
const TARGET_P99_MS = 100;
/** The Redis both instances share (rate-limit counters, the live bus); empty: none (live updates over PostgreSQL). */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function readiness(service: BenchService): Promise<Record<string, { state: string }>> {
  const res = await fetch(`${service.url}/readyz`);
  return ((await res.json()) as { data?: { dependencies?: Record<string, { state: string }> } }).data?.dependencies ?? {};
}

/** A session made on one instance is accepted by the other (they share the database and the JWT secret), both ways. */
async function checkSessionsAcrossInstances(a: BenchService, b: BenchService, madeOnA: MixedUser): Promise<void> {
  const today = async (url: string, cookie: string) => {
    const res = await fetch(`${url}/api/v1/days/today`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`a session was refused across instances: ${url} answered ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  if ((await today(b.url, madeOnA.cookie)) !== madeOnA.todayId) throw new Error('instance B answered another day for a session made on A');
  const madeOnB = await signUp(b.url);
  await today(a.url, madeOnB.client.cookie!);
}

interface Setup {
  label: string;
  measured: MixedMeasurement;
  /** How many of `measured.processes` are service instances (the rest: the proxy). */
  instances: number;
}

function summary({ label, measured, instances }: Setup) {
  const serviceCpuS = measured.processes.slice(0, instances).reduce((sum, p) => sum + p.cpuS, 0);
  const coresUsed = serviceCpuS / measured.elapsedS;
  const activeUsers = Math.floor(measured.rps * SECONDS_PER_USER_REQUEST);
  const proxy = measured.processes[instances];
  return {
    label,
    rps: round(measured.rps, 1),
    p99Ms: measured.p99Ms,
    worstOperationP99Ms: Math.max(...measured.operations.map((op) => op.p99Ms)),
    failed: measured.failed,
    serviceCpuMsPerRequest: round((serviceCpuS * 1000) / measured.answered, 2),
    serviceCores: round(coresUsed, 2),
    activeUsersAt10s: activeUsers,
    peoplePerCore: Math.floor(activeUsers / coresUsed),
    proxyCpuMsPerRequest: proxy ? round((proxy.cpuS * 1000) / measured.answered, 2) : null,
    peakRssMb: measured.processes.slice(0, instances).map((p) => round(p.peakRssBytes / MB, 0)),
  };
}

async function run(ctx: ScenarioContext) {
  const proxyBinary = findProxy();
  if ('missing' in proxyBinary) {
    ctx.log(`skipped: ${proxyBinary.missing}`);
    return { scenario: 'scale-out', skipped: proxyBinary.missing };
  }
  const { load } = ctx;
  const database = await ctx.database();
  // What every instance of one deployment shares besides the database: the session secret and Redis.
  const env = { JWT_SECRET: randomBytes(48).toString('base64url'), ...(REDIS_URL ? { REDIS_URL } : {}) };
  const a = await ctx.startService(database, env);
  const users = await seedMixedUsers(a.url, database.url, MIXED_USERS, MIXED_HISTORY_DAYS, ctx.log);
  const startedB = performance.now();
  const b = await ctx.startService(database, env);
  const startBMs = performance.now() - startedB;
  const idle = [readMemory(a.pid), readMemory(b.pid)].map((m) => round((m?.rss ?? NaN) / MB, 0));
  await checkSessionsAcrossInstances(a, b, users[0]!);
  ctx.log(`instances A (pid ${a.pid}, ${a.url}) and B (pid ${b.pid}, ${b.url}, ready ${round(startBMs, 0)} ms after spawning); sessions work across them`);
  const redisStates = [await readiness(a), await readiness(b)].map((deps) => deps.redis?.state ?? 'not configured');
  ctx.log(`Redis (${REDIS_URL || 'none'}): A ${redisStates[0]}, B ${redisStates[1]}${REDIS_URL ? '' : ' (live updates over PostgreSQL)'}`);

  const proxy = await startProxy(proxyBinary, [a.url, b.url], ctx.defer);
  ctx.log(`${proxy.version} (pid ${proxy.pid}) at ${proxy.url}, round robin over A and B`);
  ctx.log(`load: ${load.connections} connections, ${load.warmupS} s warm-up + ${load.durationS} s measured, each setup in turn`);

  // A has served the seeding and the sign-ins; B gets as much warm-up as each measurement has before it.
  await warmUpMixed(b.url, users, load);
  ctx.log('one instance alone (A, directly)');
  const alone: Setup = { label: 'one instance', measured: await measureMixed(a.url, users, load, [a.pid]), instances: 1 };
  ctx.log(`two instances through ${proxy.kind}`);
  const pair: Setup = { label: `two instances, ${proxy.kind}`, measured: await measureMixed(proxy.url, users, load, [a.pid, b.pid, proxy.pid]), instances: 2 };

  const setups = [alone, pair].map(summary);
  console.log('');
  printTable(
    ['setup', 'req/s', 'p99 ms', 'failed', 'service CPU ms/req', 'service cores', `active users (1 req/${SECONDS_PER_USER_REQUEST} s)`, 'people per core', 'proxy CPU ms/req'],
    setups.map((s) => [s.label, s.rps, s.p99Ms, s.failed, s.serviceCpuMsPerRequest, s.serviceCores, s.activeUsersAt10s, s.peoplePerCore, s.proxyCpuMsPerRequest ?? '-']),
  );
  console.log('');
  printTable(
    ['operation', 'share %', 'alone p50 ms', 'alone p99 ms', 'two p50 ms', 'two p99 ms'],
    MIXED_OPERATIONS.map((op, i) => {
      const one = alone.measured.operations[i]!;
      const two = pair.measured.operations[i]!;
      return [op.name, one.share, one.p50Ms, one.p99Ms, two.p50Ms, two.p99Ms];
    }),
  );
  console.log('');
  const instanceRows = [a, b].map((service, i) => {
    const use = pair.measured.processes[i]!;
    const answered = pair.measured.servedBy[new URL(service.url).host] ?? 0;
    return {
      instance: i === 0 ? 'A' : 'B',
      answered,
      cpuMsPerRequest: round((use.cpuS * 1000) / answered, 2),
      cores: round(use.cpuS / pair.measured.elapsedS, 2),
      idleRssMb: idle[i]!,
      peakRssMb: round(use.peakRssBytes / MB, 0),
    };
  });
  printTable(
    ['instance (two)', 'requests answered', 'CPU ms/req', 'cores', 'idle RSS MB', 'peak RSS MB'],
    instanceRows.map((r) => [r.instance, r.answered, r.cpuMsPerRequest, r.cores, r.idleRssMb, r.peakRssMb]),
  );
  const [one, two] = setups as [ReturnType<typeof summary>, ReturnType<typeof summary>];
  console.log('');
  console.log(`two ÷ one: req/s ×${round(two.rps / one.rps, 2)}, people per core ×${round(two.peoplePerCore / one.peoplePerCore, 2)}`);
  console.log(`mixed p99 at ${load.connections} connections, one instance: ${one.p99Ms} ms over all requests, worst operation ${one.worstOperationP99Ms} ms (goal < ${TARGET_P99_MS} ms: ${one.worstOperationP99Ms < TARGET_P99_MS ? 'met' : 'missed'})`);
  console.log(`instance B: ready ${round(startBMs, 0)} ms after spawning (polled every 100 ms), idle RSS ${idle[1]} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);

  return {
    scenario: 'scale-out',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpus().length, loadAverage: loadavg() },
    load,
    users: users.length,
    proxy: { kind: proxy.kind, version: proxy.version },
    redis: { url: REDIS_URL || null, states: redisStates },
    startBMs: round(startBMs, 0),
    setups,
    instances: instanceRows,
    operations: { alone: alone.measured.operations, two: pair.measured.operations },
  };
}

const scenario: Scenario = {
  name: 'scale-out',
  description: `the mixed load (${MIXED_USERS} users) on two instances behind HAProxy or nginx, next to one instance alone`,
  run,
};
export default scenario;
