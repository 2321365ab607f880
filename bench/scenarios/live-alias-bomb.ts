import pg from 'pg';
import WebSocket from 'ws';
import { signUp } from '../../test/support/http-client.js';
import { MB, readMemory, sampleRss } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import { probeHealth } from '../lib/health-probe.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 34, item 1: the audit's subscription bomb. One person's week holds TASKS tasks (200 a day, the
 * day cap) of 10,000-character descriptions; SUBSCRIPTIONS sockets each subscribe to `weekChanged`
 * with the description under 14 aliases (within the alias limit). Reports the largest frame a socket
 * received, the time to that first message, the service's peak RSS and its RSS afterwards, and the
 * longest `/healthz` wait meanwhile; then the same selection as a query over HTTP.
 */
const TASKS = Number(process.env.BENCH_BOMB_TASKS ?? 1400);
const SUBSCRIPTIONS = Number(process.env.BENCH_BOMB_SUBSCRIPTIONS ?? 6);
const ALIASES = 14;
const DESCRIPTION_CHARS = 10_000;
const MONDAY = '2026-11-23';

const selection = `days { tasks { ${Array.from({ length: ALIASES }, (_, i) => `d${i}: description`).join(' ')} } }`;

/** A raw graphql-ws socket: resolves with the size of the first message after the ack, and when it came. */
function subscribeOnce(url: string, cookie: string): Promise<{ bytes: number; ms: number; kind: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie }, maxPayload: 1024 * MB });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8', 0, Math.min(data.length, 200));
      if (text.includes('"connection_ack"')) {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { weekChanged(startDate: "${MONDAY}") { ${selection} } }` } }));
        return;
      }
      const kind = text.includes('"errors"') ? 'error event' : text.includes('"type":"error"') ? 'error' : 'data';
      resolve({ bytes: data.length, ms: performance.now() - started, kind });
      socket.close();
    });
    socket.on('close', (code) => reject(new Error(`closed ${code} before an answer`)));
    socket.on('error', reject);
  });
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  ctx.log(`service pid ${service.pid} at ${service.url}; ${TASKS} tasks, ${SUBSCRIPTIONS} subscriptions of ${ALIASES} aliases`);
  const user = await signUp(service.url, `bench-live-bomb-${Date.now()}@example.com`);
  const week = await user.client.post('/api/v1/weeks/generate', { startDate: MONDAY });
  if (week.status !== 201) throw new Error(`week answered ${week.status}: ${week.text}`);
  const dayIds: string[] = week.body.data.days.map((d: { id: string }) => d.id);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    for (let i = 0; i * 200 < TASKS; i++) {
      await db.query(
        `insert into tasks (id, created_at, updated_at, user_id, title, timebox, status, day_id, description)
         select gen_random_uuid(), now(), now(), $1, 'Task ' || n, 30, 'todo', $2, repeat(chr(97 + n % 26), $4) from generate_series(1, $3) as n`,
        [user.id, dayIds[i % 7], Math.min(200, TASKS - i * 200), DESCRIPTION_CHARS],
      );
    }
  } finally {
    await db.end();
  }
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = readMemory(service.pid)?.rss ?? 0;

  const rss = sampleRss(service.pid, 50);
  const health = probeHealth(service.url);
  const answers = await Promise.all(Array.from({ length: SUBSCRIPTIONS }, () => subscribeOnce(service.url, user.client.cookie!)));
  const longestHealthMs = await health.stop();
  const memory = rss.stop();
  await new Promise((r) => setTimeout(r, 3000));
  const rssAfter = readMemory(service.pid)?.rss ?? 0;

  const httpStarted = performance.now();
  const http = await user.client.graphql(`{ week(startDate: "${MONDAY}") { ${selection} } }`);
  const httpMs = performance.now() - httpStarted;

  const summary = {
    largestFrameMB: round(Math.max(...answers.map((a) => a.bytes)) / MB, 2),
    firstMessages: [...new Set(answers.map((a) => a.kind))].join(', '),
    slowestFirstMessageMs: round(Math.max(...answers.map((a) => a.ms)), 0),
    rssBeforeMB: round(rssBefore / MB, 0),
    peakRssMB: round(memory.peak / MB, 0),
    rssAfterMB: round(rssAfter / MB, 0),
    longestHealthzMs: round(longestHealthMs, 0),
    http: { status: http.status, ms: round(httpMs, 0), bytes: http.text.length },
  };
  console.log('');
  printTable(
    ['subscriptions', 'first message', 'largest frame MB', 'slowest first ms', 'RSS before MB', 'peak RSS MB', 'RSS after MB', 'longest /healthz ms', 'same over HTTP'],
    [[SUBSCRIPTIONS, summary.firstMessages, summary.largestFrameMB, summary.slowestFirstMessageMs, summary.rssBeforeMB, summary.peakRssMB, summary.rssAfterMB, summary.longestHealthzMs, `${http.status} in ${summary.http.ms} ms`]],
  );
  return { scenario: 'live-alias-bomb', measuredAt: new Date().toISOString(), tasks: TASKS, subscriptions: SUBSCRIPTIONS, aliases: ALIASES, ...summary };
}

const scenario: Scenario = {
  name: 'live-alias-bomb',
  description: 'issue 34.1: weekChanged with 14 aliased descriptions over 1,400 long tasks on 6 sockets (frame size, RSS, /healthz wait)',
  run,
};
export default scenario;
