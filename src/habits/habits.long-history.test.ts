import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { addDays, mondayOf } from '../core/dates.js';
import { STREAK_HISTORY_DAYS } from './habit-limits.js';
import { createHabit, HABITS_CLOCK, setTimezone, today } from './habits.test-helpers.js';

/**
 * A log's streak update is bounded whatever the habit's age: a habit with two years of daily entries
 * (written straight in SQL) logs with the statements of a habit made today, and its streak walk stops at
 * STREAK_HISTORY_DAYS; an entry that turns no day done does not walk it at all.
 */
let app: TestApp;
beforeAll(async () => {
  // Its own app (the statements are counted), on the habit tests' pinned clock.
  app = await startTestApp({ TEST_CLOCK: HABITS_CLOCK });
});
afterAll(async () => {
  await app?.close();
});

/** Weeks, days and one entry a day from `from` to yesterday, for a person with no days yet. */
async function insertHistory(userId: string, habitId: string, from: string, yesterday: string): Promise<void> {
  await sql(
    app.databaseUrl,
    `with w as (
       insert into weeks (id, created_at, updated_at, user_id, start_date, end_date)
       select gen_random_uuid(), now(), now(), $1, m::date, m::date + 6 from generate_series($2::date, $3::date, '7 days') m
       returning id, start_date),
     d as (
       insert into days (id, created_at, updated_at, user_id, week_id, date)
       select gen_random_uuid(), now(), now(), $1, w.id, w.start_date + i from w, generate_series(0, 6) i
       returning id, date)
     insert into habit_entries (id, created_at, updated_at, user_id, day_id, habit_id, date, value)
     select gen_random_uuid(), now(), now(), $1, d.id, $4, d.date, 1 from d where d.date between $5::date and $6::date`,
    [userId, mondayOf(from), mondayOf(today()), habitId, from, yesterday],
  );
}

/** Whether the write's transaction read the habit's history (the REST answer's `habit.streak` reads it after). */
const walkedInWrite = (sql: string[]) => sql.slice(sql.indexOf('BEGIN;'), sql.indexOf('COMMIT;')).some((s) => /from habit_entries[\s\S]*group by habit_id, date/.test(s));

async function logCounted(client: HttpClient, habitId: string): Promise<{ n: number; ms: number; sql: string[] }> {
  const recorder = recordStatements();
  const started = performance.now();
  const res = await client.post(`/api/v1/habits/${habitId}/entries`, { date: today() }).finally(() => recorder.stop());
  expect(res.status, res.text).toBe(201);
  return { n: recorder.statements.length, ms: performance.now() - started, sql: recorder.statements };
}

describe('a long history', () => {
  it('logs with the statements of a new habit, and its streak walks at most STREAK_HISTORY_DAYS', async () => {
    const veteran = await signUp(app.url);
    const newcomer = await signUp(app.url);
    for (const { client } of [veteran, newcomer]) await setTimezone(client, 'UTC');
    const start = addDays(today(), -730);
    const old = await createHabit(veteran.client, { name: 'Read', startDate: start });
    await insertHistory(veteran.id, old.id, start, addDays(today(), -1));
    const fresh = await createHabit(newcomer.client, { name: 'Read' });
    await newcomer.client.post('/api/v1/weeks/generate', { startDate: mondayOf(today()) });

    const small = await logCounted(newcomer.client, fresh.id);
    const large = await logCounted(veteran.client, old.id);
    console.info(`log with 730 days of history: ${large.n} statements, ${large.ms.toFixed(1)} ms; new habit: ${small.n}, ${small.ms.toFixed(1)} ms`);
    expect(large.n).toBe(small.n);
    expect(walkedInWrite(large.sql)).toBe(true);
    // A second entry on a day already done changes no day's done-ness: the stored streak stands, unread.
    const again = await logCounted(veteran.client, old.id);
    expect(walkedInWrite(again.sql)).toBe(false);
    console.info(`a second entry the same day: ${again.n} statements, ${again.ms.toFixed(1)} ms`);
    expect(again.n).toBeLessThan(large.n);
    // The streak read within the window: today and the days back to its edge.
    const streak = (await veteran.client.get(`/api/v1/habits/${old.id}/streak`)).body.data;
    expect(streak.current).toBe(STREAK_HISTORY_DAYS + 1);
  });
});
