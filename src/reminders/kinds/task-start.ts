import { addDays } from '../../core/dates.js';
import { NotFoundError, nullIfNotFound } from '../../core/errors.js';
import { nextOccurrence as nextSeriesDate, occursOn, type Recurrence } from '../../core/recurrence/recurrence.js';
import { DayService } from '../../planning/day.service.js';
import { TaskStatus } from '../../tasks/task-status.js';
import type { Task } from '../../tasks/task.entity.js';
import { TaskService } from '../../tasks/task.service.js';
import type { KindContext, ReminderKind, ReminderOccurrence, ReminderSpec } from '../reminder-kind.js';
import { seriesTaskOn } from './kinds.queries.js';
import { clip, inHowLong, isClockTime, localDate, localInstant } from './local-time.js';
import { requireTargetId, targetKey, unscheduled } from './targets.js';

/** A task is not worth a reminder once it is done or deferred. */
const FINISHED = new Set<string>([TaskStatus.done, TaskStatus.deferred]);
/** Dates of a series looked at for one next occurrence (finished occurrences are passed over). */
const SERIES_DATES = 8;

/** One start of the task (or of one task of its series), due `offsetMinutes` before it. */
interface Start {
  task: Task;
  occurrence: ReminderOccurrence;
}

const dayDate = async (ctx: KindContext, userId: string, dayId: string | null | undefined) =>
  dayId ? ((await nullIfNotFound(ctx.service(DayService).get(userId, dayId)))?.date ?? null) : null;

/** The series the task is the first of (the one holding the rule), or null. */
function seriesOf(task: Task): Recurrence | null {
  if (!task.recurrence || task.seriesId !== task.id || !task.occurrenceDate) return null;
  return { rule: task.recurrence, start: task.occurrenceDate, exceptions: task.recurrenceExceptions, end: task.recurrenceEnd };
}

/** A task's start on its own day, when it has a day and a start time and is not finished. */
async function startOf(ctx: KindContext, spec: ReminderSpec, task: Task, date: string | null): Promise<Start | null> {
  if (FINISHED.has(task.status) || !date || !isClockTime(task.startTime)) return null;
  const dueAt = new Date(localInstant(date, task.startTime, ctx.timezone).getTime() - spec.offsetMinutes * 60_000);
  return { task, occurrence: { dueAt, key: targetKey(spec.targetId!, `${date}T${task.startTime}`) } };
}

/**
 * The next start due strictly after `after`. A single task (or one occurrence of a series, named by its
 * own id): its start time on its day. The first task of a series: every date of the series, each at the
 * start time of that date's task (made ahead in the generated weeks, perhaps moved to another day or
 * time) or, where not made yet, the series' start time on that date; finished ones are passed over.
 */
async function nextStart(ctx: KindContext, spec: ReminderSpec, after: Date): Promise<Start | null> {
  if (!spec.targetId) return null;
  const task = await nullIfNotFound(ctx.service(TaskService).get(spec.userId, spec.targetId));
  if (!task) return null;
  const series = seriesOf(task);
  if (!series) {
    const start = await startOf(ctx, spec, task, await dayDate(ctx, spec.userId, task.dayId));
    return start && start.occurrence.dueAt > after ? start : null;
  }
  let from = addDays(localDate(new Date(after.getTime() + spec.offsetMinutes * 60_000), ctx.timezone), -1);
  if (from < series.start) from = series.start;
  let date: string | null = occursOn(series, from) ? from : nextSeriesDate(series, from);
  let best: Start | null = null;
  let bestDate = '';
  for (let i = 0; date && i < SERIES_DATES; i++) {
    // Dates come in order: a later date's task starts later, unless it was moved to an earlier day.
    if (best && date > bestDate) break;
    const made = date === series.start ? task : await seriesTaskOn(ctx.em, spec.userId, task.id, date);
    // Not made yet: the series' template (the first task's start time) on that date, whatever the first task's own status.
    const day = made ? await dayDate(ctx, spec.userId, made.dayId) : date;
    const start = await startOf(ctx, spec, made ?? ({ ...task, status: TaskStatus.todo } as Task), day);
    if (start && start.occurrence.dueAt > after && (!best || start.occurrence.dueAt < best.occurrence.dueAt)) {
      best = start;
      bestDate = day!;
    }
    date = nextSeriesDate(series, date);
  }
  return best;
}

/**
 * `task_start`: `offsetMinutes` before a task's timebox starts: its `startTime` (HH:MM, local) on its
 * day's date. On the first task of a recurring series it reminds before every occurrence (each at its
 * own task's day and start time, the series' start time where the occurrence is not made yet); on any
 * other task, once. Keyed `<taskId>@<date>T<HH:MM>`: moving a task to another day or time makes a new
 * occurrence and the old one is no longer due. None when a task has no day or no start time, is done or
 * deferred, or was deleted; a task without a day or start time cannot be given one (refused at once,
 * rule `reminder_target_unscheduled`).
 */
export const taskStartKind: ReminderKind = {
  name: 'task_start',
  target: 'task',
  localTime: 'unused',

  async checkTarget(ctx, spec) {
    const id = requireTargetId(spec.targetId, 'task');
    const task = await nullIfNotFound(ctx.service(TaskService).get(spec.userId, id));
    if (!task) throw new NotFoundError('Task', { field: 'targetId' });
    const hasDay = !!task.dayId || !!seriesOf(task);
    if (!hasDay || !isClockTime(task.startTime)) {
      throw unscheduled(`The task "${clip(task.title, 60)}" has no ${hasDay ? 'start time' : 'day'}: give it a day and a startTime first`);
    }
  },

  async nextOccurrence(ctx, spec, after) {
    return (await nextStart(ctx, spec, after))?.occurrence ?? null;
  },

  /** Still the start due then: the task (of that date) not finished, not moved. */
  async stillDue(ctx, spec, occurrence) {
    const again = await nextStart(ctx, spec, new Date(occurrence.dueAt.getTime() - 1));
    return again?.occurrence.key === occurrence.key && again.occurrence.dueAt.getTime() === occurrence.dueAt.getTime();
  },

  async message(ctx, spec, occurrence) {
    const start = await nextStart(ctx, spec, new Date(occurrence.dueAt.getTime() - 1));
    if (!start || start.occurrence.key !== occurrence.key) return { title: 'A task is about to start', body: 'The task was moved or removed.' };
    const { task } = start;
    const lines = [`${spec.offsetMinutes > 0 ? `Starts ${inHowLong(spec.offsetMinutes)}` : 'Starts now'}, at ${task.startTime}; timebox ${task.timebox} min.`];
    if (task.nextStep) lines.push(`Next step: ${clip(task.nextStep, 120)}`);
    return { title: clip(task.title, 80), body: lines.join('\n'), url: `/api/v1/tasks/${task.id}` };
  },
};
