import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from './read-rows.js';

/**
 * A person's data version: a number the commit of every transaction that changed one of their rows
 * raises, whoever wrote it (triggers, migration 20261128163400). Two equal readings mean nothing of
 * theirs committed in between. 0 before their first write. One primary-key lookup.
 */
export async function readDataVersion(em: EntityManager, userId: string): Promise<string> {
  const rows = await queryRows(em, 'select version::text as version from lp_data_versions where user_id = $1', [userId]);
  return (rows[0]?.version as string | undefined) ?? '0';
}
