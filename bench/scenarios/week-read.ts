import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, print, type IntrospectionQuery } from 'graphql';
import { shapedDocuments } from '../../rest/answer-shape.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { findProfile, printProfileSummary, summariseProfile, type ProfileSummary } from '../lib/cpu-profile.js';
import { measure, type LoadResult, type LoadTarget } from '../lib/load.js';
import { cpuMsPerRequest } from '../lib/cpu-per-request.js';
import { MB, readMemory } from '../lib/memory.js';
import { startProcess } from '../lib/processes.js';
import { printTable, resultsDir, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Targets of issue 2: each ratio to the baseline at least this, and the service's RSS under this. */
const TARGET_RATIO = 0.5;
const TARGET_RSS_MB = 300;

function mondayOfToday(): string {
  const now = new Date();
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

async function ok<T = any>(what: string, request: Promise<{ status: number; text: string; body: T }>): Promise<T> {
  const res = await request;
  if (res.status < 200 || res.status > 299) throw new Error(`seeding: ${what} answered ${res.status}: ${res.text.slice(0, 500)}`);
  return res.body;
}

/**
 * One user with a realistic week, built through the API: the week and its 7 days, bedtime settings,
 * 6 perimeter tasks with a perimeter on every day (one day in minimum mode), part of the checklist
 * ticked (two days complete), two categories and 3 tasks a day in mixed states.
 */
async function seed(client: HttpClient, startDate: string): Promise<void> {
  const week = (await ok('generate week', client.post('/api/v1/weeks/generate', { startDate }))).data;
  const days: { id: string }[] = week.days;
  await ok('settings', client.patch('/api/v1/settings', { wakeTime: '06:30', inBedTime: '22:15', lightsOutTime: '22:45' }));
  const perimeter: string[] = [];
  for (const title of ['Inbox zero', 'Call a friend', 'Tidy the desk', 'Plan tomorrow', 'Stretch 10 minutes', 'Read one chapter']) {
    perimeter.push((await ok('perimeter task', client.post('/api/v1/perimeter/tasks', { title }))).data.id);
  }
  const categories: string[] = [];
  for (const [name, color] of [
    ['Work', '#3366ff'],
    ['Home', '#33aa55'],
  ]) {
    categories.push((await ok('category', client.post('/api/v1/task-categories', { name, color }))).data.id);
  }
  for (const [i, day] of days.entries()) {
    if (i === 6) await ok('minimum mode', client.patch(`/api/v1/days/${day.id}`, { minimumMode: true, notes: 'Rest day' }));
    else await ok('day notes', client.patch(`/api/v1/days/${day.id}`, { notes: `Day ${i + 1}: focus on the essentials.` }));
    const count = i === 6 ? 2 : 3 + (i % 3);
    await ok('day perimeter', client.post(`/api/v1/perimeter/${day.id}`, { taskIds: perimeter.slice(i % 2, (i % 2) + count) }));

    const toggles: [string, unknown][] =
      i < 2
        ? [['MAKE_BED', undefined], ['WATER', 2500], ['GYM', undefined], ['MOBILITY', undefined], ['CARDIO', undefined], ['COOK', undefined], ['READING', undefined], ['MEDITATION', 20], ['JOURNAL', undefined], ['PERIMETER', undefined]]
        : [['MAKE_BED', undefined], ['WATER', 1500 + i * 100], ['MEDITATION', 10]].slice(0, 1 + (i % 3)) as [string, unknown][];
    for (const [key, value] of toggles) {
      await ok(`toggle ${key}`, client.post(`/api/v1/checklist/${day.id}/toggle/${key}`, value === undefined ? {} : { value }));
    }

    for (let t = 0; t < 3; t++) {
      const task = (
        await ok(
          'task',
          client.post('/api/v1/tasks', {
            title: `Task ${t + 1} of day ${i + 1}`,
            description: t === 0 ? 'Something that needs doing, described in a sentence or two.' : undefined,
            timebox: 25 * (t + 1),
            categoryId: t < 2 ? categories[t] : undefined,
            dayId: day.id,
          }),
        )
      ).data;
      if (t === 0) await ok('task done', client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
      if (t === 1 && i % 2 === 0) await ok('task doing', client.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' }));
      if (t === 2 && i % 3 === 0) await ok('task deferred', client.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', nextStep: 'Ask for the figures' }));
    }
  }
}

/**
 * The GraphQL twin of the REST route: the week's answer shape of the route table (rest/answer-shape.ts)
 * over the running service's schema (introspected) gives the same selection, so (b) asks for exactly
 * what (a) returns (checked again on the answers).
 */
async function weekQuery(client: HttpClient): Promise<string> {
  const res = await client.graphql<IntrospectionQuery>(getIntrospectionQuery());
  if (!res.body.data) throw new Error(`introspection failed: ${res.text.slice(0, 500)}`);
  const schema = buildClientSchema(res.body.data);
  const document = shapedDocuments(schema, { 'Query.week': sessionRoutes['Query.week']! }, 1).get('week_query');
  if (!document) throw new Error('the route table declares no answer shape for the week read');
  return print(document);
}

/** Paths where two JSON values differ (at most `limit`). */
function differences(a: unknown, b: unknown, path = '$', out: string[] = [], limit = 10): string[] {
  if (out.length >= limit) return out;
  if (a === b) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) out.push(`${path}: ${a.length} items vs ${b.length}`);
      for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out, limit);
      return out;
    }
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out, limit);
    return out;
  }
  out.push(`${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`);
  return out;
}

