import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { createTestPki, Receiver, type Received } from '../../src/webhooks/webhooks.test-receiver.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Targets of issue 4 (reported, not asserted). */
const TARGET_DELIVERIES_PER_S = 200;
const TARGET_MEDIAN_DELAY_MS = 250;
/** Webhooks of the bench user subscribed to each event: every event makes this many deliveries. */
const WEBHOOKS = 2;
/** (b) events per second written one per transaction: 100 × 2 webhooks = the 200 deliveries/s target. */
const STREAM_EVENTS_PER_S = 100;
const BURST_EVENTS = 3000;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** Receiver arrival minus the event's own time (the task's `createdAt`, or the envelope `timestamp`). */
function delays(received: Received[], eventTime: (body: any) => string): number[] {
  return received.map((r) => r.at - Date.parse(eventTime(JSON.parse(r.rawBody.toString())))).sort((a, b) => a - b);
}

function rate(received: Received[], startedAt: number): number {
  if (!received.length) return 0;
  const last = Math.max(...received.map((r) => r.at));
  return received.length / ((last - startedAt) / 1000);
}

/**
 * Outgoing webhooks to a local HTTPS receiver (its own CA, trusted through NODE_EXTRA_CA_CERTS), each
 * event fanned out to WEBHOOKS webhooks. Delay = arrival at the receiver − the event's time (same clock).
 * (a) tasks created over the session API by a few writers (the delay includes the API write);
 * (b) a paced stream of outbox events, one committed transaction each, at the target rate;
 * (c) a burst of BURST_EVENTS events committed at once: how fast the backlog drains.
 */
