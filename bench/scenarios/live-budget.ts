import { cpus, loadavg } from 'node:os';
import type { Client } from 'graphql-ws';
import { signUp } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { socketClient } from '../lib/live-socket.js';
import { readCpuSeconds } from '../lib/memory.js';
import { percentile, printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Sockets of the one person (BENCH_LIVE_BUDGET_SOCKETS), each running the same 20 subscriptions. */
const SOCKETS = Number(process.env.BENCH_LIVE_BUDGET_SOCKETS ?? 10);
/**
 * BENCH_LIVE_BUDGET_MODE: `same` (default: every socket runs the same 20, a phone and a laptop many
 * times over) or `distinct` (each socket runs 20 day subscriptions no other runs, told apart by an
 * alias: 200 different ones, the audit's case; the service runs at most its per-person budget of them).
 */
const MODE = process.env.BENCH_LIVE_BUDGET_MODE === 'distinct' ? 'distinct' : 'same';
/** Writes per second (BENCH_LIVE_BUDGET_WRITES_PER_S), one after the other, for `--duration` seconds. */
const WRITES_PER_S = Number(process.env.BENCH_LIVE_BUDGET_WRITES_PER_S ?? 10);

const DAY = `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) { id completed checklist { key completed } tasks { id title status } moodEntries { id } } }`;
const DAY_SHORT = `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) { id completed } }`;
const TASKS = `subscription ($dayId: UUID, $page: Int) { tasksChanged(dayId: $dayId, page: $page) { meta { total } items { id title status } } }`;
const WEEK = `subscription ($startDate: LocalDate!) { weekChanged(startDate: $startDate) { id days { id completed checklist { key completed } } } }`;
const STATS = `subscription { gamificationStatsChanged { xp level coins } }`;
const MINE = `subscription { myChanges { entity id kind } }`;

/**
 * Issue 34.5: what one write costs its person's service when that person follows 200 subscriptions
 * (SOCKETS sockets × the same 20 different subscriptions: the week's 7 days, each day's tasks, the
 * week, the task list's first page and a page past its end, gamification, the feed, a short day). The
 * same checklist toggles (round-robin over the week's days, WRITES_PER_S a second) run first with no
 * socket open, then with the 200 subscriptions. Reported: the service's CPU per write (over the writes
 * and one settling second, so the re-reads they cause are counted) and the writes' latency.
 */
async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { LIVE_MAX_SOCKETS_PER_USER: String(SOCKETS), LIVE_KEEPALIVE_MS: '15000' });
  const monday = new Date();
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  const startDate = monday.toISOString().slice(0, 10);
  const { client } = await signUp(service.url, `live-budget-${Date.now()}@example.com`);
  const week = await generateWeek(client, startDate);
  const days: string[] = week.days.map((d: { id: string }) => d.id);
  for (const [i, dayId] of days.entries()) {
    for (let t = 0; t < 3; t++) await client.post('/api/v1/tasks', { title: `Task ${i}.${t}`, timebox: 30, dayId });
  }
  const subscriptions: { query: string; variables?: Record<string, unknown> }[] = [
    ...days.map((dayId) => ({ query: DAY, variables: { dayId } })),
    ...days.map((dayId) => ({ query: TASKS, variables: { dayId } })),
    { query: WEEK, variables: { startDate } },
    { query: TASKS, variables: { page: 1 } },
    { query: TASKS, variables: { page: 50 } },
    { query: STATS },
    { query: MINE },
    { query: DAY_SHORT, variables: { dayId: days[0] } },
  ];
  const distinctDay = (s: number, i: number) => ({
    query: `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) { id s${s}_${i}: completed checklist { key completed } } }`,
    variables: { dayId: days[(s * subscriptions.length + i) % days.length] },
  });
  const subscriptionsOf = (s: number) => (MODE === 'same' ? subscriptions : subscriptions.map((_, i) => distinctDay(s, i)));
  ctx.log(`mode ${MODE}; service pid ${service.pid}; ${SOCKETS} sockets × ${subscriptions.length} subscriptions; ${WRITES_PER_S} writes/s for ${ctx.load.durationS} s per phase`);

  const durationS = ctx.load.durationS;
  const measure = async (label: string) => {
    await new Promise((r) => setTimeout(r, 1000));
    const latencies: number[] = [];
    let failed = 0;
    const cpuBefore = readCpuSeconds(service.pid);
    const started = performance.now();
    let writes = 0;
    while (performance.now() - started < durationS * 1000) {
      const dayId = days[writes % days.length]!;
      writes++;
      const sent = performance.now();
      const res = await client.post(`/api/v1/checklist/${dayId}/toggle/GYM`, {});
      latencies.push(performance.now() - sent);
      if (res.status !== 200) failed++;
      const next = started + (writes * 1000) / WRITES_PER_S;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    await new Promise((r) => setTimeout(r, 1000)); // the re-reads the last writes caused
    const cpuAfter = readCpuSeconds(service.pid);
    const cpuMsPerWrite = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) * 1000) / writes : null;
    const row = { label, writes, failed, cpuMsPerWrite: cpuMsPerWrite === null ? null : round(cpuMsPerWrite, 1), p50: round(percentile(latencies, 50), 1), p99: round(percentile(latencies, 99), 1) };
    ctx.log(`${label}: ${writes} writes (${failed} failed), CPU ${row.cpuMsPerWrite} ms per write, latency p50 ${row.p50} ms, p99 ${row.p99} ms`);
    return row;
  };

  const none = await measure('no subscriptions');

  const clients: Client[] = [];
  let ready = 0;
  let refused = 0;
  let events = 0;
  const reasons = new Set<string>();
  for (let s = 0; s < SOCKETS; s++) {
    const socket = socketClient(service.url, client.cookie!);
    clients.push(socket);
    for (const subscription of subscriptionsOf(s)) {
      let first = true;
      socket.subscribe<any>(subscription, {
        next: (result) => {
          if (!first) events++;
          else if (result.errors?.length) {
            refused++;
            reasons.add(String(result.errors[0]?.message));
          } else ready++;
          first = false;
        },
        error: (error) => {
          refused++;
          reasons.add(Array.isArray(error) ? String(error[0]?.message) : String((error as { reason?: string })?.reason ?? error));
        },
        complete: () => undefined,
      });
    }
  }
  ctx.defer(() => Promise.all(clients.map((c) => c.dispose())));
  const expected = SOCKETS * subscriptions.length;
  const until = Date.now() + 60_000;
  while (ready + refused < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  ctx.log(`${ready} of ${expected} subscriptions answered (${refused} refused or failed${reasons.size ? `: ${[...reasons].join('; ')}` : ''})`);
  const followed = await measure(`${expected} subscriptions`);
  await Promise.all(clients.map((c) => c.dispose()));

  const ratio = none.cpuMsPerWrite && followed.cpuMsPerWrite ? round(followed.cpuMsPerWrite / none.cpuMsPerWrite, 2) : null;
  console.log('');
  printTable(
    ['phase', 'writes', 'failed', 'CPU ms per write', 'write p50 ms', 'write p99 ms'],
    [none, followed].map((r) => [r.label, r.writes, r.failed, r.cpuMsPerWrite ?? '-', r.p50, r.p99]),
  );
  console.log(`CPU per write with ${expected} subscriptions ÷ with none: ${ratio ?? '-'} (issue 34.5's target: at most 2); ${events} events delivered`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  return { scenario: 'live-budget', mode: MODE, measuredAt: new Date().toISOString(), machine: { node: process.version, cpus: cpus().length, loadavg: loadavg() }, durationS, sockets: SOCKETS, subscriptions: expected, ready, refused, events, none, followed, ratio };
}

const scenario: Scenario = {
  name: 'live-budget',
  description: `one person's write cost with ${SOCKETS} sockets × 20 subscriptions against none (issue 34.5)`,
  run,
};
export default scenario;
