import type { ReminderKind, ReminderKindName } from '../reminder-kind.js';
import { taskAtTimeKind } from './task-at-time.js';
import { bedtimeInBedKind, bedtimeLightsOutKind } from './bedtime.js';
import { birthdayKind } from './birthday.js';
import { deadlineKind } from './deadline.js';
import { eveningReviewKind } from './evening-review.js';
import { habitKind } from './habit.js';
import { happeningKind } from './happening.js';
import { morningBriefKind } from './morning-brief.js';
import { taskStartKind } from './task-start.js';

/**
 * Every reminder kind the engine knows, by name (one module per kind in this folder). A kind missing
 * here cannot be stored: the reminder service refuses it.
 */
export const REMINDER_KIND_IMPLEMENTATIONS: Partial<Record<ReminderKindName, ReminderKind>> = {
  task_at_time: taskAtTimeKind,
  task_start: taskStartKind,
  deadline: deadlineKind,
  happening: happeningKind,
  birthday: birthdayKind,
  bedtime_in_bed: bedtimeInBedKind,
  bedtime_lights_out: bedtimeLightsOutKind,
  morning_brief: morningBriefKind,
  evening_review: eveningReviewKind,
  habit: habitKind,
};
