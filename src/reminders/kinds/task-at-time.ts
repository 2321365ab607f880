import { addDays } from '../../core/dates.js';
import { NotFoundError, nullIfNotFound } from '../../core/errors.js';
import { nextOccurrence as nextSeriesDate, occursOn, type Recurrence } from '../../core/recurrence/recurrence.js';
import { DayService } from '../../planning/day.service.js';
import { Task } from '../../tasks/task.entity.js';
import { TaskService } from '../../tasks/task.service.js';
import { TaskStatus } from '../../tasks/task-status.js';
import type { KindContext, ReminderKind, ReminderOccurrence, ReminderSpec } from '../reminder-kind.js';
import { clip, localDate, localInstant } from './local-time.js';

/** A task in these states needs no reminder: finished, or put off with a next step. */
const SETTLED = new Set<string>([TaskStatus.done, TaskStatus.deferred]);

/**
 * Reads made once per kind context: the engine hands one context to `stillDue` and `message` of the same
 * occurrence, so the task and its day are read once for both (a new context reads afresh).
 */
const reads = new WeakMap<KindContext, Map<string, Promise<unknown>>>();

function once<T>(ctx: KindContext, key: string, read: () => Promise<T>): Promise<T> {
  let cache = reads.get(ctx);
  if (!cache) reads.set(ctx, (cache = new Map()));
  let value = cache.get(key) as Promise<T> | undefined;
  if (!value) cache.set(key, (value = read()));
  return value;
}


function findTask(ctx: KindContext, spec: ReminderSpec): Promise<Task | null> {
  const { targetId, userId } = spec;
  if (!targetId) return Promise.resolve(null);
  return once(ctx, `task:${targetId}`, () => nullIfNotFound(ctx.service(TaskService).get(userId, targetId)));
}

async function dayDateOf(ctx: KindContext, userId: string, dayId: string | null | undefined): Promise<string | null> {
  if (!dayId) return null;
  const day = await once(ctx, `day:${dayId}`, () => nullIfNotFound(ctx.service(DayService).get(userId, dayId)));
  return day?.date ?? null;
}

/** The series a task starts (its rule, first date and exceptions), or null for a single task or an occurrence. */
async function seriesOf(ctx: KindContext, task: Task): Promise<Recurrence | null> {
  if (!task.recurrence || task.seriesId !== task.id) return null;
  const start = task.occurrenceDate ?? (await dayDateOf(ctx, task.userId, task.dayId));
  return start ? { rule: task.recurrence, start, exceptions: task.recurrenceExceptions, end: task.recurrenceEnd } : null;
}

/** The occurrence task of a series on `date`, when it has been made already. */
function occurrenceTask(ctx: KindContext, series: Task, date: string): Promise<Task | null> {
  if (series.occurrenceDate === date) return Promise.resolve(series);
  return once(ctx, `occurrence:${series.id}:${date}`, () => ctx.em.findOne(Task, { userId: series.userId, seriesId: series.id, occurrenceDate: date }));
}

/**
 * `task_at_time`: at `localTime` on the task's day, in the user's time zone. On the first task of a
 * recurring series (the one holding the rule) it reminds on every date of the series; on any other
 * task, once, on its day. Keyed by the date (`2026-11-27`). A task that is done or deferred (or gone,
 * or without a day) has no occurrence; an occurrence whose task was finished, deferred or moved to
 * another day meanwhile is not sent.
 */
export const taskAtTimeKind: ReminderKind = {
  name: 'task_at_time',
  target: 'task',
  localTime: 'required',

  async checkTarget(ctx, spec) {
    const task = await findTask(ctx, spec);
    if (!task) throw new NotFoundError('Task', { field: 'targetId' });
  },

  async nextOccurrence(ctx, spec, after): Promise<ReminderOccurrence | null> {
    if (!spec.localTime) return null;
    const task = await findTask(ctx, spec);
    if (!task) return null;
    const series = await seriesOf(ctx, task);
    const zone = ctx.timezone;
    if (!series) {
      if (SETTLED.has(task.status)) return null;
      const date = await dayDateOf(ctx, spec.userId, task.dayId);
      if (!date) return null;
      const dueAt = localInstant(date, spec.localTime, zone);
      return dueAt.getTime() > after.getTime() ? { dueAt, key: date } : null;
    }
    // The day before `after`'s local date can still hold a later instant only across a zone change; from
    // there, the series' dates in order: at most a few are looked at (bounded by the rule's horizon).
    let from = addDays(localDate(after, zone), -1);
    if (from < series.start) from = series.start;
    let date: string | null = occursOn(series, from) ? from : nextSeriesDate(series, from);
    for (let i = 0; date && i < 4; i++) {
      const dueAt = localInstant(date, spec.localTime, zone);
      if (dueAt.getTime() > after.getTime()) return { dueAt, key: date };
      date = nextSeriesDate(series, date);
    }
    return null;
  },

  async stillDue(ctx, spec, occurrence) {
    const task = await findTask(ctx, spec);
    if (!task) return false;
    const series = await seriesOf(ctx, task);
    if (!series) {
      if (SETTLED.has(task.status)) return false;
      return (await dayDateOf(ctx, spec.userId, task.dayId)) === occurrence.key;
    }
    if (!occursOn(series, occurrence.key)) return false;
    const made = await occurrenceTask(ctx, task, occurrence.key);
    return !made || !SETTLED.has(made.status);
  },

  async message(ctx, spec, occurrence) {
    const task = await findTask(ctx, spec);
    const title = clip(task?.title ?? 'A task', 120);
    const made = task ? ((await seriesOf(ctx, task)) ? await occurrenceTask(ctx, task, occurrence.key) : task) : null;
    const minutes = (made ?? task)?.timebox;
    return {
      title,
      body: `${title} — today at ${spec.localTime}${minutes ? ` (${minutes} min)` : ''}.`,
      url: `/api/v1/tasks/${made?.id ?? spec.targetId}`,
    };
  },
};
