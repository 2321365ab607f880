import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage } from '../core/database/find-page.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { todayIn } from '../core/dates.js';
import { SettingsService } from '../settings/settings.service.js';
import { Insight } from './insight.entity.js';
import { liveAggregates } from './insights.queries.js';
import type { InsightMetric } from './metrics.js';
import { lastYearDay, yearBefore, type LastYearDay } from './this-day-last-year.js';
import { summaryRange, weeklySummary, type WeeklySummary } from './weekly-summary.js';

export interface InsightFilter extends PageArgs {
  /** Only insights with this metric as condition or outcome. */
  metric?: InsightMetric | null;
  /** Only insights whose two metrics are both among these (an assistant's grant). */
  within?: readonly InsightMetric[];
}

/**
 * A person's insights (found by the nightly job) and the summaries read live from their days: the week
 * against the week before with its streaks, and this day a year ago.
 */
export class InsightService {
  constructor(private readonly em: EntityManager) {}

  /** The person's insights, strongest first (smallest q, then largest |rho|). */
  list(userId: string, filter: InsightFilter = {}): Promise<Page<Insight>> {
    const where: FilterQuery<Insight> = { userId };
    if (filter.metric) where.$or = [{ condition: filter.metric }, { outcome: filter.metric }];
    if (filter.within) Object.assign(where, { condition: { $in: [...filter.within] }, outcome: { $in: [...filter.within] } });
    return findPage(this.em, Insight, where, { q: 'asc', rho: 'desc', id: 'asc' }, filter);
  }

  /** One of the person's insights; another person's id answers NOT_FOUND like a missing one. */
  async get(userId: string, insightId: string): Promise<Insight> {
    const insight = await this.em.findOne(Insight, { id: insightId, userId });
    if (!insight) throw new NotFoundError('Insight');
    return insight;
  }

  private async zoneAndToday(userId: string, now?: Date): Promise<{ timezone: string; today: string }> {
    const timezone = await new SettingsService(this.em).timezoneOf(userId);
    return { timezone, today: todayIn(timezone, now) };
  }

  /** The week holding `date` (the current one by default) against the same days of the week before, and the streaks. */
  async weeklySummary(userId: string, date?: string | null, now?: Date): Promise<WeeklySummary> {
    const { timezone, today } = await this.zoneAndToday(userId, now);
    const day = date ?? today;
    const range = summaryRange(day, today);
    const rows = await liveAggregates(this.em, userId, timezone, range.from, range.to);
    return weeklySummary(rows, day, today);
  }

  /** What the person logged on `date` (today by default) a year before. */
  async thisDayLastYear(userId: string, date?: string | null, now?: Date): Promise<LastYearDay> {
    const { timezone, today } = await this.zoneAndToday(userId, now);
    const day = date ?? today;
    const lastYear = yearBefore(day);
    const [row] = await liveAggregates(this.em, userId, timezone, lastYear, lastYear);
    return lastYearDay(day, row);
  }
}
