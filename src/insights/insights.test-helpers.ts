import { expect } from 'vitest';
import { addDays, mondayOf } from '../core/dates.js';
import type { HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import type { TestApp } from '../../test/support/test-app.js';
import { runNightlyInsights, type NightlyOptions } from './nightly-insights.js';
export { seeded } from '../../test/support/seeded-random.js';

/** The nightly job on the test app's database, for these people only, at `now` (a clock passed in). */
export function runNight(app: TestApp, now: Date, userIds: string[], options: NightlyOptions = {}) {
  return runNightlyInsights(app.server.orm.em.fork(), { now, onlyUserIds: userIds, ...options });
}

/** Generates every week from the one holding `from` to the one holding `to` (through the API). */
export async function generateWeeks(client: HttpClient, from: string, to: string): Promise<void> {
  for (let monday = mondayOf(from); monday <= to; monday = addDays(monday, 7)) {
    const res = await client.post('/api/v1/weeks/generate', { startDate: monday });
    expect([200, 201], res.text).toContain(res.status);
  }
}

/**
 * Sets the days' sleep, mood and energy in one statement (a year through the API would be ~1,000
 * requests): `values(i)` for the i-th day from `from`. The days must exist (generateWeeks).
 * The person's nightly run is marked not yet done: the test app's own job, on the real clock, may have
 * built their aggregates from the empty days just before (then the next night would rebuild only
 * the last four weeks of these values). A test's nights are the clocks it passes to runNight.
 */
export async function setDays(app: TestApp, userId: string, from: string, count: number, values: (i: number) => { sleep: number | null; mood: number | null; energy: number | null }): Promise<void> {
  const dates: string[] = [];
  const sleep: (number | null)[] = [];
  const mood: (number | null)[] = [];
  const energy: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    const v = values(i);
    dates.push(addDays(from, i));
    sleep.push(v.sleep);
    mood.push(v.mood);
    energy.push(v.energy);
  }
  await sql(
    app.databaseUrl,
    `update days d set sleep_hours = v.sleep, mood = v.mood, energy = v.energy
       from unnest($2::date[], $3::float8[], $4::int[], $5::int[]) as v(date, sleep, mood, energy)
      where d.user_id = $1 and d.date = v.date`,
    [userId, dates, sleep, mood, energy],
  );
  await sql(app.databaseUrl, 'update insight_runs set run_date = null, aggregated_through = null, full_built_on = null where user_id = $1', [userId]);
}

