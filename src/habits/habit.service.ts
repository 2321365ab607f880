import { withExpectedVersion } from '../core/database/expected-version.js';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceScope } from '../core/request-services.js';
import { mondayOf, todayIn } from '../core/dates.js';
import { findPage } from '../core/database/find-page.js';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { recordEvent } from '../core/events/record-event.js';
import { pageWindow, toPage, type Page, type PageArgs } from '../core/pagination.js';
import { Day } from '../planning/day.entity.js';
import { dayRangeWhere, type DayRange } from '../planning/day-scope.js';
import { DayService } from '../planning/day.service.js';
import { WeekService } from '../planning/week.service.js';
import { SettingsService } from '../settings/settings.service.js';
import { HabitDayMarkRecord } from './habit-day-mark.entity.js';
import { HabitEntry } from './habit-entry.entity.js';
import { HabitDayMark, HabitKind, HabitSchedule } from './habit-enums.js';
import { HABIT_ENTRIES_PER_DAY_MAX, HABITS_MAX } from './habit-limits.js';
import { historyStart, streakOf } from './habit-progress.js';
import { checkValue, shapeHabit, type HabitShape } from './habit-rules.js';
import { habitDays, habitWeeks, stateRange } from './habit-views.js';
import { Habit } from './habit.entity.js';
import { daySum, historiesOf, nextPosition } from './habit.queries.js';
import type { HabitDay, HabitStreak, HabitWeek } from './habit.types.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { HABIT_TRASH } from './habit.trash.js';

export interface NewHabit {
  name: string;
  icon?: string | null;
  colour?: string | null;
  kind?: HabitKind | null;
  unit?: string | null;
  target?: number | null;
  schedule?: HabitSchedule | null;
  weekdays?: number[] | null;
  timesPerPeriod?: number | null;
  recurrence?: string | null;
  /** YYYY-MM-DD; default today in the person's time zone. */
  startDate?: string | null;
}

/** A change: absent fields stay; `null` clears icon, colour and unit. The kind is fixed once made. */
export type HabitChanges = Partial<Omit<NewHabit, 'kind'>>;

export interface NewHabitEntry {
  habitId: string;
  /** The day; else `date` (its week generated when needed); else today in the person's time zone. */
  dayId?: string | null;
  date?: string | null;
  /** Default 1 for CHECK and COUNT; required for DURATION (minutes) and AMOUNT. */
  value?: number | null;
  note?: string | null;
}

export interface HabitEntryFilter extends DayRange, PageArgs {
  habitId: string;
}

/**
 * The person's habits (issue 37): definitions, entries, SKIP/REST marks, and the day, week and streak
 * reads (habit-progress.ts holds their rules). Writes record facts (`habit_logged`, `habit_day_done`,
 * `habit_day_undone`, `habit_streak_updated`); gamification and webhooks react to them.
 *
 * Every write of an entry or mark locks the habit's row first (serialising the per-day cap and the
 * streak's update); habits per person are capped by the database (`enforce_row_cap`).
 */
export class HabitService {
  /** A request's service runs on the app's clock (TEST_CLOCK pins it in tests). */
  static forRequest = (scope: ServiceScope): HabitService => new HabitService(scope.em, scope.deps.clock);

