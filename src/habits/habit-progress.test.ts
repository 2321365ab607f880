import { describe, expect, it } from 'vitest';
import { addDays } from '../core/dates.js';
import { HabitDayMark, HabitSchedule } from './habit-enums.js';
import { dayViews, streakOf, type HabitHistory } from './habit-progress.js';
import type { HabitRules } from './habit-schedule.js';

/**
 * The streak and state rules on fixed dates (the HTTP tests in habits.streaks.test.ts walk the same
 * rules through the service on dates around today). 2031-03-03 is a Monday.
 */
const habit = (rules: Partial<HabitRules> = {}): HabitRules => ({ schedule: HabitSchedule.DAILY, weekdays: [], timesPerPeriod: null, recurrence: null, startDate: '2031-01-01', target: 1, ...rules });

function history(done: Record<string, number> | string[], extra: { marks?: Record<string, HabitDayMark>; rest?: string[] } = {}): HabitHistory {
  const values = Array.isArray(done) ? Object.fromEntries(done.map((d) => [d, 1])) : done;
  return { values: new Map(Object.entries(values)), marks: new Map(Object.entries(extra.marks ?? {})), restDates: new Set(extra.rest ?? []) };
}

const run = (from: string, days: number, skip: string[] = []) =>
  Array.from({ length: days }, (_, i) => addDays(from, i)).filter((d) => !skip.includes(d));

