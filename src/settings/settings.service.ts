import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_TIMEZONE, UserSettings } from './user-settings.entity.js';
import type { UpdateSettingsArgs } from './settings.types.js';

/** The settings a user can change; nothing else of the row is ever written from input. */
const UPDATABLE = [
  'weeklySplitLabels',
  'wakeTime',
  'inBedTime',
  'lightsOutTime',
  'stressWeekWakeTime',
  'stressWeekInBedTime',
  'stressWeekLightsOutTime',
  'timezone',
  'largeExpenseThreshold',
  'trashRetentionDays',
] as const satisfies readonly (keyof UpdateSettingsArgs & keyof UserSettings)[];

/** A user's settings; the row (with the defaults) is made on first read or write, so its id is stable. */
export class SettingsService {
  constructor(private readonly em: EntityManager) {}

  async get(userId: string): Promise<UserSettings> {
    const existing = await this.em.findOne(UserSettings, { userId });
    if (existing) return existing;
    await this.ensureRow(userId);
    return this.em.findOneOrFail(UserSettings, { userId });
  }

  async update(userId: string, changes: UpdateSettingsArgs): Promise<UserSettings> {
    await this.ensureRow(userId);
    // The row lock makes concurrent partial updates apply one after the other, each keeping the other's fields.
    return this.em.transactional(async (em) => {
      const settings = await em.findOneOrFail(UserSettings, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      for (const key of UPDATABLE) {
        const value = changes[key];
        if (value !== undefined && value !== null) (settings as unknown as Record<string, unknown>)[key] = value;
      }
      return settings;
    });
  }

  async timezoneOf(userId: string): Promise<string> {
    return (await this.em.findOne(UserSettings, { userId }, { fields: ['timezone'] }))?.timezone ?? DEFAULT_TIMEZONE;
  }

  /** Makes the user's row with the defaults; two first writes racing each other make one row. */
  private async ensureRow(userId: string): Promise<void> {
    if (await this.em.count(UserSettings, { userId })) return;
    const fork = this.em.fork();
    fork.create(UserSettings, { userId });
    try {
      await fork.flush();
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
  }
}
