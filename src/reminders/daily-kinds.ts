import type { ReminderKindName } from './reminder-kind.js';

/**
 * The daily kinds (about no record: `target: null` in kinds/): a person holds at most one reminder of
 * each (issue 34, item 10), refused by the service with 409 REMINDER_EXISTS and kept by the partial
 * unique index `reminders_one_per_daily_kind`. A test checks this list against the kind registry.
 */
export const DAILY_REMINDER_KINDS: readonly ReminderKindName[] = ['bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review'];

export const DAILY_KIND_INDEX_SQL = `create unique index "reminders_one_per_daily_kind" on "reminders" ("user_id", "kind") where "kind" in (${DAILY_REMINDER_KINDS.map((k) => `'${k}'`).join(', ')})`;
