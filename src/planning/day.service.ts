import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { todayIn } from '../core/dates.js';
import { NotFoundError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import { SettingsService } from '../settings/settings.service.js';
import { refreshDayCompletion } from './day-completion.js';
import { Day } from './day.entity.js';
import type { UpdateDayArgs } from './planning.types.js';
import { dayWithWeekAt } from './planning.queries.js';
import type { Week } from './week.entity.js';
import { WeekService } from './week.service.js';

export class DayService {
  constructor(private readonly em: EntityManager) {}

  async get(userId: string, dayId: string): Promise<Day> {
    const day = await this.em.findOne(Day, { id: dayId, userId });
    if (!day) throw new NotFoundError('Day');
    return day;
  }

  /** The user's day on `date` (YYYY-MM-DD), if it was planned (its week generated); NOT_FOUND otherwise. */
  async onDate(userId: string, date: string): Promise<Day> {
    const day = await this.em.findOne(Day, { userId, date });
    if (!day) throw new NotFoundError('Day', { date });
    return day;
  }

  /**
   * Today in the user's time zone, created (with its week) when it does not exist yet. A caller that
   * already read the time zone (the Public API reads it with the key) passes it and saves a query.
   */
  async today(userId: string, options: { timezone?: string | null; now?: Date; onWeek?: (week: Week) => void } = {}): Promise<Day> {
    const timezone = options.timezone ?? (await new SettingsService(this.em).timezoneOf(userId));
    const date = todayIn(timezone, options.now);
    if (options.onWeek) {
      // A caller answering the week's fields too (the bedtime targets) gets it with the day, in one statement.
      const found = await dayWithWeekAt(this.em, userId, date);
      if (found) {
        options.onWeek(found.week);
        return found.day;
      }
    }
    return new WeekService(this.em).ensureDay(userId, date);
  }

  async update(userId: string, dayId: string, changes: Omit<UpdateDayArgs, 'dayId'>): Promise<Day> {
    return this.em.transactional(async (em) => {
      const day = await em.findOne(Day, { id: dayId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!day) throw new NotFoundError('Day');
      if (changes.notes !== undefined) day.notes = changes.notes;
      if (changes.mood !== undefined) day.mood = changes.mood;
      if (changes.energy !== undefined) day.energy = changes.energy;
      if (changes.sleepHours !== undefined) day.sleepHours = changes.sleepHours;
      if (changes.minimumMode !== undefined && changes.minimumMode !== day.minimumMode) {
        day.minimumMode = changes.minimumMode;
        const now = new Date();
        recordEvent(em, userId, 'minimum_mode_toggled', { dayId: day.id, minimumMode: day.minimumMode, toggledAt: now.toISOString() });
        // The required checklist changed with the mode, so completion may have too.
        await refreshDayCompletion(em, day, now);
      }
      return day;
    });
  }
}
