import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { keyHolder } from './public-api.test-helpers.js';

/**
 * A Public API write whose today was deleted a moment ago elsewhere (issue 36.4): the cached day id (or
 * the one just read) names a day that is gone before the write lands. The deletion runs as another
 * instance or an admin would, in plain SQL on a connection of the test's own, and commits while the write
 * waits on its lock: the write has read today's id already and its NOTIFY has not been sent yet. The
 * write answers as usual, on the new today, and writes its row once.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** Deletes the person's weeks (and so their days) in a transaction that commits once a request waits on it. */
async function deleteDaysUnder(userId: string, request: () => Promise<{ status: number; text: string; body: any }>) {
  const deleter = new pg.Client({ connectionString: app.databaseUrl });
  await deleter.connect();
  try {
    const { pid } = (await deleter.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
    await deleter.query('begin');
    await deleter.query('delete from weeks where user_id = $1', [userId]);
    const pending = request();
    // The write has read today's id and waits on the deleted day's row lock.
    await expect
      .poll(async () => (await sql(app.databaseUrl, 'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid]))[0]!.n, { timeout: 10_000 })
      .toBe(1);
    await deleter.query('commit');
    return await pending;
  } finally {
    await deleter.end();
  }
}

const writes = [
  // One statement writing the intake and its event (the day's ownership not read again): a foreign-key violation
  // (the day is locked before the person's version row, so the write waits for the deletion: record-event.ts).
  { route: '/water', body: { volume: 250 }, table: 'water_intakes' },
  // The ownership read passes, the flush of the request's unit of work meets the foreign key.
  { route: '/body-metrics', body: { weight: 80 }, table: 'body_measurements' },
  // The day locked in the write's transaction: no day once the deletion commits (NOT_FOUND).
  { route: '/mood', body: { mood: 6, energy: 5 }, table: 'mood_entries' },
];

describe('a Public API write on a today deleted meanwhile', () => {
  it.each(writes)('POST $route lands once on the new today', async ({ route, body, table }) => {
    const user = await keyHolder(app);
    const cache = app.server.deps.todayDayIds!;
    // Today's id cached (the cache is used once its listener listens).
    await expect
      .poll(async () => {
        expect((await user.api.post('/water', { volume: 100 })).status).toBe(200);
        return cache.size;
      }, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const [before] = await sql(app.databaseUrl, 'select d.id, d.date from water_intakes w join days d on d.id = w.day_id where w.user_id = $1 limit 1', [user.id]);

    const res = await deleteDaysUnder(user.id, () => user.api.post(route, body));

    expect(res.status, res.text).toBe(200);
    const today = await sql(app.databaseUrl, 'select id from days where user_id = $1 and date = $2', [user.id, before!.date]);
    expect(today).toEqual([{ id: expect.any(String) }]);
    expect(today[0]!.id).not.toBe(before!.id);
    // The failed attempt wrote nothing, the retry one row, on the new today.
    const rows = await sql(app.databaseUrl, `select day_id from ${table} where user_id = $1`, [user.id]);
    expect(rows).toEqual([{ day_id: today[0]!.id }]);
  });
});
