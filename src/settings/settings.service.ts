import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSettings } from './user-settings.entity.js';
import type { UpdateSettingsArgs } from './settings.types.js';

/** A user's settings; the row is made on first write, defaults are answered before that. */
export class SettingsService {
  constructor(private readonly em: EntityManager) {}

  async get(userId: string): Promise<UserSettings> {
    return (await this.em.findOne(UserSettings, { userId })) ?? this.defaults(userId);
  }

  async update(userId: string, changes: UpdateSettingsArgs): Promise<UserSettings> {
    const settings = (await this.em.findOne(UserSettings, { userId })) ?? this.em.create(UserSettings, { userId });
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined && value !== null) (settings as unknown as Record<string, unknown>)[key] = value;
    }
    await this.em.flush();
    return settings;
  }

  async timezoneOf(userId: string): Promise<string> {
    return (await this.get(userId)).timezone;
  }

  private defaults(userId: string): UserSettings {
    const settings = new UserSettings();
    settings.userId = userId;
    return settings;
  }
}
