import 'reflect-metadata';
import pg from 'pg';
import { openDatabaseServer } from './bench/lib/database.js';
import { createScenarioContext } from './bench/lib/scenario.js';
import { signUp } from './test/support/http-client.js';
const server = await openDatabaseServer(console.log);
const { ctx, cleanup } = createScenarioContext('probe', server, { durationS: 1, warmupS: 0, connections: 1 }, false);
try {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'false', RATE_LIMIT_PUBLIC_API_MAX: '1000000000' });
  const user = await signUp(service.url, `probe-${Date.now()}@example.com`);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query(`UPDATE users SET plan = 'pro' WHERE id = $1`, [user.id]);
  const key = (await user.client.post('/api/v1/api-keys', { name: 'p' })).body.data.key;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const hit = () => fetch(`${service.url}/api/public/v1/water`, { method: 'POST', headers, body: '{"volume":250}' }).then((r) => r.text());
  for (let i = 0; i < 20; i++) await hit();
  await new Promise((r) => setTimeout(r, 500));
  await db.query(`select pg_stat_reset()`);
  await new Promise((r) => setTimeout(r, 600));
  const stat = async () => (await db.query(`select xact_commit, xact_rollback, tup_fetched, tup_returned, tup_inserted, tup_updated from pg_stat_database where datname = current_database()`)).rows[0];
  const t0 = Date.now();
  const before = await stat();
  for (let i = 0; i < 50; i++) await hit();
  const t1 = Date.now();
  await new Promise((r) => setTimeout(r, 1000));
  const after = await stat();
  console.log('ms per request sequential', (t1 - t0) / 50);
  const time = async (label: string, f: () => Promise<unknown>) => { const s = Date.now(); for (let i = 0; i < 30; i++) await f(); console.log(label, (Date.now() - s) / 30); };
  await time('search', () => fetch(`${service.url}/api/public/v1/exercises/search?q=zzzz`, { headers }).then((r) => r.text()));
  await time('bad water', () => fetch(`${service.url}/api/public/v1/water`, { method: 'POST', headers, body: '{"volume":-1}' }).then((r) => r.text()));
  await time('steps', () => fetch(`${service.url}/api/public/v1/steps`, { method: 'POST', headers, body: '{"steps":10}' }).then((r) => r.text()));
  await time('session today', () => user.client.get('/api/v1/days/today'));
  await time('session subscription', () => user.client.get('/api/v1/subscription'));
  await time('healthz', () => fetch(`${service.url}/healthz`).then((r) => r.text()));

  console.log('before', before, 'after', after);
  await db.end();
} finally {
  await cleanup();
  await server.close();
}
