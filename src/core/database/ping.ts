import type { Orm } from './orm.js';

/** One round trip to the database (readiness). */
export async function pingDatabase(orm: Orm): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}
