import { cpus, loadavg } from 'node:os';
import type { Client } from 'graphql-ws';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { socketClient } from '../lib/live-socket.js';
import { MB, readCpuSeconds, readMemory } from '../lib/memory.js';
import { percentile, printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Sockets in all (BENCH_LIVE_SOCKETS), spread over people with SOCKETS_PER_USER each. */
const SOCKETS = Number(process.env.BENCH_LIVE_SOCKETS ?? 2000);
/** Sockets per person (BENCH_LIVE_SOCKETS_PER_USER): a phone and a laptop by default. */
const SOCKETS_PER_USER = Number(process.env.BENCH_LIVE_SOCKETS_PER_USER ?? 2);
/** Writes per second during the measurement (BENCH_LIVE_WRITES_PER_S) and for how long (--duration). */
const WRITES_PER_S = Number(process.env.BENCH_LIVE_WRITES_PER_S ?? 50);

const DAY = `subscription Day($dayId: UUID!) { dayChanged(dayId: $dayId) { id checklist { key completed } } }`;

interface Person {
  client: HttpClient;
  dayId: string;
  /** When each toggle of this person's GYM item was sent, by the state it sets (true: ticked). */
  sentAt: Map<boolean, number>;
  ticked: boolean;
}

/**
 * Issue 27: SOCKETS WebSockets open on one instance (SOCKETS_PER_USER per person, each following the
 * person's day with `dayChanged`), WRITES_PER_S checklist toggles per second through REST, spread over
 * the people. Delivery latency = the toggle's request sent → the changed day arriving on each of the
 * person's sockets (so it includes the write itself). Also the service's CPU over the writes, and its
 * memory per socket (RSS with the sockets open − RSS before them, ÷ sockets). The baseline: the same
 * freshness (≤ 1 s) by polling, SOCKETS clients reading the day once a second, measured by the CPU
 * it costs the service for the same period.
 */
async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const people = Math.ceil(SOCKETS / SOCKETS_PER_USER);
  const service = await ctx.startService(database, { LIVE_MAX_SOCKETS_PER_USER: String(SOCKETS_PER_USER), LIVE_KEEPALIVE_MS: '15000' });
  ctx.log(`service pid ${service.pid} at ${service.url}; ${SOCKETS} sockets over ${people} people; ${WRITES_PER_S} writes/s`);
  const monday = new Date();
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  const startDate = monday.toISOString().slice(0, 10);

  const persons: Person[] = [];
  for (let i = 0; i < people; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, people - i) }, async (_, j) => {
        const { client } = await signUp(service.url, `live-${i + j}-${Date.now()}@example.com`);
        const week = await generateWeek(client, startDate);
        return { client, dayId: week.days[0].id as string, sentAt: new Map<boolean, number>(), ticked: false };
      }),
    );
    persons.push(...batch);
  }
  ctx.log(`${people} people signed up`);

  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = readMemory(service.pid)?.rss ?? 0;
  const latencies: number[] = [];
  const clients: Client[] = [];
  let ready = 0;
  let errors = 0;
  for (const person of persons) {
    for (let s = 0; s < SOCKETS_PER_USER && clients.length < SOCKETS; s++) {
      const client = socketClient(service.url, person.client.cookie!);
      clients.push(client);
      let first = true;
      client.subscribe<any>({ query: DAY, variables: { dayId: person.dayId } }, {
        next: (result) => {
          if (first) {
            first = false;
            ready++;
            return;
          }
          const gym = result.data?.dayChanged?.checklist?.find((item: { key: string }) => item.key === 'GYM');
          const sent = gym ? person.sentAt.get(Boolean(gym.completed)) : undefined;
          if (sent !== undefined) latencies.push(performance.now() - sent);
        },
        error: () => void errors++,
        complete: () => undefined,
      });
    }
    // Opened 100 at a time, each batch answered before the next (as clients arrive, not as a SYN flood).
    if (clients.length % 100 === 0) {
      const batchUntil = Date.now() + 20_000;
      while (ready + errors < clients.length && Date.now() < batchUntil) await new Promise((r) => setTimeout(r, 20));
    }
  }
  ctx.defer(() => Promise.all(clients.map((c) => c.dispose())));
  const until = Date.now() + 60_000;
  while (ready < clients.length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  ctx.log(`${ready} of ${clients.length} sockets have their first answer (${errors} errors)`);
  await new Promise((r) => setTimeout(r, 2000));
  const rssWithSockets = readMemory(service.pid)?.rss ?? 0;

  // The writes: WRITES_PER_S toggles a second, round-robin over the people, each through REST.
  const durationS = ctx.load.durationS;
  const cpuBefore = readCpuSeconds(service.pid);
  const started = performance.now();
  let writes = 0;
  let failedWrites = 0;
  const inFlight: Promise<void>[] = [];
  while (performance.now() - started < durationS * 1000) {
    const person = persons[writes % persons.length]!;
    writes++;
    person.ticked = !person.ticked;
    person.sentAt.set(person.ticked, performance.now());
    inFlight.push(person.client.post(`/api/v1/checklist/${person.dayId}/toggle/GYM`, {}).then((res) => void (res.status === 200 || failedWrites++)));
    const next = started + (writes * 1000) / WRITES_PER_S;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  await Promise.all(inFlight);
  await new Promise((r) => setTimeout(r, 2000)); // the last deliveries
  const cpuAfter = readCpuSeconds(service.pid);
  const liveCpuS = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
  const expected = writes * SOCKETS_PER_USER;
  await Promise.all(clients.map((c) => c.dispose()));
  ctx.log(`live: ${writes} writes, ${latencies.length} of ${expected} deliveries, p50 ${round(percentile(latencies, 50), 1)} ms, p99 ${round(percentile(latencies, 99), 1)} ms, CPU ${liveCpuS === null ? '-' : round(liveCpuS, 2)} s`);

  // Baseline: the same freshness by polling: every client reads the day once a second, for as long.
  await new Promise((r) => setTimeout(r, 1000));
  const pollCpuBefore = readCpuSeconds(service.pid);
  const pollStarted = performance.now();
  let polls = 0;
  let pollFailures = 0;
  const pollers = Array.from({ length: SOCKETS }, async (_, i) => {
    const person = persons[Math.floor(i / SOCKETS_PER_USER)]!;
    await new Promise((r) => setTimeout(r, (i * 1000) / SOCKETS));
    while (performance.now() - pollStarted < durationS * 1000) {
      const tickStarted = performance.now();
      try {
        const res = await fetch(`${service.url}/api/v1/days/${person.dayId}`, { headers: { cookie: person.client.cookie! } });
        await res.arrayBuffer();
        if (res.status === 200) polls++;
        else pollFailures++;
      } catch {
        pollFailures++; // a refused or timed-out connection: the service did not keep up
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - tickStarted))));
    }
  });
  await Promise.all(pollers);
  const pollCpuAfter = readCpuSeconds(service.pid);
  const pollCpuS = pollCpuBefore !== null && pollCpuAfter !== null ? pollCpuAfter - pollCpuBefore : null;
  const pollSeconds = (performance.now() - pollStarted) / 1000;

  const summary = {
    sockets: clients.length,
    people,
    ready,
    writes,
    failedWrites,
    writesPerS: round(writes / durationS, 1),
    deliveries: latencies.length,
    expectedDeliveries: expected,
    latencyMs: { p50: round(percentile(latencies, 50), 1), p90: round(percentile(latencies, 90), 1), p99: round(percentile(latencies, 99), 1), max: round(Math.max(...latencies), 1) },
    serviceCpuS: liveCpuS === null ? null : round(liveCpuS, 2),
    serviceCpuPercent: liveCpuS === null ? null : round((liveCpuS / durationS) * 100, 0),
    rssBeforeMB: round(rssBefore / MB, 1),
    rssWithSocketsMB: round(rssWithSockets / MB, 1),
    kbPerSocket: round((rssWithSockets - rssBefore) / 1024 / Math.max(1, clients.length), 1),
    baselinePolling: {
      readsPerS: round(polls / pollSeconds, 0),
      failures: pollFailures,
      serviceCpuS: pollCpuS === null ? null : round(pollCpuS, 2),
      serviceCpuPercent: pollCpuS === null ? null : round((pollCpuS / pollSeconds) * 100, 0),
    },
  };
  console.log('');
  printTable(
    ['sockets', 'writes/s', 'deliveries', 'expected', 'latency p50 ms', 'p90', 'p99', 'max', 'service CPU %', 'KB/socket', 'polling reads/s', 'polling CPU %'],
    [[summary.sockets, summary.writesPerS, summary.deliveries, expected, summary.latencyMs.p50, summary.latencyMs.p90, summary.latencyMs.p99, summary.latencyMs.max, summary.serviceCpuPercent ?? '-', summary.kbPerSocket, summary.baselinePolling.readsPerS, summary.baselinePolling.serviceCpuPercent ?? '-']],
  );
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; the bench's own ${SOCKETS} clients share the machine with the service`);
  return { scenario: 'live-sockets', measuredAt: new Date().toISOString(), machine: { node: process.version, cpus: cpus().length, loadavg: loadavg() }, durationS, ...summary };
}

const scenario: Scenario = {
  name: 'live-sockets',
  description: `${SOCKETS} live sockets on one instance, ${WRITES_PER_S} writes/s: delivery latency, CPU, memory per socket; baseline: polling once a second`,
  run,
};
export default scenario;
