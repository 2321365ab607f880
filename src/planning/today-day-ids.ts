import type { EntityManager } from '@mikro-orm/postgresql';
import { todayIn } from '../core/dates.js';
import { forgetOwnerHere, OwnerCache } from '../core/database/owner-cache.js';
import type { Logger } from '../core/logger.js';
import { WeekService } from './week.service.js';

/** (person, date) pairs kept per instance at most (a full cache drops its oldest entry). */
export const TODAY_CACHE_MAX = 10_000;
/** A cached day id is read again after this long even without a notification (a safety net; past dates age out). */
export const TODAY_CACHE_TTL_MS = 10 * 60_000;
/** Channel the database NOTIFYs (with the owner's id) when days are deleted or moved (migration 20261128150000). */
export const DAY_IDS_CHANNEL = 'lp_day_ids';

/** Call after deleting a person's days has committed: this process forgets their cached day ids at once. */
export function forgetDayIdsHere(userId: string): void {
  forgetOwnerHere(DAY_IDS_CHANNEL, userId);
}

/**
 * Today's day id per (person, date), per instance (issue 36.4): an append-only write on "today" (the
 * Public API's logs) then costs no day lookup. A day's id never changes while the day exists; a day
 * only goes away with its week or its owner (account deletion). Any deletion or move of a day NOTIFYs
 * `lp_day_ids` with its owner's id, whoever makes it, and every instance drops that owner's entries
 * (core OwnerCache: used only while it listens, a lookup in flight during a notification not kept).
 */
export class TodayDayIds {
  private readonly cache: OwnerCache<string>;

  constructor(connectionString: string | undefined, logger: Logger) {
    this.cache = new OwnerCache({ connectionString, channel: DAY_IDS_CHANNEL, logger, maxEntries: TODAY_CACHE_MAX, ttlMs: TODAY_CACHE_TTL_MS });
  }

  /** Starts the invalidation listener (the cache is used once it listens). */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Entries cached now (tests). */
  get size(): number {
    return this.cache.size;
  }

  /** Forgets the person's cached day ids on this instance (a write found one gone before its notification). */
  forget(userId: string): void {
    this.cache.forgetOwner(userId);
  }

  /** The person's day today in `timezone`, made with its week when missing (WeekService.ensureDay). */
  async today(em: EntityManager, userId: string, timezone: string, now = new Date()): Promise<string> {
    const date = todayIn(timezone, now);
    const id = await this.cache.get(`${userId} ${date}`, now.getTime(), async () => ({ ownerId: userId, value: (await new WeekService(em).ensureDay(userId, date)).id }));
    return id!;
  }
}

declare module '../core/context.js' {
  interface AppDeps {
    /** Today's day ids, cached per instance (absent where the app is not composed by the server: no cache). */
    todayDayIds?: TodayDayIds;
  }
}
