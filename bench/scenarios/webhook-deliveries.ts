import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { createTestPki, Receiver } from '../../src/webhooks/webhooks.test-receiver.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Targets of issue 4 (reported, not asserted). */
const TARGET_DELIVERIES_PER_S = 200;
const TARGET_MEDIAN_DELAY_MS = 250;
const BURST_EVENTS = 3000;
const WEBHOOKS = 2;

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

/**
 * Outgoing webhooks against a local HTTPS receiver (its own CA, trusted through NODE_EXTRA_CA_CERTS):
 * (a) sustained: tasks created over the session API at a steady pace, each event fanned out to
 *     WEBHOOKS webhooks; the delay is receiver arrival minus the event's `createdAt` (same clock);
 * (b) burst: BURST_EVENTS outbox rows committed at once; deliveries/s until the last one arrives.
 */
async function run(ctx: ScenarioContext) {
  const pki = await createTestPki();
  ctx.defer(() => rm(pki.dir, { recursive: true, force: true }));
  const receiver = await Receiver.start(pki);
  ctx.defer(() => receiver.close());
  const database = await ctx.database();
  const service = await ctx.startService(database, {
    NODE_EXTRA_CA_CERTS: pki.caFile,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
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
  // The receiver sees the whole path with the query; count by prefix.
  const received = () => receiver.received.filter((r) => r.path.startsWith(path));

  // (a) sustained writes through the API
  const { durationS, connections } = ctx.load;
  const writers = Math.max(1, Math.min(connections, 8));
  ctx.log(`(a) ${writers} writers creating tasks for ${durationS} s, ${WEBHOOKS} webhooks each`);
  let writes = 0;
  const stopAt = Date.now() + durationS * 1000;
  const startA = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (Date.now() < stopAt) {
        const res = await user.client.post('/api/v1/tasks', { title: 'bench', timebox: 10 });
        if (res.status !== 201) throw new Error(`task creation answered ${res.status}`);
        writes++;
      }
    }),
  );
  const expectedA = writes * WEBHOOKS;
  const allArrived = await waitUntil(() => received().length >= expectedA, 60_000);
  const sustained = received();
  const lastA = Math.max(...sustained.map((r) => r.at));
  const delays = sustained
    .map((r) => r.at - Date.parse(JSON.parse(r.rawBody.toString()).data.createdAt))
    .sort((x, y) => x - y);
  const sustainedRate = sustained.length / ((lastA - startA) / 1000);

  // (b) a burst committed in one transaction
  const before = received().length;
  ctx.log(`(b) ${BURST_EVENTS} events committed at once → ${BURST_EVENTS * WEBHOOKS} deliveries`);
  const rows = Array.from({ length: BURST_EVENTS }, () => [randomUUID(), JSON.stringify({ dayId: randomUUID(), completedAt: new Date().toISOString() })]);
  const startB = Date.now();
  await db.query(
    `INSERT INTO event_outbox (id, user_id, event, data, occurred_at)
     SELECT x.id::uuid, $1, 'day_completed', x.data::jsonb, now() FROM unnest($2::text[], $3::text[]) AS x(id, data)`,
    [user.id, rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
  const burstDone = await waitUntil(() => received().length >= before + BURST_EVENTS * WEBHOOKS, 120_000);
  const burst = received().slice(before);
  const firstB = Math.min(...burst.map((r) => r.at));
  const lastB = Math.max(...burst.map((r) => r.at));
  const burstRate = burst.length / ((lastB - startB) / 1000);
  const { rows: statusRows } = await db.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status`);

  const summary = {
    sustained: {
      writes,
      writesPerS: round(writes / durationS, 0),
      deliveries: sustained.length,
      expected: expectedA,
      allArrived,
      deliveriesPerS: round(sustainedRate, 0),
      delayMs: { p50: percentile(delays, 50), p90: percentile(delays, 90), p99: percentile(delays, 99), max: delays.at(-1) },
    },
    burst: {
      deliveries: burst.length,
      expected: BURST_EVENTS * WEBHOOKS,
      complete: burstDone,
      firstArrivalMs: firstB - startB,
      drainS: round((lastB - startB) / 1000, 2),
      deliveriesPerS: round(burstRate, 0),
    },
    statuses: Object.fromEntries(statusRows.map((r) => [r.status, r.n])),
  };
  const met = {
    deliveriesPerS: Math.max(summary.burst.deliveriesPerS, summary.sustained.deliveriesPerS) >= TARGET_DELIVERIES_PER_S,
    medianDelay: summary.sustained.delayMs.p50 < TARGET_MEDIAN_DELAY_MS,
  };
  console.log('');
  printTable(
    ['run', 'deliveries', 'deliveries/s', 'p50 delay ms', 'p90 delay ms', 'p99 delay ms'],
    [
      ['(a) sustained API writes', sustained.length, summary.sustained.deliveriesPerS, summary.sustained.delayMs.p50, summary.sustained.delayMs.p90, summary.sustained.delayMs.p99],
      ['(b) burst of outbox rows', burst.length, summary.burst.deliveriesPerS, '-', '-', '-'],
    ],
  );
  console.log('');
  console.log(`deliveries/s (burst ${summary.burst.deliveriesPerS}; target >= ${TARGET_DELIVERIES_PER_S}): ${met.deliveriesPerS ? 'met' : 'MISSED'}`);
  console.log(`median write-to-first-attempt delay ${summary.sustained.delayMs.p50} ms (target < ${TARGET_MEDIAN_DELAY_MS} ms): ${met.medianDelay ? 'met' : 'MISSED'}`);
  console.log(`delivery statuses: ${JSON.stringify(summary.statuses)}`);
  return {
    scenario: 'webhook-deliveries',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length, loadavg: (await import('node:os')).loadavg() },
    load: ctx.load,
    targets: { deliveriesPerS: TARGET_DELIVERIES_PER_S, medianDelayMs: TARGET_MEDIAN_DELAY_MS, met },
    summary,
  };
}

const scenario: Scenario = {
  name: 'webhook-deliveries',
  description: 'outgoing webhook deliveries to a local HTTPS receiver: deliveries/s and write-to-first-attempt delay',
  run,
};
export default scenario;