  /** `clock`: the instant "now" (the person's today follows from it); tests pass a fixed one. */
  constructor(
    private readonly em: EntityManager,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  // ------------------------------------------------------------ definitions

  /** Active habits (or archived ones) in their order. */
  list(userId: string, args: PageArgs & { archived?: boolean | null }): Promise<Page<Habit>> {
    const where = { userId, archivedAt: args.archived ? { $ne: null } : null } as FilterQuery<Habit>;
    return findPage(this.em, Habit, where, { position: 'asc', createdAt: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, habitId: string, field?: string): Promise<Habit> {
    const habit = await this.em.findOne(Habit, { id: habitId, userId });
    if (!habit) throw new NotFoundError('Habit', field ? { field } : undefined);
    return habit;
  }

  /** The active habit named `name` (any case, surrounding spaces ignored), or null: for quick add. */
  async findByName(userId: string, name: string): Promise<Habit | null> {
    const wanted = name.trim().toLowerCase();
    if (!wanted) return null;
    const habits = await this.em.find(Habit, { userId, archivedAt: null }, { orderBy: { position: 'asc', id: 'asc' }, limit: HABITS_MAX });
    return habits.find((h) => h.name.toLowerCase() === wanted) ?? null;
  }

  async create(userId: string, input: NewHabit): Promise<Habit> {
    const kind = input.kind ?? HabitKind.CHECK;
    const startDate = input.startDate ?? (await this.today(userId));
    const shape = shapeHabit(
      {
        kind,
        unit: input.unit?.trim() || null,
        target: input.target ?? (kind === HabitKind.CHECK || kind === HabitKind.COUNT ? 1 : 0),
        schedule: input.schedule ?? HabitSchedule.DAILY,
        weekdays: input.weekdays ?? [],
        timesPerPeriod: input.timesPerPeriod ?? null,
        recurrence: input.recurrence?.trim() || null,
        startDate,
      },
      { target: input.target != null, unit: input.unit != null },
    );
    const habit = this.em.create(Habit, {
      userId,
      name: input.name.trim(),
      icon: input.icon?.trim() || null,
      colour: input.colour ?? null,
      ...shape,
      position: await nextPosition(this.em, userId),
    });
    await this.em.flush();
    return habit;
  }

  async update(userId: string, habitId: string, changes: HabitChanges, expectedVersion?: number | null): Promise<Habit> {
    const target = { entity: Habit, where: { id: habitId, userId }, resource: 'Habit' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new HabitService(em, this.clock).applyUpdate(userId, habitId, changes));
  }

  private async applyUpdate(userId: string, habitId: string, changes: HabitChanges): Promise<Habit> {
    const habit = await this.get(userId, habitId);
    const newSchedule = changes.schedule != null && changes.schedule !== habit.schedule;
    const base: HabitShape = {
      kind: habit.kind,
      unit: changes.unit !== undefined ? changes.unit?.trim() || null : (habit.unit ?? null),
      target: changes.target ?? habit.target,
      schedule: changes.schedule ?? habit.schedule,
      // A new schedule drops the old one's fields unless given again.
      weekdays: changes.weekdays ?? (newSchedule ? [] : habit.weekdays),
      timesPerPeriod: changes.timesPerPeriod ?? (newSchedule ? null : (habit.timesPerPeriod ?? null)),
      recurrence: changes.recurrence?.trim() || (newSchedule ? null : (habit.recurrence ?? null)),
      startDate: changes.startDate ?? habit.startDate,
    };
    Object.assign(habit, shapeHabit(base, { target: changes.target != null, unit: changes.unit != null }));
    // Its rules may have changed: the next write computes the stored streak afresh.
    habit.streakComputedOn = null;
    if (changes.name !== undefined && changes.name !== null) habit.name = changes.name.trim();
    if (changes.icon !== undefined) habit.icon = changes.icon?.trim() || null;
    if (changes.colour !== undefined) habit.colour = changes.colour;
    await this.em.flush();
    return habit;
  }

  /** Its entries and marks go with it (and the XP they earned stays: the ledger keeps what was earned). */
  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the habit changed since it was read; nothing is deleted. */
  async delete(userId: string, habitId: string, expectedVersion?: number | null): Promise<Deleted> {
    const target = { entity: Habit, where: { id: habitId, userId }, resource: 'Habit' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new HabitService(em, this.clock).applyDelete(userId, habitId));
  }

  private async applyDelete(userId: string, habitId: string): Promise<Deleted> {
    const habit = await this.get(userId, habitId);
    // One transaction: the trash copies the entries and marks the delete takes, and neither happens without the other.
    await this.em.transactional(async (em) => {
      await moveToTrash(em, userId, HABIT_TRASH, habitId, habit.name);
      em.remove(habit);
    });
    return deleted(habitId, 'Habit');
  }

  /** Archived: off the day and week reads and the lists of active habits, its history kept. */
  async archive(userId: string, habitId: string, at?: Date): Promise<Habit> {
    const habit = await this.get(userId, habitId);
    // `at`: an earlier archiving brought back (undo of an unarchive) keeps its date.
    habit.archivedAt ??= at ?? this.clock();
    await this.em.flush();
    return habit;
  }

  async unarchive(userId: string, habitId: string): Promise<Habit> {
    const habit = await this.get(userId, habitId);
    habit.archivedAt = null;
    await this.em.flush();
    return habit;
  }

  /**
   * The listed habits take positions 0, 1, … in the order given; the others follow in their order.
   * Answers every habit (at most HABITS_MAX) in the new order.
   */
  async reorder(userId: string, habitIds: readonly string[]): Promise<Habit[]> {
    return this.em.transactional(async (em) => {
      const habits = await em.find(Habit, { userId }, { orderBy: { position: 'asc', createdAt: 'asc', id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, limit: HABITS_MAX });
      const byId = new Map(habits.map((h) => [h.id, h]));
      if (habitIds.some((id) => !byId.has(id))) throw new NotFoundError('Habit', { field: 'habitIds' });
      const listed = new Set(habitIds);
      const ordered = [...habitIds.map((id) => byId.get(id)!), ...habits.filter((h) => !listed.has(h.id))];
      ordered.forEach((habit, position) => (habit.position = position));
      return ordered;
    });
  }

  // ------------------------------------------------------------ entries and marks

  /**
   * Logs an entry on a day: `habit_logged`; when the day's entries reach the target, `habit_day_done`
   * (gamification's XP); a changed streak, `habit_streak_updated`. An archived habit, a day before the
   * habit's start, a value that does not fit its kind, and the 51st entry of a day are refused (400).
   */
  async logEntry(userId: string, input: NewHabitEntry): Promise<HabitEntry> {
    const day = await this.dayFor(userId, input);
    return this.em.transactional(async (em) => {
      const habit = await lockHabit(em, userId, input.habitId);
      if (habit.archivedAt) throw new RuleViolationError('habit_archived', 'This habit is archived: unarchive it to log', ['habitId']);
      if (day.date < habit.startDate) throw new RuleViolationError('before_habit_start', `This habit starts on ${habit.startDate}`, ['dayId']);
      const value = input.value ?? (habit.kind === HabitKind.CHECK || habit.kind === HabitKind.COUNT ? 1 : null);
      if (value === null) throw new RuleViolationError('value_required', `value is required for a ${habit.kind} habit`, ['value']);
      checkValue(habit.kind, value, 'value');
      const before = await daySum(em, habit.id, day.id);
      if (before.entries >= HABIT_ENTRIES_PER_DAY_MAX) {
        throw new RuleViolationError('habit_entry_limit', `A habit can hold at most ${HABIT_ENTRIES_PER_DAY_MAX} entries a day`, ['dayId']);
      }
      const now = this.clock();
      const entry = em.create(HabitEntry, { userId, habitId: habit.id, dayId: day.id, date: day.date, value, note: input.note ?? null, createdAt: now, updatedAt: now });
      recordEvent(em, userId, 'habit_logged', { habitId: habit.id, entryId: entry.id, dayId: day.id, date: day.date, value, loggedAt: now.toISOString() }, now);
      const doneNow = before.value < habit.target && before.value + value >= habit.target;
      if (doneNow) recordFact(em, userId, 'habit_day_done', { habitId: habit.id, dayId: day.id });
      await em.flush();
      entry.longestStreakBefore = habit.longestStreak;
      await this.refreshStreak(em, userId, habit, now, doneNow);
      return entry;
    });
  }

  /**
   * Takes the entry back: `habit_day_undone` when the day falls below its target (gamification takes the XP back).
   * `longestStreak`: the longest streak stored before the entry was logged (taking back a log just made):
   * the longest ever goes back to it unless the history still holds a longer one.
   */
  async deleteEntry(userId: string, entryId: string, options: { longestStreak?: number } = {}): Promise<Deleted> {
    return this.em.transactional(async (em) => {
      const found = await em.findOne(HabitEntry, { id: entryId, userId }, { fields: ['id', 'habitId'] });
      if (!found) throw new NotFoundError('HabitEntry');
      const habit = await lockHabit(em, userId, found.habitId);
      const entry = await em.findOne(HabitEntry, { id: entryId, userId });
      if (!entry) throw new NotFoundError('HabitEntry');
      const before = await daySum(em, habit.id, entry.dayId);
      em.remove(entry);
      await em.flush();
      const undone = before.value >= habit.target && before.value - entry.value < habit.target;
      if (undone) recordFact(em, userId, 'habit_day_undone', { habitId: habit.id, dayId: entry.dayId });
      if (options.longestStreak !== undefined) habit.longestStreak = Math.min(habit.longestStreak, options.longestStreak);
      await this.refreshStreak(em, userId, habit, this.clock(), undone);
      return deleted(entryId, 'Habit entry');
    });
  }

  /** Oldest first; a dayId or a habit that is not the caller's answers NOT_FOUND. */
  async listEntries(userId: string, filter: HabitEntryFilter): Promise<Page<HabitEntry>> {
    await this.get(userId, filter.habitId, 'habitId');
    const where = { userId, habitId: filter.habitId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<HabitEntry>;
    return findPage(this.em, HabitEntry, where, { date: 'asc', createdAt: 'asc', id: 'asc' }, filter);
  }

  /** Marks the habit SKIP or REST on a day (null clears the mark); answers the habit's state that day. */
  async markDay(userId: string, input: { habitId: string; dayId: string; mark?: HabitDayMark | null }): Promise<HabitDay> {
    const day = await this.ownDay(userId, input.dayId, 'dayId');
    await this.em.transactional(async (em) => {
      const habit = await lockHabit(em, userId, input.habitId);
      const existing = await em.findOne(HabitDayMarkRecord, { habitId: habit.id, dayId: day.id });
      if (!input.mark) {
        if (existing) em.remove(existing);
      } else if (existing) existing.mark = input.mark;
      else em.create(HabitDayMarkRecord, { userId, habitId: habit.id, dayId: day.id, date: day.date, mark: input.mark });
      await em.flush();
      // A mark turns a day into a rest day or back: always read by the streak.
      await this.refreshStreak(em, userId, habit, this.clock(), true);
    });
    return this.stateOn(userId, await this.get(userId, input.habitId), day.date);
  }

  // ------------------------------------------------------------ day, week and streak reads

  /** The active habits on one of the person's days, each with its state. */
  async stateForDay(userId: string, dayId: string, args: PageArgs = {}): Promise<Page<HabitDay>> {
    const day = await this.ownDay(userId, dayId);
    const page = await this.list(userId, args);
    const range = stateRange(day.date, day.date);
    const histories = await historiesOf(this.em, userId, page.items.map((h) => h.id), range.from, range.to);
    return { items: habitDays(page.items, histories, day.date, await this.today(userId)), meta: page.meta };
  }

  /** The active habits over the week holding `date` (Monday to Sunday), each with its seven days. */
  async stateForWeek(userId: string, date: string, args: PageArgs = {}): Promise<Page<HabitWeek>> {
    const monday = mondayOf(date);
    const page = await this.list(userId, args);
    const range = stateRange(monday, monday);
    const histories = await historiesOf(this.em, userId, page.items.map((h) => h.id), range.from, range.to);
    return { items: habitWeeks(page.items, histories, monday, await this.today(userId)), meta: page.meta };
  }

  /** One habit (already read) on a date, as the day read shows it, seen on the person's today. */
  async stateOn(userId: string, habit: Habit, date: string): Promise<HabitDay> {
    const range = stateRange(date, date);
    const histories = await historiesOf(this.em, userId, [habit.id], range.from, range.to);
    return habitDays([habit], histories, date, await this.today(userId))[0]!;
  }

  async streak(userId: string, habitId: string): Promise<HabitStreak> {
    const habit = await this.get(userId, habitId);
    return (await this.streaksOf(userId, [habit]))[0]!;
  }

  /** The active habits' streaks, in the habits' order. */
  async streaks(userId: string, args: PageArgs = {}): Promise<Page<HabitStreak>> {
    const page = await this.list(userId, args);
    return toPage(await this.streaksOf(userId, page.items), page.meta.total, pageWindow(args));
  }

  /** Streaks of habits already read: a fixed number of statements however many. */
  async streaksOf(userId: string, habits: readonly Habit[]): Promise<HabitStreak[]> {
    if (!habits.length) return [];
    return this.streaksOn(userId, habits, await this.today(userId));
  }

  /** Streaks on a known today (the sweep knows it from its claim; a write reads it). */
  async streaksOn(userId: string, habits: readonly Habit[], today: string): Promise<HabitStreak[]> {
    const histories = await historiesOf(this.em, userId, habits.map((h) => h.id), historyStart(today), today);
    return habits.map((habit) => {
      const view = streakOf(habit, histories.get(habit.id)!, today);
      return { habitId: habit.id, ...view, longest: Math.max(view.longest, habit.longestStreak) };
    });
  }

  // ------------------------------------------------------------ helpers

  /** Today's date in the person's time zone. */
  async today(userId: string): Promise<string> {
    return todayIn(await new SettingsService(this.em).timezoneOf(userId), this.clock());
  }

  private async ownDay(userId: string, dayId: string, field?: string): Promise<Day> {
    const day = await this.em.findOne(Day, { id: dayId, userId });
    if (!day) throw new NotFoundError('Day', field ? { field } : undefined);
    return day;
  }

  private async dayFor(userId: string, input: NewHabitEntry): Promise<{ id: string; date: string }> {
    if (input.dayId) return this.ownDay(userId, input.dayId, 'dayId');
    if (input.date) return new WeekService(this.em).ensureDay(userId, input.date);
    return new DayService(this.em).today(userId, { now: this.clock() });
  }

  /**
   * The streak after a write, stored with the longest ever; `habit_streak_updated` when the current
   * one changed. Runs in the write's transaction after its flush (the history read sees the change).
   *
   * A streak reads entries only through each day's done-ness (entries reaching the target). A write
   * that changed no day's done-ness (`dayTurned` false: a second glass of water, a partial entry, an
   * entry taken back from a day that stays done) on the date the stored streak was computed on leaves it
   * as it is, without reading the history again: bulk logging walks the history once per day turned
   * done, not once per entry. On another date (the days that passed may have broken it) it is computed.
   */
  private async refreshStreak(em: EntityManager, userId: string, habit: Habit, now: Date, dayTurned: boolean): Promise<void> {
    const service = new HabitService(em, this.clock);
    const today = await service.today(userId);
    if (!dayTurned && habit.streakComputedOn === today) return;
    const [streak] = await service.streaksOn(userId, [habit], today);
    if (!streak) return;
    const changed = streak.current !== habit.currentStreak;
    habit.currentStreak = streak.current;
    habit.longestStreak = streak.longest;
    habit.streakComputedOn = today;
    if (changed) recordEvent(em, userId, 'habit_streak_updated', { habitId: habit.id, currentStreak: streak.current, longestStreak: streak.longest, updatedAt: now.toISOString() }, now);
    await em.flush();
  }
}

/** The caller's habit, its row locked for the transaction, or NOT_FOUND naming habitId. */
async function lockHabit(em: EntityManager, userId: string, habitId: string): Promise<Habit> {
  const habit = await em.findOne(Habit, { id: habitId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!habit) throw new NotFoundError('Habit', { field: 'habitId' });
  return habit;
}
