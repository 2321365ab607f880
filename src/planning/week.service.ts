import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, isMonday, mondayOf } from '../core/dates.js';
import { findRow } from '../core/database/read-rows.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { NORMAL_CHECKLIST } from './checklist-key.js';
import { Day } from './day.entity.js';
import { Week } from './week.entity.js';
import { dayIdsAt, insertWeeks } from './week-generation.queries.js';

export interface GeneratedWeek {
  week: Week;
  created: boolean;
}

function requireMonday(startDate: string): void {
  if (!isMonday(startDate)) {
    throw new ValidationError('startDate must be a Monday', [{ path: ['startDate'], message: `${startDate} is not a Monday` }]);
  }
}

/** Weeks and their days. A day never exists without its week: making a day generates its week. */
export class WeekService {
  constructor(private readonly em: EntityManager) {}

  /** Creates the week, its 7 days and their checklists in one transaction; an existing week is returned as is. */
  async generate(userId: string, startDate: string): Promise<GeneratedWeek> {
    requireMonday(startDate);
    const existing = await this.em.findOne(Week, { userId, startDate });
    if (existing) return { week: existing, created: false };
    try {
      const week = await this.em.transactional(async (tx) => {
        const week = tx.create(Week, { userId, startDate, endDate: addDays(startDate, 6) });
        for (let i = 0; i < 7; i++) {
          const day = tx.create(Day, { userId, weekId: week.id, date: addDays(startDate, i) });
          for (const key of NORMAL_CHECKLIST) tx.create(ChecklistItem, { userId, dayId: day.id, key });
        }
        recordFact(tx, userId, 'week_generated', { weekId: week.id, startDate });
        return week;
      });
      return { week, created: true };
    } catch (error) {
      // Another request generated the same week first: answer with that one.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const week = await this.em.fork().findOneOrFail(Week, { userId, startDate });
      return { week, created: false };
    }
  }

  async findByStart(userId: string, startDate: string): Promise<Week> {
    requireMonday(startDate);
    // A read for output only: a plain row (the hot week read), not a managed entity.
    const week = await findRow(this.em, Week, { userId, startDate });
    if (!week) throw new NotFoundError('Week');
    return week;
  }

  async update(userId: string, weekId: string, changes: { isStressWeek?: boolean }): Promise<Week> {
    const week = await this.em.findOne(Week, { id: weekId, userId });
    if (!week) throw new NotFoundError('Week');
    if (changes.isStressWeek !== undefined) week.isStressWeek = changes.isStressWeek;
    await this.em.flush();
    return week;
  }

  /**
   * The user's day at `date`, generating its week when needed. A plain row for output and ids (every
   * Public API write reads today first), not a managed entity.
   */
  async ensureDay(userId: string, date: string): Promise<Day> {
    const day = await findRow(this.em, Day, { userId, date });
    if (day) return day;
    await this.generate(userId, mondayOf(date));
    const generated = await findRow(this.em, Day, { userId, date });
    if (!generated) throw new Error(`day ${date} missing after generating its week`);
    return generated;
  }

  /**
   * The user's days at many dates (ids by date), the missing weeks generated together: one read of the
   * days, and when some are missing one statement for all their weeks (days and checklists included),
   * each new week's `week_generated` fact and live changes recorded as `generate` would. For writers of
   * many dates at once (an import's batch), where a week each (a transaction of 3 statements and its
   * reactions) made the dates' weeks most of the work.
   */
  async ensureDays(userId: string, dates: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(dates)];
    const ids = await dayIdsAt(this.em, userId, wanted);
    const missing = wanted.filter((date) => !ids.has(date));
    if (!missing.length) return ids;
    await this.em.transactional(async (tx) => {
      const made = await insertWeeks(tx, userId, [...new Set(missing.map(mondayOf))]);
      const weeks = new Map(made.map((day) => [day.weekId, day.weekStart]));
      for (const [weekId, startDate] of weeks) {
        recordFact(tx, userId, 'week_generated', { weekId, startDate });
        recordLiveChange(tx, userId, { entity: 'Week', id: weekId, kind: 'created' });
      }
      for (const day of made) recordLiveChange(tx, userId, { entity: 'Day', id: day.id, kind: 'created' });
    });
    // Also the days another writer's weeks brought meanwhile.
    for (const [date, id] of await dayIdsAt(this.em, userId, missing)) ids.set(date, id);
    const lost = missing.find((date) => !ids.has(date));
    if (lost) throw new Error(`day ${lost} missing after generating its week`);
    return ids;
  }
}
