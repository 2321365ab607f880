/** Habits one person may have (archived ones included): the next is refused (400 `habit_limit`). */
export const HABITS_MAX = 100;
/** Entries one habit may hold on one day: the next is refused (400 `habit_entry_limit`). */
export const HABIT_ENTRIES_PER_DAY_MAX = 50;
/**
 * Days of history a streak read walks back from today (whole weeks or months for quotas): the work of
 * a streak is bounded whatever the habit's age. A longer streak shows as its part within them;
 * `longestStreak` keeps the longest ever computed.
 */
export const STREAK_HISTORY_DAYS = 400;
/**
 * Missed due days (or failed quota weeks and months) per calendar month that keep a running streak
 * instead of breaking it, as Duolingo's streak freezes do; used automatically, oldest miss first.
 */
export const STREAK_FREEZES_PER_MONTH = 2;

export const HABIT_NAME_MAX = 100;
export const HABIT_ICON_MAX = 32;
export const HABIT_UNIT_MAX = 20;
export const HABIT_NOTE_MAX = 1000;
/** Largest target or entry value (minutes, times or an amount). */
export const HABIT_VALUE_MAX = 1_000_000;
/** A DURATION entry or target lasts at most a day. */
export const HABIT_MINUTES_MAX = 1_440;
