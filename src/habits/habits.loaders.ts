import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, todayIn } from '../core/dates.js';
import { readRows } from '../core/database/read-rows.js';
import type { Day } from '../planning/day.entity.js';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { Week } from '../planning/week.entity.js';
import { SettingsService } from '../settings/settings.service.js';
import { HABITS_MAX } from './habit-limits.js';
import { historyStart, streakOf } from './habit-progress.js';
import { habitDays, habitWeeks, stateRange } from './habit-views.js';
import { Habit } from './habit.entity.js';
import { historiesOf } from './habit.queries.js';
import type { HabitDay, HabitStreak, HabitWeek } from './habit.types.js';

/** Groups keys by their owner, keeping each key's index. */
function byOwner<K extends { userId: string }>(keys: readonly K[]): Map<string, { key: K; index: number }[]> {
  const groups = new Map<string, { key: K; index: number }[]>();
  keys.forEach((key, index) => {
    const list = groups.get(key.userId);
    if (list) list.push({ key, index });
    else groups.set(key.userId, [{ key, index }]);
  });
  return groups;
}

/**
 * Per-request loaders of the habits module. The day and week loaders key on a Day or Week already read
 * by its owner; per owner they cost a fixed five statements for any number of days (the habits, the
 * time zone (the request's settings loader, shared), the three of the history).
 */
export function createHabitsLoaders(
  em: EntityManager,
  timezoneOf: (userId: string) => Promise<string> = (userId) => new SettingsService(em).timezoneOf(userId),
  clock: () => Date = () => new Date(),
) {
  const activeHabits = (userId: string) => readRows(em, Habit, { where: 'userId', values: [userId], orderBy: ['position', 'createdAt', 'id'] }).then((rows) => rows.filter((h) => !h.archivedAt).slice(0, HABITS_MAX));
  const todayOf = async (userId: string) => todayIn(await timezoneOf(userId), clock());

  return {
    /** The active habits on each day, with their states (bounded by HABITS_MAX). */
    habitDaysByDay: new DataLoader<Day, HabitDay[], string>(
      async (days) => {
        const answers: HabitDay[][] = new Array(days.length);
        for (const [userId, group] of byOwner(days)) {
          const [habits, today] = await Promise.all([activeHabits(userId), todayOf(userId)]);
          const dates = group.map(({ key }) => key.date).sort();
          const range = stateRange(dates[0]!, dates[dates.length - 1]!);
          const histories = await historiesOf(em, userId, habits.map((h) => h.id), range.from, range.to);
          for (const { key, index } of group) answers[index] = habitDays(habits, histories, key.date, today);
        }
        return answers;
      },
      { cacheKeyFn: (day) => day.id },
    ),

    /** The active habits over each week, Monday to Sunday. */
    habitWeeksByWeek: new DataLoader<Week, HabitWeek[], string>(
      async (weeks) => {
        const answers: HabitWeek[][] = new Array(weeks.length);
        for (const [userId, group] of byOwner(weeks)) {
          const [habits, today] = await Promise.all([activeHabits(userId), todayOf(userId)]);
          const mondays = group.map(({ key }) => key.startDate).sort();
          const range = stateRange(mondays[0]!, addDays(mondays[mondays.length - 1]!, 6));
          const histories = await historiesOf(em, userId, habits.map((h) => h.id), range.from, range.to);
          for (const { key, index } of group) answers[index] = habitWeeks(habits, histories, key.startDate, today);
        }
        return answers;
      },
      { cacheKeyFn: (week) => week.id },
    ),

    /** Each habit's streak on today (habits already read by their owner). */
    streakByHabit: new DataLoader<Habit, HabitStreak, string>(
      async (habits) => {
        const answers: HabitStreak[] = new Array(habits.length);
        for (const [userId, group] of byOwner(habits)) {
          const today = await todayOf(userId);
          const histories = await historiesOf(em, userId, group.map(({ key }) => key.id), historyStart(today), today);
          for (const { key, index } of group) {
            const view = streakOf(key, histories.get(key.id)!, today);
            answers[index] = { habitId: key.id, ...view, longest: Math.max(view.longest, key.longestStreak) };
          }
        }
        return answers;
      },
      { cacheKeyFn: (habit) => habit.id },
    ),

    /** A habit by id, or null once deleted (an entry's `habit`). */
    habitById: new DataLoader<string, Habit | null>(async (ids) => {
      const rows = await readRows(em, Habit, { where: 'id', values: ids });
      const byId = new Map(rows.map((h) => [h.id, h]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}

export type HabitsLoaders = ReturnType<typeof createHabitsLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const HABITS_DAY_FIELDS = { habits: ['Habit', 'HabitEntry', 'HabitDayMarkRecord', 'Day', 'Week', 'UserSettings'] } as const satisfies DayFieldSources;
