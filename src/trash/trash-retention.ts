import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_TRASH_RETENTION_DAYS, UserSettings } from '../settings/user-settings.entity.js';

/** The person's trash retention in days (the default when they have no settings row yet). */
export async function retentionDays(em: EntityManager, userId: string): Promise<number> {
  const settings = await em.findOne(UserSettings, { userId }, { fields: ['trashRetentionDays'] });
  return settings?.trashRetentionDays ?? DEFAULT_TRASH_RETENTION_DAYS;
}
