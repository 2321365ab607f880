import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { addDays, mondayOf, todayIn } from '../core/dates.js';
import { completeDay, logTraining, outboxEvents, stats, toggle } from './gamification.test-helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

/** Day ids by date for the weeks around `today` (this week and the `weeksBack` before it). */
async function daysAround(client: HttpClient, today: string, weeksBack: number): Promise<Map<string, string>> {
  const byDate = new Map<string, string>();
  for (let w = 0; w <= weeksBack; w++) {
    const week = await generateWeek(client, addDays(mondayOf(today), -7 * w));
    for (const day of week.days) byDate.set(day.date, day.id);
  }
  return byDate;
}

async function streakEvents(userId: string, type: string): Promise<number[]> {
  const events = (await outboxEvents(app, userId, 'streak_updated')).filter((e) => e.data.streakType === type);
  for (const e of events) expect(Object.keys(e.data).sort()).toEqual(['currentStreak', 'streakType', 'updatedAt']);
  return events.map((e) => e.data.currentStreak as number);
}

describe('checklist streak: consecutive completed days in the user\'s time zone', () => {
  // At any moment at least one of these zones is on another date than UTC (+14 h and -11 h), so a
  // streak counted on UTC dates fails one of the two cases.
  it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])('counts back from today or yesterday in %s, and a gap breaks it', async (zone) => {
    const { client, id } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: zone })).status).toBe(200);
    const today = todayIn(zone);
    const days = await daysAround(client, today, 1);
    const day = (offset: number) => days.get(addDays(today, offset))!;

    await completeDay(client, day(-3));
    await completeDay(client, day(-2));
    expect((await stats(client)).streaks.checklist).toBe(0); // yesterday is not done: no current streak
    await completeDay(client, day(-1));
    expect((await stats(client)).streaks.checklist).toBe(3); // today may still come
    await completeDay(client, day(0));
    expect((await stats(client)).streaks.checklist).toBe(4);

    // Un-ticking an item of day -2 reopens it: the streak is today and yesterday.
    await toggle(client, day(-2), 'MAKE_BED');
    expect((await stats(client)).streaks).toEqual({ checklist: 2, training: 0 });
    expect(await streakEvents(id, 'checklist')).toEqual([3, 4, 2]);
  });

  it('days completed far in the future or past (not touching today) make no streak', async () => {
    const { client, id } = await signUp(app.url);
    const week = await generateWeek(client, '2032-03-01');
    await completeDay(client, week.days[0].id);
    await completeDay(client, week.days[1].id);
    expect((await stats(client)).streaks.checklist).toBe(0);
    expect(await streakEvents(id, 'checklist')).toEqual([]);
  });
});

describe('training streak: consecutive weeks with at least 3 sessions', () => {
  it('counts from last week while this week has fewer than 3, from this week once it has 3', async () => {
    const { client, id } = await signUp(app.url);
    const today = todayIn('UTC');
    const monday = mondayOf(today);
    const days = await daysAround(client, today, 3);
    const on = (weeksBack: number) => days.get(addDays(monday, -7 * weeksBack))!;

    for (let i = 0; i < 3; i++) await logTraining(client, on(3)); // a week that a gap cuts off
    for (let i = 0; i < 3; i++) await logTraining(client, on(1));
    expect((await stats(client)).streaks.training).toBe(1);
    for (let i = 0; i < 2; i++) await logTraining(client, on(2));
    expect((await stats(client)).streaks.training).toBe(1);
    await logTraining(client, on(2));
    expect((await stats(client)).streaks.training).toBe(3); // weeks -1, -2, -3

    const thisWeek = [];
    for (let i = 0; i < 3; i++) thisWeek.push(await logTraining(client, on(0)));
    expect((await stats(client)).streaks.training).toBe(4);
    // Deleting one of this week's sessions: this week can still make it, the streak is the 3 before.
    expect((await client.delete(`/api/v1/training/sessions/${thisWeek[0].id}`)).status).toBe(200);
    expect((await stats(client)).streaks).toEqual({ checklist: 0, training: 3 });
    expect(await streakEvents(id, 'training')).toEqual([1, 3, 4, 3]);
  });
});
