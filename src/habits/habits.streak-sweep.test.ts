import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { outboxEvents } from '../../test/support/expectations.js';
import { runStreakSweep } from './habit-streak-sweep.js';
import { HabitService } from './habit.service.js';
import { setTimezone } from './habits.test-helpers.js';

/** The periodic sweep: a streak broken by days passing (no write) records `habit_streak_updated`, once. */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const at = (iso: string) => new Date(iso);

describe('streak sweep', () => {
  it('keeps a streak over a day a freeze covers, breaks it when the freezes run out, and runs idempotently', async () => {
    const { client, id } = await signUp(app.url);
    await setTimezone(client, 'Pacific/Honolulu');
    const sweep = (iso: string) => runStreakSweep(app.server.orm.em, { now: at(iso), onlyUserIds: [id] });
    // 22:00 UTC is noon in Honolulu: March 10th.
    const habits = new HabitService(app.server.orm.em.fork(), () => at('2032-03-10T22:00:00Z'));
    const habit = await habits.create(id, { name: 'Walk', startDate: '2032-03-08' });
    for (const date of ['2032-03-08', '2032-03-09', '2032-03-10']) await habits.logEntry(id, { habitId: habit.id, date });

    expect(await sweep('2032-03-10T23:00:00Z')).toEqual({ habits: 0, updated: 0, more: false });
    // March 12th in Honolulu: the 11th was missed, a freeze keeps the streak (nothing to announce).
    expect(await sweep('2032-03-12T20:00:00Z')).toEqual({ habits: 1, updated: 0, more: false });
    // 01:00 UTC on the 14th is still the 13th in Honolulu: the 12th spends the second freeze.
    expect(await sweep('2032-03-14T01:00:00Z')).toEqual({ habits: 1, updated: 0, more: false });
    // The 14th there: the 13th missed with no freeze left breaks it.
    expect(await sweep('2032-03-14T11:00:00Z')).toEqual({ habits: 1, updated: 1, more: false });
    expect(await sweep('2032-03-14T11:30:00Z')).toEqual({ habits: 0, updated: 0, more: false });

    const events = (await outboxEvents(app, id, 'habit_streak_updated')).map((e) => e.data as any);
    // Three from the logs (one instant: their order is not asserted), one from the sweep.
    expect(events.map((e) => e.currentStreak).sort()).toEqual([0, 1, 2, 3]);
    expect(events.find((e) => e.currentStreak === 0)).toEqual({ habitId: habit.id, currentStreak: 0, longestStreak: 3, updatedAt: '2032-03-14T11:00:00.000Z' });
  });
});
