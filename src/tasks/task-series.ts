import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, todayIn } from '../core/dates.js';
import { RuleViolationError, ValidationError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import {
  endBefore,
  lastDate,
  nextOccurrence,
  normalizeRule,
  occurrencesBetween,
  requireCountWithinHorizon,
  restartAt,
  startsOnItsRule,
  type Recurrence,
} from '../core/recurrence/recurrence.js';
import { RECURRENCE_EXCEPTIONS_MAX } from '../core/recurrence/recurrence-bounds.js';
import { WeekService } from '../planning/week.service.js';
import { SettingsService } from '../settings/settings.service.js';
import { Task } from './task.entity.js';
import { DAY_TASKS_MAX } from './task.types.js';
import {
  applyToUndoneAfter,
  countSeriesAlive,
  dayIdsBetween,
  deleteUndoneAfter,
  detachAfter,
  insertOccurrences,
  moveToSeries,
  occurrenceDatesAfter,
  seriesAlive,
  type NewOccurrence,
  type SeriesRow,
  type TemplateChanges,
} from './tasks.queries.js';

/** Series a user may have going at once (their end, if any, not passed at the new series' start). */
export const SERIES_MAX = 200;
/** Series one week generation reads at most (more than SERIES_MAX: series made at different starts may overlap). */
const SERIES_READ_MAX = 1000;
/** A new series (or a new part of one) gets its occurrences in the weeks that exist up to 8 weeks ahead. */
const AHEAD_DAYS = 8 * 7;
/** Occurrences one insert statement makes at most (their events are written with them, a batch at a time). */
const INSERT_BATCH = 250;
/** Rule evaluation between two turns of the event loop. */
const SLICE_MS = 10;

/** The template fields of a task: what its series' occurrences copy from the first task. */
export const TEMPLATE_FIELDS = ['title', 'description', 'timebox', 'categoryId', 'startTime'] as const;

export function recurrenceOf(first: Pick<Task, 'recurrence' | 'occurrenceDate' | 'recurrenceExceptions' | 'recurrenceEnd'>): Recurrence {
  return { rule: first.recurrence!, start: first.occurrenceDate!, exceptions: first.recurrenceExceptions, end: first.recurrenceEnd };
}

/** Sets (or clears, with `rule` null) the series a task is the first of. */
function makeFirst(task: Task, rule: string | null, start: string | null, exceptions: string[] = []): void {
  if (rule === null || start === null) {
    task.seriesId = null;
    task.occurrenceDate = null;
    task.recurrence = null;
    task.recurrenceExceptions = [];
    task.recurrenceEnd = null;
    return;
  }
  task.seriesId = task.id;
  task.occurrenceDate = start;
  task.recurrence = rule;
  task.recurrenceExceptions = [...new Set(exceptions)].sort();
  task.recurrenceEnd = lastDate({ rule, start });
}

/**
 * The rules of recurring tasks, on an entity manager inside the caller's transaction. A series is its
 * first task (the rule, its date as DTSTART, the exceptions) and occurrences: real tasks, each with
 * `seriesId` and `occurrenceDate`, made ahead in the weeks that exist, when a week is generated, and
 * when the one before is completed or deferred.
 */
export class TaskSeries {
  constructor(
    private readonly em: EntityManager,
    private readonly userId: string,
  ) {}

  /**
   * The rule text in its stored form, refused (400 naming `recurrence`) unless valid and unless `start`
   * is one of its dates (RFC 5545 leaves a DTSTART out of step with its rule undefined, and calendar
   * libraries disagree on it), and unless a COUNT is reached within the recurrence horizon. Daily or
   * less often: a task keeps a date only (core/recurrence refuses HOURLY, MINUTELY and SECONDLY).
   */
  ruleFor(text: string, start: string): string {
    const rule = normalizeRule(text, 'recurrence');
    requireCountWithinHorizon({ rule, start }, 'recurrence');
    if (!startsOnItsRule({ rule, start })) {
      throw new ValidationError(`recurrence does not fall on ${start}, the series' first date (the task's day): choose a day the rule gives`, [
        { path: ['recurrence'], message: `recurrence does not fall on ${start}, the task's day` },
      ]);
    }
    return rule;
  }

  /** Refuses a new series past SERIES_MAX going at `start` (400, rule `recurring_series_limit`). */
  async requireRoom(start: string): Promise<void> {
    if ((await countSeriesAlive(this.em, this.userId, start)) >= SERIES_MAX) {
      throw new RuleViolationError('recurring_series_limit', `A user can have at most ${SERIES_MAX} recurring tasks going at once`, ['recurrence']);
    }
  }

  /** Makes `task` (flushed by the caller afterwards) the first of a new series on `start`. */
  start(task: Task, rule: string, start: string): void {
    makeFirst(task, rule, start);
  }

  /**
   * The occurrences of a series just started (or restarted) in the weeks that exist, from its start or
   * today, whichever is later, for 8 weeks. The first task must be flushed.
   */
  async makeAhead(first: Task): Promise<void> {
    const today = todayIn(await new SettingsService(this.em).timezoneOf(this.userId));
    const from = first.occurrenceDate! > today ? first.occurrenceDate! : today;
    const series: SeriesRow = { id: first.id, rule: first.recurrence!, start: first.occurrenceDate!, exceptions: first.recurrenceExceptions, end: first.recurrenceEnd ?? null };
    await this.make([series], from, addDays(from, AHEAD_DAYS - 1));
  }

  /** The occurrences of every series of the user with a date from `from` to `to` (a generated week). */
  async makeBetween(from: string, to: string): Promise<void> {
    const series = await seriesAlive(this.em, this.userId, from, to, SERIES_READ_MAX);
    await this.make(series, from, to);
  }

  /**
   * After `task` was completed or deferred: the series' next occurrence exists, on its day (the day's
   * week is generated when needed).
   */
  async ensureNext(task: Task, first: Task): Promise<void> {
    if (!first.recurrence || !task.occurrenceDate) return;
    const next = nextOccurrence(recurrenceOf(first), task.occurrenceDate);
    if (!next) return;
    await this.em.flush();
    const day = await new WeekService(this.em).ensureDay(this.userId, next);
    await this.insert([{ seriesId: first.id, date: next, dayId: day.id }]);
  }

  /**
   * The first task leaves its series, which goes on from its next date: that occurrence (made if it is
   * not yet) becomes the first task, with the rule restarted there (COUNT lowered by the dates before)
   * and the later occurrences moved to it. Used when the first task alone is deleted, or changed alone
   * in a field its occurrences copy. The first task ends outside any series.
   */
  async passOn(first: Task): Promise<void> {
    const recurrence = recurrenceOf(first);
    const next = nextOccurrence(recurrence, first.occurrenceDate!);
    if (next) {
      await this.em.flush();
      let heir = await this.em.findOne(Task, { seriesId: first.id, occurrenceDate: next, userId: this.userId });
      if (!heir) {
        const day = await new WeekService(this.em).ensureDay(this.userId, next);
        await this.insert([{ seriesId: first.id, date: next, dayId: day.id }]);
        heir = await this.em.findOne(Task, { seriesId: first.id, occurrenceDate: next, userId: this.userId });
        // Its day is full (200 tasks): the series goes on from a task without a day.
        if (!heir) {
          await this.insert([{ seriesId: first.id, date: next, dayId: null }]);
          heir = await this.em.findOneOrFail(Task, { seriesId: first.id, occurrenceDate: next, userId: this.userId });
        }
      }
      const restarted = restartAt(recurrence, next);
      await moveToSeries(this.em, this.userId, first.id, heir.id, next, new Date());
      makeFirst(heir, restarted.rule, next, (restarted.exceptions ?? []).filter((date) => date > next));
    } else {
      // Nothing after it: occurrences left (none are expected) become single tasks.
      await detachAfter(this.em, this.userId, first.id, first.occurrenceDate!, new Date());
    }
    makeFirst(first, null, null);
  }

  /**
   * Deletes one occurrence (not the first task): its date becomes an exception, never made again. A
   * series leaves out at most RECURRENCE_EXCEPTIONS_MAX dates (400, rule `recurrence_exception_limit`).
   */
  except(first: Task, date: string): void {
    const exceptions = new Set([...first.recurrenceExceptions, date]);
    if (exceptions.size > RECURRENCE_EXCEPTIONS_MAX) {
      throw new RuleViolationError(
        'recurrence_exception_limit',
        `A series can leave out at most ${RECURRENCE_EXCEPTIONS_MAX} dates: end it here (applyTo following) and start a new one`,
        ['applyTo'],
      );
    }
    first.recurrenceExceptions = [...exceptions].sort();
  }

  /**
   * Ends the series before `task` (delete "this and following"): the rule ends the day before, and the
   * later occurrences that are not done are deleted; done ones stay as single tasks. On the first task,
   * the whole series goes (the caller deletes the task).
   */
  async endAt(first: Task, task: Task): Promise<void> {
    const date = task.occurrenceDate!;
    const now = new Date();
    // The trash entry of this delete holds these occurrences and reported them (moveToTrash).
    await deleteUndoneAfter(this.em, null, first.id, date);
    await detachAfter(this.em, this.userId, first.id, date, now);
    if (task.id !== first.id) this.endBeforeDate(first, date);
  }

  /**
   * "This and following" on `task`: the series ends the day before it, and `task` becomes the first of a
   * new series from its date (or from the date of its new day) with the new rule, or the old one going
   * on (COUNT lowered). Occurrences after it: with the same dates they move to the new series and get
   * the changed fields (done ones keep theirs); with other dates, the ones not done are deleted, done
   * ones on a date of the new series join it and the rest become single tasks; the new series'
   * occurrences are then made in the weeks that exist. `rule` null: no new series (`task` ends alone).
   * On the first task this replaces the series from its start. The caller writes the changes to `task`.
   */
  async split(first: Task, task: Task, change: { rule?: string | null; start?: string; template: TemplateChanges }): Promise<void> {
    const date = task.occurrenceDate!;
    const old = recurrenceOf(first);
    const start = change.start ?? date;
    const continued = restartAt(old, date).rule;
    const rule = change.rule === undefined ? continued : change.rule === null ? null : this.ruleFor(change.rule, start);
    // The same dates from here (no new day, no other rule): the later occurrences stay, moved to the new series.
    const sameDates = start === date && rule === continued;
    if (change.rule === undefined && !startsOnItsRule({ rule: rule!, start })) {
      throw new ValidationError(`The series' rule does not fall on ${start}: give a rule for the new day too`, [
        { path: ['dayId'], message: `the series' rule does not fall on ${start}` },
      ]);
    }
    const now = new Date();
    if (sameDates) {
      if (task.id !== first.id) await moveToSeries(this.em, this.userId, first.id, task.id, date, now);
      await applyToUndoneAfter(this.em, this.userId, task.id, date, change.template, now);
    } else {
      await deleteUndoneAfter(this.em, this.userId, first.id, date);
      if (rule) {
        // Done occurrences on a date of the new series join it (so that date is not made again).
        const done = await occurrenceDatesAfter(this.em, first.id, date, 1000);
        if (done.length) {
          const kept = new Set(occurrencesBetween({ rule, start }, start, done.at(-1)!));
          const joining = done.filter((d) => kept.has(d) && d !== start);
          if (joining.length) await moveToSeries(this.em, this.userId, first.id, task.id, date, now, joining);
        }
      }
      await detachAfter(this.em, this.userId, first.id, date, now);
    }
    const exceptions = sameDates ? (old.exceptions ?? []).filter((d) => d > date) : [];
    if (task.id !== first.id) this.endBeforeDate(first, date);
    makeFirst(task, rule, rule ? start : null, exceptions);
  }

  /** The first task's rule ends the day before `date`; exceptions from then on are dropped. */
  private endBeforeDate(first: Task, date: string): void {
    const rule = endBefore(recurrenceOf(first), date);
    if (!rule) return;
    first.recurrence = rule;
    first.recurrenceExceptions = first.recurrenceExceptions.filter((d) => d < date);
    first.recurrenceEnd = lastDate({ rule, start: first.occurrenceDate! });
  }

  /** Expands the series over the range (yielding the event loop between slices) and inserts what is missing. */
  private async make(series: readonly SeriesRow[], from: string, to: string): Promise<void> {
    if (series.length === 0) return;
    const days = await dayIdsBetween(this.em, this.userId, from, to);
    if (days.size === 0) return;
    const wanted: NewOccurrence[] = [];
    let slice = performance.now();
    for (const one of series) {
      for (const date of occurrencesBetween({ rule: one.rule, start: one.start, exceptions: one.exceptions, end: one.end }, from, to)) {
        const dayId = days.get(date);
        // The first date is the first task itself.
        if (dayId && date !== one.start) wanted.push({ seriesId: one.id, date, dayId });
      }
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
    }
    for (let i = 0; i < wanted.length; i += INSERT_BATCH) {
      await this.insert(wanted.slice(i, i + INSERT_BATCH));
      // The events of a batch are written before the next one: a flush of thousands of rows at once
      // would hold the event loop (~25 ms per 1000).
      if (wanted.length > INSERT_BATCH) await this.em.flush();
    }
  }

  /** Inserts occurrences and records `task_created` for each one made (not for dates that existed). */
  private async insert(wanted: readonly NewOccurrence[]): Promise<void> {
    const now = new Date();
    const made = await insertOccurrences(this.em, this.userId, wanted, now, DAY_TASKS_MAX);
    for (const task of made) recordEvent(this.em, this.userId, 'task_created', { taskId: task.id, title: task.title, createdAt: now.toISOString() }, now);
  }
}
