import { NotFoundError } from '../../core/errors.js';
import { DinnerPlanService } from '../../nutrition/dinner-plan.service.js';
import type { Day } from '../../planning/day.entity.js';
import { DayService } from '../../planning/day.service.js';
import { createPlanningLoaders } from '../../planning/planning.loaders.js';
import { DeadlineService } from '../../projects/deadline.service.js';
import { ProjectTaskService } from '../../projects/project-task.service.js';
import { TaskStatus } from '../../tasks/task-status.js';
import { TaskService } from '../../tasks/task.service.js';
import { TrainingSessionService } from '../../training/training-session.service.js';
import type { KindContext, ReminderKind, ReminderMessage, ReminderOccurrence, ReminderSpec } from '../reminder-kind.js';
import { targetsReader } from './bedtime.js';
import { mealTemplateName } from './kinds.queries.js';
import { clip, isClockTime, listed, localClock, localDate, localInstant, nextDaily, shortDate } from './local-time.js';

/** How far ahead the brief looks for deadlines and due cards. */
export const BRIEF_DEADLINE_DAYS = 7;
/** Items named per line (the rest are counted), and the longest line, so the brief stays a few short lines. */
const SHOWN = 3;
const LINE_MAX = 160;
/** Read at most this many of each due kind (the brief names three). */
const DUE_READ = 20;

/** The user's day on `date` when its week was generated, else null (a brief never creates days). */
export async function plannedDay(ctx: KindContext, userId: string, date: string): Promise<Day | null> {
  try {
    return await ctx.service(DayService).onDate(userId, date);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

async function dayLines(ctx: KindContext, userId: string, day: Day): Promise<string[]> {
  const [perimeter, tasks, training, dinner] = await Promise.all([
    createPlanningLoaders(ctx.em).perimeterByDayId.load(day.id),
    ctx.service(TaskService).list(userId, { dayId: day.id, limit: 100 }),
    ctx.service(TrainingSessionService).list(userId, { dayId: day.id, limit: 10 }),
    ctx.service(DinnerPlanService).list(userId, { dayId: day.id, limit: 1 }),
  ]);
  const lines: string[] = [];
  if (perimeter.length) lines.push(`Perimeter: ${listed(perimeter.map((p) => p.title), SHOWN + 2)}`);
  const open = tasks.items
    .filter((t) => t.status === TaskStatus.todo || t.status === TaskStatus.doing)
    .sort((a, b) => (a.startTime ?? '99:99').localeCompare(b.startTime ?? '99:99'));
  if (open.length) lines.push(`Tasks: ${listed(open.map((t) => (t.startTime ? `${t.startTime} ${t.title}` : t.title)), SHOWN)}`);
  if (training.items.length) lines.push(`Training: ${listed(training.items.map((s) => `${s.split} at ${localClock(s.startTime, ctx.timezone)}`), SHOWN)}`);
  const plan = dinner.items[0];
  if (plan) {
    const meal = plan.mealTemplateId ? await mealTemplateName(ctx.em, userId, plan.mealTemplateId) : null;
    const note = plan.isCookDay ? (plan.cooked ? 'cooked' : 'cook today') : plan.coveredByDinnerPlanId ? 'leftovers' : null;
    lines.push(`Dinner: ${meal ?? 'not chosen'}${note ? ` (${note})` : ''}`);
  }
  return lines;
}

/** Deadlines (not done or missed) and cards (not done) due from `from` to `BRIEF_DEADLINE_DAYS` days after it. */
async function dueLine(ctx: KindContext, userId: string, from: Date): Promise<string | null> {
  const until = new Date(from.getTime() + BRIEF_DEADLINE_DAYS * 86_400_000);
  const [deadlines, cards] = await Promise.all([
    ctx.service(DeadlineService).list(userId, { upcoming: true, limit: DUE_READ }),
    ctx.service(ProjectTaskService).findOwn(userId, { dueFrom: from, dueUntil: until }, DUE_READ),
  ]);
  const due = [
    ...deadlines.items.filter((d) => d.status !== 'missed' && d.dueDate >= from && d.dueDate <= until).map((d) => ({ title: d.title, at: d.dueDate })),
    ...cards.map((c) => ({ title: c.title, at: c.dueDate! })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (!due.length) return null;
  return `Due soon: ${listed(due.map((d) => `${d.title} (${shortDate(localDate(d.at, ctx.timezone))})`), SHOWN)}`;
}

/**
 * `morning_brief`: each day at `localTime` when one is set, else at the wake target (the stress-week
 * value in a stress week; a day whose week was never generated uses the normal one), minus `offsetMinutes`. Keyed by the day. The message:
 * the day's perimeter, its open tasks (by start time), its training sessions, its dinner, and the
 * deadlines and cards due in the next 7 days; three of each at most, the rest counted. Always sent (a
 * day with nothing planned says so); it never creates the day.
 */
export const morningBriefKind: ReminderKind = {
  name: 'morning_brief',
  target: null,
  localTime: 'optional',

  async checkTarget() {},

  async nextOccurrence(ctx, spec, after) {
    const targets = targetsReader(ctx, spec.userId);
    // A time the person chose wins over the wake target (which moves with stress weeks).
    const at = async (date: string) => (isClockTime(spec.localTime) ? spec.localTime : (await targets(date)).wakeTime);
    return nextDaily(after, spec.offsetMinutes, ctx.timezone, async (date) => localInstant(date, await at(date), ctx.timezone));
  },

  async stillDue() {
    return true;
  },

  async message(ctx: KindContext, spec: ReminderSpec, occurrence: ReminderOccurrence): Promise<ReminderMessage> {
    const date = occurrence.key;
    const [day, targets] = await Promise.all([plannedDay(ctx, spec.userId, date), targetsReader(ctx, spec.userId)(date)]);
    const lines = day ? await dayLines(ctx, spec.userId, day) : [];
    const due = await dueLine(ctx, spec.userId, occurrence.dueAt);
    if (due) lines.push(due);
    if (!lines.length) lines.push('Nothing planned yet.');
    lines.push(`In bed by ${targets.inBedTime}, lights out ${targets.lightsOutTime}.`);
    return {
      title: `Good morning: ${shortDate(date)}${targets.stressWeek ? ' (stress week)' : ''}`,
      body: lines.map((line) => clip(line, LINE_MAX)).join('\n'),
      url: day ? `/api/v1/days/${day.id}` : '/api/v1/days/today',
    };
  },
};