async function run(ctx: ScenarioContext) {
  const pki = await createTestPki();
  ctx.defer(() => rm(pki.dir, { recursive: true, force: true }));
  const receiver = await Receiver.start(pki);
  ctx.defer(() => receiver.close());
  const database = await ctx.database();
  const service = await ctx.startService(database, { NODE_EXTRA_CA_CERTS: pki.caFile, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ctx.log(`service pid ${service.pid} at ${service.url}; receiver at ${receiver.url}`);

  const user = await signUp(service.url, `bench-webhooks-${Date.now()}@example.com`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  ctx.defer(() => db.end());
  await db.query(`UPDATE users SET plan = 'pro', plan_expires_at = NULL WHERE id = $1`, [user.id]);
  const path = receiver.endpoint(() => ({ status: 200, body: 'ok' }));
  for (let i = 0; i < WEBHOOKS; i++) {
    const res = await user.client.post('/api/v1/webhooks', { url: `${receiver.url}${path}?n=${i}`, events: ['task_created', 'day_completed'] });
    if (res.status !== 201) throw new Error(`webhook creation answered ${res.status}: ${res.text}`);
  }
  const mine = () => receiver.received.filter((r) => r.path.startsWith(path));
  const since = (count: number) => mine().slice(count);
  const { durationS, warmupS } = ctx.load;

  // Warm-up: connections, JIT.
  for (let i = 0; i < 20; i++) await user.client.post('/api/v1/tasks', { title: 'warm-up', timebox: 10 });
  await waitUntil(() => mine().length >= 40, 30_000);
  if (warmupS) await new Promise((r) => setTimeout(r, Math.min(warmupS, 3) * 1000));

  // (a) API writes
  const writers = 2;
  ctx.log(`(a) ${writers} writers creating tasks for ${durationS} s`);
  let before = mine().length;
  let writes = 0;
  const startA = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (Date.now() < startA + durationS * 1000) {
        const res = await user.client.post('/api/v1/tasks', { title: 'bench', timebox: 10 });
        if (res.status !== 201) throw new Error(`task creation answered ${res.status}`);
        writes++;
      }
    }),
  );
  const completeA = await waitUntil(() => mine().length >= before + writes * WEBHOOKS, 60_000);
  const a = since(before);
  const delayA = delays(a, (b) => b.data.createdAt);

  // (b) paced stream of committed events
  ctx.log(`(b) ${STREAM_EVENTS_PER_S} events/s for ${durationS} s, one transaction each (${STREAM_EVENTS_PER_S * WEBHOOKS} deliveries/s offered)`);
  before = mine().length;
  const total = STREAM_EVENTS_PER_S * durationS;
  const startB = Date.now();
  let lag = 0;
  for (let i = 0; i < total; i++) {
    const due = startB + (i * 1000) / STREAM_EVENTS_PER_S;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else lag = Math.max(lag, -wait);
    await db.query(`INSERT INTO event_outbox (id, user_id, event, data, occurred_at) VALUES ($1, $2, 'day_completed', $3, $4)`, [
      randomUUID(),
      user.id,
      JSON.stringify({ dayId: randomUUID(), completedAt: new Date().toISOString() }),
      new Date(),
    ]);
  }
  const completeB = await waitUntil(() => mine().length >= before + total * WEBHOOKS, 60_000);
  const b = since(before);
  const delayB = delays(b, (body) => body.timestamp);

  // (c) burst
  ctx.log(`(c) ${BURST_EVENTS} events committed at once → ${BURST_EVENTS * WEBHOOKS} deliveries`);
  before = mine().length;
  const rows = Array.from({ length: BURST_EVENTS }, () => [randomUUID(), JSON.stringify({ dayId: randomUUID(), completedAt: new Date().toISOString() })]);
  const startC = Date.now();
  await db.query(
    `INSERT INTO event_outbox (id, user_id, event, data, occurred_at)
     SELECT x.id::uuid, $1, 'day_completed', x.data::jsonb, now() FROM unnest($2::text[], $3::text[]) AS x(id, data)`,
    [user.id, rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
  const completeC = await waitUntil(() => mine().length >= before + BURST_EVENTS * WEBHOOKS, 120_000);
  const c = since(before);
  await new Promise((r) => setTimeout(r, 1000)); // the last outcomes are being recorded
  const { rows: statusRows } = await db.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status`);

  const stats = (d: number[]) => ({ p50: percentile(d, 50), p90: percentile(d, 90), p99: percentile(d, 99), max: d.at(-1) ?? NaN });
  const summary = {
    apiWrites: { writers, writes, writesPerS: round(writes / durationS, 0), deliveries: a.length, complete: completeA, deliveriesPerS: round(rate(a, startA), 0), delayMs: stats(delayA) },
    stream: { offeredPerS: STREAM_EVENTS_PER_S * WEBHOOKS, deliveries: b.length, complete: completeB, writerLagMs: lag, deliveriesPerS: round(rate(b, startB), 0), delayMs: stats(delayB) },
    burst: { deliveries: c.length, complete: completeC, drainS: round((Math.max(...c.map((r) => r.at)) - startC) / 1000, 2), deliveriesPerS: round(rate(c, startC), 0) },
    statuses: Object.fromEntries(statusRows.map((r) => [r.status, r.n])),
  };
  const met = {
    deliveriesPerS: summary.burst.deliveriesPerS >= TARGET_DELIVERIES_PER_S && summary.stream.deliveriesPerS >= TARGET_DELIVERIES_PER_S * 0.95,
    medianDelay: summary.stream.delayMs.p50 < TARGET_MEDIAN_DELAY_MS,
  };
  console.log('');
  printTable(
    ['run', 'deliveries', 'deliveries/s', 'p50 delay ms', 'p90 delay ms', 'p99 delay ms'],
    [
      [`(a) API writes, ${writers} writers`, a.length, summary.apiWrites.deliveriesPerS, delayA.length ? percentile(delayA, 50) : '-', percentile(delayA, 90), percentile(delayA, 99)],
      [`(b) stream ${STREAM_EVENTS_PER_S} events/s`, b.length, summary.stream.deliveriesPerS, percentile(delayB, 50), percentile(delayB, 90), percentile(delayB, 99)],
      [`(c) burst ${BURST_EVENTS} events`, c.length, summary.burst.deliveriesPerS, '-', '-', '-'],
    ],
  );
  console.log('');
  console.log(`deliveries/s: stream ${summary.stream.deliveriesPerS}, burst ${summary.burst.deliveriesPerS} (target >= ${TARGET_DELIVERIES_PER_S}): ${met.deliveriesPerS ? 'met' : 'MISSED'}`);
  console.log(`median write-to-first-attempt delay at ${STREAM_EVENTS_PER_S * WEBHOOKS} deliveries/s: ${summary.stream.delayMs.p50} ms (target < ${TARGET_MEDIAN_DELAY_MS} ms): ${met.medianDelay ? 'met' : 'MISSED'}`);
  console.log(`delivery statuses: ${JSON.stringify(summary.statuses)}; machine load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  return {
    scenario: 'webhook-deliveries',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpus().length, loadavg: loadavg() },
    load: ctx.load,
    targets: { deliveriesPerS: TARGET_DELIVERIES_PER_S, medianDelayMs: TARGET_MEDIAN_DELAY_MS, met },
    summary,
  };
}

const scenario: Scenario = {
  name: 'webhook-deliveries',
  description: 'outgoing webhooks to a local HTTPS receiver: deliveries/s and the write-to-first-attempt delay',
  run,
};
export default scenario;
