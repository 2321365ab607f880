import type { EntityManager } from '@mikro-orm/postgresql';
import type { MetadataStorage } from '@mikro-orm/core';
import { exportModel, type ExportModel } from '../portability/export/export-model.js';

const models = new WeakMap<MetadataStorage, ExportModel>();

/**
 * The export's readers (src/portability/export/export-model.ts) answer a synced record's current state:
 * the same stored properties the account export writes (secrets omitted), as JSON. A record type the
 * export does not write is not in the sync either.
 */
function model(em: EntityManager): ExportModel {
  const metadata = em.getMetadata();
  let found = models.get(metadata);
  if (!found) models.set(metadata, (found = exportModel(metadata)));
  return found;
}

export function isSynced(em: EntityManager, type: string): boolean {
  return model(em).byClass.has(type);
}

/** The person's records of `type` among `ids`, as they are now (a missing id: gone, or not theirs). One statement. */
export async function currentRecords(em: EntityManager, userId: string, type: string, ids: readonly string[]): Promise<Record<string, unknown>[]> {
  const plan = model(em).byClass.get(type);
  if (!plan || ids.length === 0) return [];
  const select = plan.columns.map((c) => `${c.sql} AS "${c.name.replace(/"/g, '""')}"`).join(', ');
  const sql = `SELECT ${plan.keyColumn}::text AS "__key", ${select} ${plan.from} WHERE ${plan.ownerColumn} = ? AND ${plan.keyColumn} IN (?) ORDER BY ${plan.keyColumn}`;
  const rows = await em.getConnection().execute<Record<string, unknown>[]>(sql, [userId, [...ids]]);
  return rows.map(({ __key, ...row }) => ({ id: __key, ...row }));
}
