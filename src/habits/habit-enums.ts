import { registerEnumType } from 'type-graphql';

/** What one entry of a habit measures. */
export enum HabitKind {
  /** Done or not: an entry is 1, the target 1. */
  CHECK = 'CHECK',
  /** A whole number of times (glasses, push-ups). */
  COUNT = 'COUNT',
  /** Whole minutes. */
  DURATION = 'DURATION',
  /** An amount in the habit's `unit` (km, pages, €). */
  AMOUNT = 'AMOUNT',
}

/** When a habit is due. */
export enum HabitSchedule {
  /** Every day. */
  DAILY = 'DAILY',
  /** On the given ISO weekdays (`weekdays`, Monday 1 … Sunday 7). */
  WEEKDAYS = 'WEEKDAYS',
  /** `timesPerPeriod` days of each week (Monday to Sunday, the planning weeks), any days. */
  TIMES_PER_WEEK = 'TIMES_PER_WEEK',
  /** `timesPerPeriod` days of each calendar month, any days. */
  TIMES_PER_MONTH = 'TIMES_PER_MONTH',
  /** The dates of an RFC 5545 rule (`recurrence`) from `startDate` (the recurrence core). */
  RRULE = 'RRULE',
}

/** A habit's mark on one day: both keep its streak (neither counts nor breaks it). */
export enum HabitDayMark {
  /** Skipped on purpose (travel, a holiday). */
  SKIP = 'SKIP',
  /** A rest day for this habit (ill, recovering). */
  REST = 'REST',
}

/** A habit on one day, as the day and week reads show it. */
export enum HabitDayState {
  /** The day's entries reach the target. */
  DONE = 'DONE',
  /** Some entries, below the target. */
  PARTIAL = 'PARTIAL',
  /** Marked SKIP. */
  SKIPPED = 'SKIPPED',
  /** Marked REST, or a rest day of the planning hub (minimum mode, a stress week). */
  REST = 'REST',
  /** Due and still open (today or later; a quota not yet met this period). */
  PENDING = 'PENDING',
  /** Due on a past day and not done (day-based schedules). */
  MISSED = 'MISSED',
  /** Not due that day (not on its weekdays or rule, before its start, or its period's quota already met). */
  NOT_DUE = 'NOT_DUE',
}

/** What one step of a streak is: a due day, or a week or month whose quota was met. */
export enum HabitStreakUnit {
  DAY = 'DAY',
  WEEK = 'WEEK',
  MONTH = 'MONTH',
}

registerEnumType(HabitKind, { name: 'HabitKind', description: 'CHECK (done or not), COUNT (times), DURATION (minutes), AMOUNT (in the habit\'s unit).' });
registerEnumType(HabitSchedule, {
  name: 'HabitSchedule',
  description: 'DAILY, WEEKDAYS (given ISO weekdays), TIMES_PER_WEEK / TIMES_PER_MONTH (a quota of any days), RRULE (an RFC 5545 rule from startDate).',
});
registerEnumType(HabitDayMark, { name: 'HabitDayMark', description: 'SKIP or REST: the day keeps the streak (neither counts nor breaks it).' });
registerEnumType(HabitDayState, { name: 'HabitDayState' });
registerEnumType(HabitStreakUnit, { name: 'HabitStreakUnit', description: 'DAY for day-based schedules, WEEK or MONTH for quotas.' });
