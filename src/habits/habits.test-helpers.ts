import { expect } from 'vitest';
import type { HttpClient } from '../../test/support/http-client.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { addDays, todayIn } from '../core/dates.js';

export { MISSING_ID } from '../../test/support/fixtures.js';

export async function createHabit(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/habits', { name: 'Floss', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function logEntry(client: HttpClient, habitId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post(`/api/v1/habits/${habitId}/entries`, body);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function setTimezone(client: HttpClient, timezone: string): Promise<void> {
  const res = await client.patch('/api/v1/settings', { timezone });
  expect(res.status, res.text).toBe(200);
}

/**
 * The instant the habit tests' app starts its clock at (TEST_CLOCK, docs/operations.md): a Wednesday's
 * noon in mid-month, so "today" and the days around it are the same dates whatever day (or midnight, or
 * month end) the tests run on: the clock runs on from there, 12 hours from the next day. Habits read their
 * today from the app's clock. Each file starts its own app on it and closes it (a second app kept for the
 * worker's life held connections every later file needed).
 */
export const HABITS_CLOCK = '2026-03-18T12:00:00Z';
export const habitsTestApp = () => startTestApp({ RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000', TEST_CLOCK: HABITS_CLOCK });

/** Today in the zone at HABITS_CLOCK (the same date for the run's hours), and `n` days from it. */
export const today = (zone = 'UTC') => todayIn(zone, new Date(HABITS_CLOCK));
export const daysFromToday = (n: number, zone = 'UTC') => addDays(today(zone), n);

/** The person's day id on a date (its week generated when needed). */
export async function dayIdOn(client: HttpClient, date: string): Promise<string> {
  const { mondayOf } = await import('../core/dates.js');
  const res = await client.post('/api/v1/weeks/generate', { startDate: mondayOf(date) });
  expect([200, 201], res.text).toContain(res.status);
  return res.body.data.days.find((d: any) => d.date === date).id;
}

/** Copies a row `times` times straight in the database (to reach a cap quickly). */
export async function copyRow(app: TestApp, table: string, id: string, times: number): Promise<void> {
  const columns = (await sql(app.databaseUrl, `select column_name from information_schema.columns where table_name = $1 and column_name <> 'id'`, [table])).map((c) => String(c.column_name));
  const list = columns.map((c) => `"${c}"`).join(', ');
  await sql(app.databaseUrl, `insert into "${table}" (id, ${list}) select gen_random_uuid(), ${columns.map((c) => `t."${c}"`).join(', ')} from "${table}" t, generate_series(1, $2) where t.id = $1`, [id, times]);
}

export async function xpOf(client: HttpClient): Promise<number> {
  const res = await client.get('/api/v1/gamification/stats');
  expect(res.status, res.text).toBe(200);
  return res.body.data.xp;
}