describe('day-based streaks', () => {
  it('counts consecutive due days done; today not yet done is still open, a missed day breaks without freezes', () => {
    const h = habit({ startDate: '2031-03-01' });
    expect(streakOf(h, history(run('2031-03-01', 9)), '2031-03-10', 0)).toMatchObject({ current: 9, longest: 9, unit: 'DAY' });
    expect(streakOf(h, history(run('2031-03-01', 10)), '2031-03-10', 0)).toMatchObject({ current: 10 });
    const missed = run('2031-03-01', 9, ['2031-03-05']);
    expect(streakOf(h, history(missed), '2031-03-10', 0)).toMatchObject({ current: 4, longest: 4 });
  });

  it('spends up to the freezes of a month on missed days (oldest first), then breaks', () => {
    const h = habit({ startDate: '2031-03-01' });
    const twoMissed = run('2031-03-01', 15, ['2031-03-05', '2031-03-09']);
    expect(streakOf(h, history(twoMissed), '2031-03-16')).toEqual({ unit: 'DAY', current: 13, longest: 13, freezesUsedThisMonth: 2, freezesLeftThisMonth: 0 });
    const threeMissed = run('2031-03-01', 15, ['2031-03-05', '2031-03-09', '2031-03-12']);
    expect(streakOf(h, history(threeMissed), '2031-03-16')).toMatchObject({ current: 3, longest: 9, freezesUsedThisMonth: 2 });
    // Freezes are per calendar month: a miss on 1 April draws on April's.
    const acrossMonths = run('2031-03-25', 14, ['2031-03-27', '2031-03-29', '2031-04-01']);
    expect(streakOf(h, history(acrossMonths), '2031-04-08')).toMatchObject({ current: 11, freezesUsedThisMonth: 1, freezesLeftThisMonth: 1 });
    // No freeze is spent before a streak runs.
    expect(streakOf(h, history(['2031-03-09']), '2031-03-10')).toMatchObject({ current: 1, freezesUsedThisMonth: 0 });
  });

  it('keeps the streak over rest days (minimum mode, stress week) and SKIP/REST marks: they neither count nor break', () => {
    const h = habit({ startDate: '2031-03-01' });
    const done = run('2031-03-01', 9, ['2031-03-03', '2031-03-05', '2031-03-07']);
    const resting = history(done, { rest: ['2031-03-03'], marks: { '2031-03-05': HabitDayMark.REST, '2031-03-07': HabitDayMark.SKIP } });
    expect(streakOf(h, resting, '2031-03-10', 0)).toMatchObject({ current: 6, longest: 6 });
    expect(dayViews(h, resting, ['2031-03-03', '2031-03-05', '2031-03-07', '2031-03-08'], '2031-03-10').map((v) => v.state)).toEqual(['REST', 'REST', 'SKIPPED', 'DONE']);
  });

  it('reads only due days: WEEKDAYS and an RRULE skip the others; a partial day is not done', () => {
    const weekdays = habit({ schedule: HabitSchedule.WEEKDAYS, weekdays: [1, 3, 5], startDate: '2031-03-03' });
    expect(streakOf(weekdays, history(['2031-03-03', '2031-03-05', '2031-03-07', '2031-03-10']), '2031-03-11', 0)).toMatchObject({ current: 4 });
    const rule = habit({ schedule: HabitSchedule.RRULE, recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', startDate: '2031-03-03' });
    expect(streakOf(rule, history(['2031-03-03', '2031-03-17', '2031-03-31']), '2031-04-01', 0)).toMatchObject({ current: 3 });
    expect(dayViews(rule, history([]), ['2031-03-10', '2031-03-17'], '2031-03-20').map((v) => v.state)).toEqual(['NOT_DUE', 'MISSED']);
    const count = habit({ target: 3, startDate: '2031-03-01' });
    expect(streakOf(count, history({ '2031-03-01': 3, '2031-03-02': 2, '2031-03-03': 3 }), '2031-03-04', 0)).toMatchObject({ current: 1, longest: 1 });
    expect(dayViews(count, history({ '2031-03-02': 2 }), ['2031-03-02'], '2031-03-04')[0]).toMatchObject({ state: 'PARTIAL', value: 2 });
  });
});

describe('quota streaks', () => {
  const thrice = habit({ schedule: HabitSchedule.TIMES_PER_WEEK, timesPerPeriod: 3, startDate: '2031-03-03' });

  it('a 3×/week habit keeps its streak with any 3 days of each week; the running week counts once met', () => {
    const done = ['2031-03-03', '2031-03-04', '2031-03-09', '2031-03-11', '2031-03-14', '2031-03-16', '2031-03-17'];
    expect(streakOf(thrice, history(done), '2031-03-18', 0)).toMatchObject({ unit: 'WEEK', current: 2 });
    expect(streakOf(thrice, history([...done, '2031-03-18', '2031-03-20']), '2031-03-20', 0)).toMatchObject({ current: 3 });
    // Two days only in the second week: broken there.
    expect(streakOf(thrice, history(['2031-03-03', '2031-03-04', '2031-03-05', '2031-03-11', '2031-03-12', '2031-03-17', '2031-03-18', '2031-03-19']), '2031-03-24', 0)).toMatchObject({ current: 1, longest: 1 });
  });

  it('rest days lower a week\'s requirement only when they leave too few days; a stress week keeps the streak', () => {
    const stress = run('2031-03-10', 7);
    const done = ['2031-03-03', '2031-03-04', '2031-03-05', '2031-03-17', '2031-03-18', '2031-03-19'];
    expect(streakOf(thrice, history(done, { rest: stress }), '2031-03-24', 0)).toMatchObject({ current: 2 });
    // Five rest days leave two: two done are enough that week.
    const fiveRest = run('2031-03-10', 5);
    expect(streakOf(thrice, history([...done, '2031-03-15', '2031-03-16'], { rest: fiveRest }), '2031-03-24', 0)).toMatchObject({ current: 3 });
    const views = dayViews(thrice, history(['2031-03-15', '2031-03-16'], { rest: fiveRest }), run('2031-03-10', 7), '2031-03-24');
    expect(views.map((v) => [v.state, v.periodDone, v.periodRequired])[0]).toEqual(['REST', 2, 2]);
  });

  it('a failed week spends a freeze of the month it ends in; months count days of the calendar month', () => {
    const done = ['2031-03-03', '2031-03-04', '2031-03-05', '2031-03-17', '2031-03-18', '2031-03-19'];
    expect(streakOf(thrice, history(done), '2031-03-24')).toMatchObject({ current: 2, freezesUsedThisMonth: 1 });
    const monthly = habit({ schedule: HabitSchedule.TIMES_PER_MONTH, timesPerPeriod: 2, startDate: '2031-01-01' });
    expect(streakOf(monthly, history(['2031-01-05', '2031-01-30', '2031-02-01', '2031-02-28', '2031-03-02']), '2031-03-15', 0)).toMatchObject({ unit: 'MONTH', current: 2 });
    expect(dayViews(monthly, history(['2031-03-02', '2031-03-05']), ['2031-03-20'], '2031-03-15')[0]).toMatchObject({ state: 'NOT_DUE', periodDone: 2, periodRequired: 2 });
    expect(dayViews(monthly, history(['2031-03-02']), ['2031-03-20'], '2031-03-15')[0]).toMatchObject({ state: 'PENDING', periodDone: 1 });
  });
});

it('walks a bounded history: a habit started years ago costs no more than one started 400 days ago', () => {
  const old = habit({ startDate: '2000-01-01' });
  const done = run('2029-01-01', 900);
  const streak = streakOf(old, history(done), '2031-06-18');
  expect(streak.current).toBeLessThanOrEqual(401);
  expect(streak.current).toBeGreaterThan(390);
});
