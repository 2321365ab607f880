import pg from 'pg';
import { signUp } from '../../test/support/http-client.js';
import { MB, readMemory, sampleRss } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import { probeHealth } from '../lib/health-probe.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 23.3, the signed-in alias bomb: one day filled with as many tasks as the service takes (the
 * audit stored 20,000 through the connector's batches), then 15 aliased `week` reads (the alias limit)
 * selecting every task, once alone and four at once. Reports what each read answered, the service's
 * peak RSS and the longest `/healthz` wait meanwhile (how long the event loop was held).
 */
const WANTED_TASKS = 20_000;
const ALIASES = 15;
const CONCURRENT = 4;

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  ctx.log(`service pid ${service.pid} at ${service.url}`);
  const user = await signUp(service.url, `bench-bomb-${Date.now()}@example.com`);
  const week = await user.client.post('/api/v1/weeks/generate', { startDate: '2026-11-23' });
  if (week.status !== 201) throw new Error(`week answered ${week.status}: ${week.text}`);
  const dayId: string = week.body.data.days[0].id;

  // Fill the day as the audit did, but through SQL in batches (the cap is the database's, so the same).
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  let stored = 0;
  let refusal = '';
  try {
    for (let batch = 0; batch < WANTED_TASKS / 100 && !refusal; batch++) {
      try {
        await db.query(
          `insert into tasks (id, created_at, updated_at, user_id, title, timebox, status, day_id)
           select gen_random_uuid(), now(), now(), $1, 'Task ' || n, 30, 'todo', $2 from generate_series(1, 100) as n`,
          [user.id, dayId],
        );
        stored += 100;
      } catch (error) {
        refusal = `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
    }
    stored = Number((await db.query('select count(*)::int as n from tasks where day_id = $1', [dayId])).rows[0].n);
  } finally {
    await db.end();
  }
  ctx.log(`day holds ${stored} tasks${refusal ? ` (next batch refused: ${refusal})` : ''}`);

  const selection = 'week(startDate: "2026-11-23") { id days { id date tasks { id title description status timebox nextStep categoryId dayId createdAt updatedAt } } }';
  const query = `{ ${Array.from({ length: ALIASES }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
  const read = async () => {
    const started = performance.now();
    const res = await user.client.graphql(query);
    return { status: res.status, bytes: res.text.length, ms: performance.now() - started, error: res.body?.errors?.[0]?.message as string | undefined };
  };

  const rounds: (string | number)[][] = [];
  for (const parallel of [1, CONCURRENT]) {
    const rss = sampleRss(service.pid, 50);
    const health = probeHealth(service.url);
    const answers = await Promise.all(Array.from({ length: parallel }, read));
    const longestHealthMs = await health.stop();
    const memory = rss.stop();
    const first = answers[0]!;
    rounds.push([
      `${parallel} × ${ALIASES} aliased weeks`,
      answers.map((a) => a.status).join(','),
      round(first.bytes / MB, 2),
      round(Math.max(...answers.map((a) => a.ms)), 0),
      round(memory.peak / MB, 0),
      round(longestHealthMs, 0),
      first.error?.slice(0, 60) ?? '',
    ]);
  }
  console.log('');
  printTable(['read', 'status', 'answer MB (each)', 'slowest ms', 'peak RSS MB', 'longest /healthz ms', 'refusal'], rounds);
  const final = readMemory(service.pid);
  console.log(`service RSS high-water ${round((final?.hwm ?? 0) / MB, 0)} MB`);
  return { scenario: 'list-bomb', measuredAt: new Date().toISOString(), storedTasks: stored, refusal, rounds };
}

const scenario: Scenario = {
  name: 'list-bomb',
  description: 'issue 23.3: 15 aliased week reads of a day filled with tasks, alone and four at once (answer size, RSS, event-loop wait)',
  run,
};
export default scenario;
