import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { outboxEvents } from '../../test/support/expectations.js';
import { setPlan } from '../../test/support/db.js';
import { addDays, mondayOf } from '../core/dates.js';
import { HabitService } from './habit.service.js';
import { createHabit, dayIdOn, daysFromToday, logEntry, setTimezone, today, xpOf, habitsTestApp } from './habits.test-helpers.js';

/**
 * Streaks through the service on dates around today (the person's today, UTC here, at the app's pinned
 * clock: habitsTestApp): quotas, rest days
 * (minimum mode, stress week, marks), freezes, time zones; XP and the webhook events they bring.
 */
let app: TestApp;
beforeAll(async () => {
  app = await habitsTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function person(zone = 'UTC') {
  const user = await signUp(app.url);
  await setTimezone(user.client, zone);
  return user;
}

describe('streaks', () => {
  it('a daily habit keeps its streak over a minimum-mode day, a REST mark and one missed day (a freeze)', async () => {
    const { client, id } = await person();
    const start = daysFromToday(-14);
    const habit = await createHabit(client, { name: 'Stretch', startDate: start });
    const minimum = await dayIdOn(client, daysFromToday(-3));
    expect((await client.patch(`/api/v1/days/${minimum}`, { minimumMode: true })).status).toBe(200);
    const resting = await dayIdOn(client, daysFromToday(-7));
    expect((await client.post(`/api/v1/habits/${habit.id}/days/${resting}/mark`, { mark: 'REST' })).body.data.state).toBe('REST');
    for (let n = -14; n <= -1; n++) if (![-3, -7, -10].includes(n)) await logEntry(client, habit.id, { date: daysFromToday(n) });

    const streak = await client.get(`/api/v1/habits/${habit.id}/streak`);
    expect(streak.status, streak.text).toBe(200);
    // The missed day (-10) is in today's month at the pinned clock: its freeze counts this month.
    expect(daysFromToday(-10).slice(0, 7)).toBe(today().slice(0, 7));
    expect(streak.body.data).toEqual({ habitId: habit.id, unit: 'DAY', current: 11, longest: 11, freezesUsedThisMonth: 1, freezesLeftThisMonth: 1 });
    const day = (await client.get(`/api/v1/habits/day/${minimum}`)).body.data[0];
    expect(day.state).toBe('REST');
    // Today is still open: the streak stands until the day is over.
    expect((await client.get(`/api/v1/habits/day/${await dayIdOn(client, today())}`)).body.data[0].state).toBe('PENDING');
    await logEntry(client, habit.id);
    expect((await client.get('/api/v1/habits/streaks')).body.data[0]).toMatchObject({ current: 12, longest: 12 });

    const events = (await outboxEvents(app, id, 'habit_streak_updated')).map((e) => e.data as any);
    expect(events.at(-1)).toEqual({ habitId: habit.id, currentStreak: 12, longestStreak: 12, updatedAt: expect.any(String) });
    // Logged oldest first: the days not yet logged behind each entry broke the streak until the last ones.
    const currents = events.map((e) => e.currentStreak);
    expect(currents).toEqual([...currents].sort((a, b) => a - b));
  });

  it('a 3×/week habit keeps its streak with any 3 days a week; a stress week keeps it too; a short week breaks it', async () => {
    const { client } = await person();
    const thisMonday = mondayOf(today());
    const weeks = [-4, -3, -2, -1].map((n) => addDays(thisMonday, 7 * n));
    const habit = await createHabit(client, { name: 'Gym', schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3, startDate: weeks[0] });
    const log = (monday: string, offsets: number[]) => Promise.all(offsets.map((o) => logEntry(client, habit.id, { date: addDays(monday, o) })));
    await log(weeks[0]!, [0, 1]); // short: 2 of 3
    await log(weeks[1]!, [0, 3, 6]);
    const stress = await client.post('/api/v1/weeks/generate', { startDate: weeks[2] });
    expect((await client.patch(`/api/v1/weeks/${stress.body.data.id}`, { isStressWeek: true })).status).toBe(200);
    await log(weeks[3]!, [2, 4, 5]);
    // The same day twice counts once.
    await logEntry(client, habit.id, { date: addDays(weeks[3]!, 5) });
    const streak = (await client.get(`/api/v1/habits/${habit.id}/streak`)).body.data;
    expect(streak).toMatchObject({ unit: 'WEEK', current: 2 });
    // The short first week came before any streak ran: no freeze spent on it.
    expect(streak.freezesUsedThisMonth).toBe(0);
    const week = (await client.get(`/api/v1/habits/week/${weeks[3]}`)).body.data[0];
    expect(week.done).toBe(3);
    expect(week.days.map((d: any) => d.periodDone)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect((await client.get(`/api/v1/habits/week/${weeks[2]}`)).body.data[0].days.map((d: any) => d.state)).toEqual(Array(7).fill('REST'));
  });

  it("days are the person's days: at one instant, an entry without a day lands on UTC+13's and UTC-10's own today", async () => {
    // 11:30 UTC: already 00:30 the next day in Tonga, still 01:30 in Honolulu (the service takes the clock).
    const instant = new Date('2032-03-01T11:30:00Z');
    const expected = { 'Pacific/Tongatapu': '2032-03-02', 'Pacific/Honolulu': '2032-03-01' };
    for (const [zone, date] of Object.entries(expected)) {
      const { id } = await person(zone);
      const habits = new HabitService(app.server.orm.em.fork(), () => instant);
      const habit = await habits.create(id, { name: 'Journal' });
      expect(habit.startDate).toBe(date);
      const entry = await habits.logEntry(id, { habitId: habit.id });
      expect(entry.date).toBe(date);
      expect((await habits.stateOn(id, habit, date)).state).toBe('DONE');
      expect(await habits.streak(id, habit.id)).toMatchObject({ current: 1, freezesUsedThisMonth: 0 });
      // An hour before, both were on March 1st: Tonga's day turned at 11:00 UTC.
      const earlier = new HabitService(app.server.orm.em.fork(), () => new Date(instant.getTime() - 3_600_000));
      expect(await earlier.today(id)).toBe('2032-03-01');
    }
  });
});

describe('XP and webhook events', () => {
  it('grants 5 XP when a day reaches its target (once), takes it back when a deleted entry drops it below', async () => {
    const { client, id } = await person();
    await setPlan(app.databaseUrl, id, 'pro');
    const hook = await client.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hooks/habits', events: ['habit_logged', 'habit_streak_updated'] });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.data.events).toEqual(['habit_logged', 'habit_streak_updated']);
    const water = await createHabit(client, { name: 'Water', kind: 'COUNT', target: 2 });
    const xp = await xpOf(client);
    const first = await logEntry(client, water.id);
    expect(await xpOf(client)).toBe(xp);
    const second = await logEntry(client, water.id);
    expect(await xpOf(client)).toBe(xp + 5);
    const third = await logEntry(client, water.id);
    expect(await xpOf(client)).toBe(xp + 5);
    await client.delete(`/api/v1/habits/entries/${third.id}`);
    expect(await xpOf(client)).toBe(xp + 5);
    await client.delete(`/api/v1/habits/entries/${second.id}`);
    expect(await xpOf(client)).toBe(xp);
    await logEntry(client, water.id, { value: 1 });
    expect(await xpOf(client)).toBe(xp + 5);

    const logged = await outboxEvents(app, id, 'habit_logged');
    expect(logged).toHaveLength(4);
    expect(logged[0]!.data).toEqual({ habitId: water.id, entryId: first.id, dayId: first.dayId, date: first.date, value: 1, loggedAt: expect.any(String) });
    expect((await outboxEvents(app, id, 'habit_streak_updated')).map((e) => (e.data as any).currentStreak)).toEqual([1, 0, 1]);
  });
});