function mb(bytes: number | null | undefined): number | null {
  return bytes == null ? null : round(bytes / MB, 1);
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database);
  ctx.log(`service pid ${service.pid} at ${service.url}`);
  const startDate = mondayOfToday();
  const user = await signUp(service.url, `bench-${Date.now()}@example.com`);
  ctx.log(`seeding the week of ${startDate} through the API`);
  await seed(user.client, startDate);
  const cookie = user.client.cookie!;
  const query = await weekQuery(user.client);
  const baseline = await startProcess({
    name: 'baseline',
    script: 'bench/baseline/week-read-server.ts',
    env: { DATABASE_URL: database.url, JWT_SECRET: service.jwtSecret },
  });
  ctx.defer(() => baseline.stop());
  ctx.log(`baseline pid ${baseline.pid} at ${baseline.url}`);

  const targets = {
    rest: { name: '(a) REST GET /api/v1/weeks/:startDate', url: `${service.url}/api/v1/weeks/${startDate}`, headers: { cookie } },
    graphql: {
      name: '(b) GraphQL week(startDate)',
      url: `${service.url}/graphql`,
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { startDate } }),
    },
    baseline: { name: '(c) baseline node:http + pg', url: `${baseline.url}/api/v1/weeks/${startDate}`, headers: { cookie } },
  } satisfies Record<string, LoadTarget>;

  // The three must answer the same thing, or the comparison means nothing.
  const answer = async (t: LoadTarget) => {
    const res = await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${t.name} answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
    return body;
  };
  const restBody = await answer(targets.rest);
  const graphqlBody = await answer(targets.graphql);
  const baselineBody = await answer(targets.baseline);
  if (graphqlBody.errors) throw new Error(`GraphQL answered errors: ${JSON.stringify(graphqlBody.errors).slice(0, 500)}`);
  const restData = restBody.data;
  const checks = {
    responseBytes: { rest: JSON.stringify(restBody).length, graphql: JSON.stringify(graphqlBody).length, baseline: JSON.stringify(baselineBody).length },
    graphqlVsRest: differences(graphqlBody.data.week, restData),
    baselineVsRest: differences(baselineBody.data, restData),
  };
  const days = restData.days as any[];
  const seeded = {
    days: days.length,
    checklistItems: days.reduce((n, d) => n + d.checklist.length, 0),
    completedItems: days.reduce((n, d) => n + d.checklist.filter((i: any) => i.completed).length, 0),
    perimeterTasks: days.reduce((n, d) => n + d.perimeterTasks.length, 0),
    tasks: days.reduce((n, d) => n + d.tasks.length, 0),
  };
  ctx.log(`seeded ${JSON.stringify(seeded)}; response ${checks.responseBytes.rest} bytes`);
  if (checks.graphqlVsRest.length) throw new Error(`GraphQL and REST answer differently:\n${checks.graphqlVsRest.join('\n')}`);
  if (checks.baselineVsRest.length) {
    ctx.log(`WARNING: the baseline's answer differs from the service's (update bench/baseline/week-read-server.ts):\n  ${checks.baselineVsRest.join('\n  ')}`);
  }

  const idle = readMemory(service.pid);
  const { load } = ctx;
  ctx.log(`load: ${load.connections} connections, ${load.warmupS} s warm-up + ${load.durationS} s per target`);
  const results: Record<keyof typeof targets, LoadResult> = {} as never;
  for (const key of ['baseline', 'rest', 'graphql'] as const) {
    ctx.log(`measuring ${targets[key].name}`);
    const pid = key === 'baseline' ? baseline.pid : service.pid;
    results[key] = await measure(targets[key], load, { [key === 'baseline' ? 'baseline' : 'service']: pid });
    const r = results[key];
    if (r.non2xx || r.errors) ctx.log(`WARNING: ${r.non2xx} non-2xx answers and ${r.errors} errors during ${r.name}`);
    if (r.requests < 10 * load.connections) ctx.log(`WARNING: only ${r.requests} answers in ${load.durationS} s for ${r.name}: too few for stable numbers (busy machine? try a longer --duration)`);
  }
  const final = readMemory(service.pid);

  // One request at a time: where the fixed costs are (steadier than the loaded runs on a busy machine).
  const send = (t: LoadTarget) => async () => (await fetch(t.url, { method: t.method ?? 'GET', headers: t.headers, body: t.body })).arrayBuffer();
  const sequential = {
    service: await cpuMsPerRequest(service.pid, [
      ['GET /healthz (floor)', async () => (await fetch(`${service.url}/healthz`)).arrayBuffer()],
      ['REST GET /api/v1/auth/me', async () => (await fetch(`${service.url}/api/v1/auth/me`, { headers: { cookie } })).arrayBuffer()],
      ['GraphQL { me { id } }', send({ ...targets.graphql, body: JSON.stringify({ query: '{ me { id } }' }) })],
      ['(a) REST week', send(targets.rest)],
      ['(b) GraphQL week', send(targets.graphql)],
    ], 200),
    baseline: await cpuMsPerRequest(baseline.pid, [['(c) baseline week', send(targets.baseline)]], 200),
  };

  const ratio = (r: LoadResult) => round(r.rps / results.baseline.rps, 2);
  /** Baseline CPU per request ÷ this target's: the throughput ratio a CPU-bound run tends to, less sensitive to a busy machine. */
  const cpuRatio = (r: LoadResult) => {
    const mine = r.cpuMsPerRequest.service;
    const base = results.baseline.cpuMsPerRequest.baseline;
    return mine && base ? round(base / mine, 2) : null;
  };
  const servicePeak = Math.max(results.rest.rss.service!.peak, results.graphql.rss.service!.peak);
  const row = (r: LoadResult, key: string) => [
    r.name,
    round(r.rps, 0),
    round(r.latencyMs.p50, 1),
    round(r.latencyMs.p99, 1),
    key === 'baseline' ? '1.00' : ratio(r).toFixed(2),
    r.cpuMsPerRequest[key === 'baseline' ? 'baseline' : 'service']?.toFixed(2) ?? '-',
    key === 'baseline' ? '1.00' : (cpuRatio(r)?.toFixed(2) ?? '-'),
    `${mb(r.rss[key === 'baseline' ? 'baseline' : 'service']!.peak)} MB`,
    r.non2xx + r.errors,
  ];
  console.log('');
  printTable(
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'cpu ms/req', 'cpu ratio', 'peak RSS', 'failed'],
    [row(results.rest, 'rest'), row(results.graphql, 'graphql'), row(results.baseline, 'baseline')],
  );
  const verdict = {
    restRatio: ratio(results.rest),
    graphqlRatio: ratio(results.graphql),
    restCpuRatio: cpuRatio(results.rest),
    graphqlCpuRatio: cpuRatio(results.graphql),
    servicePeakRssMb: mb(servicePeak)!,
    serviceHighWaterRssMb: mb(final?.hwm ?? null),
  };
  const met = {
    restRatio: verdict.restRatio >= TARGET_RATIO,
    graphqlRatio: verdict.graphqlRatio >= TARGET_RATIO,
    rss: verdict.servicePeakRssMb < TARGET_RSS_MB,
  };
  console.log('');
  console.log(`REST ratio ${verdict.restRatio} (target >= ${TARGET_RATIO}): ${met.restRatio ? 'met' : 'MISSED'}; by CPU per request ${verdict.restCpuRatio ?? '?'}`);
  console.log(`GraphQL ratio ${verdict.graphqlRatio} (target >= ${TARGET_RATIO}): ${met.graphqlRatio ? 'met' : 'MISSED'}; by CPU per request ${verdict.graphqlCpuRatio ?? '?'}`);
  const load1 = loadavg()[0]!;
  if (load1 > cpus().length) console.log(`note: load average ${load1.toFixed(1)} on ${cpus().length} CPUs: other work shares the machine; trust the CPU ratios over req/s`);
  console.log(
    `service peak RSS under load ${verdict.servicePeakRssMb} MB (idle after seeding ${mb(idle?.rss)} MB, lifetime high-water ${verdict.serviceHighWaterRssMb ?? '?'} MB; target < ${TARGET_RSS_MB} MB): ${met.rss ? 'met' : 'MISSED'}`,
  );
  console.log('');
  printTable(['CPU per request, one at a time (200 in a row)', 'ms'], [...Object.entries(sequential.service), ...Object.entries(sequential.baseline)]);
  let profile: Record<string, ProfileSummary> | undefined;
  if (ctx.profile) {
    await service.stop(); // --cpu-prof writes the profile on exit
    const file = await findProfile(join(resultsDir, 'profiles'), service.pid);
    if (!file) ctx.log('WARNING: the service wrote no CPU profile');
    else {
      profile = {
        rest: await summariseProfile(file, [results.rest.windowUs]),
        graphql: await summariseProfile(file, [results.graphql.windowUs]),
      };
      printProfileSummary('service CPU profile during (a) REST', profile.rest);
      printProfileSummary('service CPU profile during (b) GraphQL', profile.graphql);
    }
  }

  return {
    scenario: 'week-read',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpus().length, loadAverage1m: round(loadavg()[0]!, 1) },
    load,
    seeded,
    checks,
    targets: { ratio: TARGET_RATIO, rssMb: TARGET_RSS_MB, met },
    summary: verdict,
    serviceRssMb: { idleAfterSeeding: mb(idle?.rss), peakUnderLoad: verdict.servicePeakRssMb, highWater: verdict.serviceHighWaterRssMb },
    results,
    cpuMsPerRequestSequential: sequential,
    ...(profile ? { profile } : {}),
  };
}

const scenario: Scenario = {
  name: 'week-read',
  description: 'one seeded week read through REST, GraphQL and a node:http + pg baseline',
  run,
};
export default scenario;
