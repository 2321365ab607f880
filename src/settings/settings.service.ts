import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSettings } from './user-settings.entity.js';
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
] as const satisfies readonly (keyof UpdateSettingsArgs & keyof UserSettings)[];

/** A user's settings; the row is made on first write, defaults are answered before that. */
export class SettingsService {
  constructor(private readonly em: EntityManager) {}

  async get(userId: string): Promise<UserSettings> {
    return (await this.em.findOne(UserSettings, { userId })) ?? this.defaults(userId);
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
    return (await this.get(userId)).timezone;
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

  private defaults(userId: string): UserSettings {
    const settings = new UserSettings();
    settings.userId = userId;
    return settings;
  }
}
