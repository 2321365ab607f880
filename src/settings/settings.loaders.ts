import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { UserSettings } from './user-settings.entity.js';

export function createSettingsLoaders(em: EntityManager) {
  return {
    /** Settings by user id (defaults when the user never saved any); plain read-only rows (core/database/read-rows.ts). */
    byUserId: new DataLoader<string, UserSettings>(async (userIds) => {
      const rows = await readRows(em, UserSettings, { where: 'userId', values: userIds });
      const byUser = new Map(rows.map((s) => [s.userId, s]));
      return userIds.map((id) => byUser.get(id) ?? Object.assign(new UserSettings(), { userId: id }));
    }),
  };
}
