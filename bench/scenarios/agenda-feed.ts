import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { MB, sampleRss } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import { probeHealth } from '../lib/health-probe.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 23 item 4: a calendar feed of a user with 20,000 deadlines in the feed's window (the audit's
 * feed), fetched whole (alone and 8 at once) and as a calendar app polls it (If-None-Match → 304).
 * Reports each fetch's time and size, the longest /healthz wait meanwhile (how long the event loop was
 * held) and the service's peak RSS.
 */
const ENTRIES = 20_000;
const PARALLEL = 8;
const POLLS = 50;

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  const { client, id: userId } = await signUp(service.url, `bench-feed-${Date.now()}@example.com`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    await db.query(
      `insert into deadlines (id, created_at, updated_at, user_id, title, due_date)
       select gen_random_uuid(), now(), now(), $1, 'Deadline ' || n, now() - interval '89 days' + (n * interval '1 minute' * 12) from generate_series(1, $2::int) as n`,
      [userId, ENTRIES],
    );
  } finally {
    await db.end();
  }
  const path = new URL((await client.post('/api/v1/agenda/feed')).body.data.url).pathname;

  const fetchFeed = async (headers: Record<string, string> = {}) => {
    const started = performance.now();
    const res = await fetch(service.url + path, { headers });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, bytes, ms: performance.now() - started, etag: res.headers.get('etag') ?? '' };
  };
  const probed = async <T>(work: () => Promise<T>) => {
    const rss = sampleRss(service.pid, 50);
    const health = probeHealth(service.url, 10);
    const result = await work();
    const longest = await health.stop();
    return { result, longest, peak: rss.stop().peak };
  };

  await fetchFeed(); // first use loads ical-generator
  const rows: (string | number)[][] = [];
  const single = await probed(() => fetchFeed());
  rows.push(['1 full fetch', single.result.status, round(single.result.bytes / MB, 2), round(single.result.ms, 0), round(single.longest, 0), round(single.peak / MB, 0)]);
  const parallel = await probed(() => Promise.all(Array.from({ length: PARALLEL }, () => fetchFeed())));
  rows.push([`${PARALLEL} full fetches at once`, parallel.result.map((r) => r.status).join(','), round(parallel.result[0]!.bytes / MB, 2), round(Math.max(...parallel.result.map((r) => r.ms)), 0), round(parallel.longest, 0), round(parallel.peak / MB, 0)]);
  const etag = single.result.etag;
  const polls = await probed(async () => {
    const times: number[] = [];
    for (let i = 0; i < POLLS; i++) times.push((await fetchFeed({ 'If-None-Match': etag })).ms);
    return times.sort((a, b) => a - b);
  });
  rows.push([`${POLLS} polls with If-None-Match`, '304', 0, `median ${round(polls.result[Math.floor(POLLS / 2)]!, 1)}`, round(polls.longest, 0), round(polls.peak / MB, 0)]);
  console.log('');
  console.log(`${ENTRIES} deadlines in the window; the feed answers its first 5,000`);
  printTable(['fetch', 'status', 'answer MB', 'slowest ms', 'longest /healthz ms', 'peak RSS MB'], rows);
  return { scenario: 'agenda-feed', measuredAt: new Date().toISOString(), entries: ENTRIES, rows };
}

const scenario: Scenario = {
  name: 'agenda-feed',
  description: 'issue 23.4: a calendar feed over 20,000 entries fetched whole (alone, 8 at once) and polled with If-None-Match',
  run,
};
export default scenario;
