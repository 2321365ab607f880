import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../database/read-rows.js';
import { recordLiveChange } from './change-collector.js';
import { quoteIdentifier as quote, referencesTo as references } from '../database/foreign-keys.queries.js';

function entityOfTable(em: EntityManager, table: string): string | undefined {
  for (const meta of Object.values(em.getMetadata().getAll())) if (meta.tableName === table) return meta.className;
  return undefined;
}

/**
 * Deletes by raw statement (in place of `nativeDelete`) and tells the live updates and the change feed
 * (docs/sync.md) what it took: the rows of `entity` whose properties equal `where`'s values (an array:
 * one of them), every row the database's foreign keys cascade the delete to (deleted) and every row
 * whose reference it nulls (updated). Runs in a transaction (the changes go out with its commit). A
 * table nothing references is one `delete … returning id`; otherwise the rows are locked first, so no
 * cascading row is added between reading them and the delete (an insert referencing a locked row
 * waits): one more statement per table the delete reaches. Answers how many rows of `entity` went.
 */
export async function deleteReported(em: EntityManager, userId: string, entity: { name: string }, where: Record<string, unknown>): Promise<number> {
  if (!em.getTransactionContext()) throw new Error('deleteReported runs in a transaction');
  const meta = em.getMetadata().get(entity.name);
  const table = quote(meta.tableName);
  const params: unknown[] = [];
  const conditions = Object.entries(where).map(([property, value]) => {
    const column = quote(meta.properties[property as never]?.fieldNames?.[0] ?? property);
    params.push(value);
    return Array.isArray(value) ? `${column} = any($${params.length})` : `${column} = $${params.length}`;
  });
  if ((await references(em, meta.tableName)).length === 0) {
    const gone = await queryRows(em, `delete from ${table} where ${conditions.join(' and ')} returning id::text as id`, params);
    for (const row of gone) recordLiveChange(em, userId, { entity: meta.className, id: String(row.id), kind: 'deleted' });
    return gone.length;
  }
  const locked = (await queryRows(em, `select id::text as id from ${table} where ${conditions.join(' and ')} for update`, params)).map((row) => String(row.id));
  await report(em, userId, meta.tableName, locked, 0);
  if (locked.length > 0) await queryRows(em, `delete from ${table} where id = any($1::uuid[])`, [locked]);
  return locked.length;
}

async function report(em: EntityManager, userId: string, table: string, ids: string[], depth: number): Promise<void> {
  if (ids.length === 0) return;
  const entity = entityOfTable(em, table);
  if (entity) for (const id of ids) recordLiveChange(em, userId, { entity, id, kind: 'deleted' });
  if (depth > 4) return; // the schema nests cascades two deep; a cycle would stop here
  for (const ref of await references(em, table)) {
    const rows = await queryRows(em, `select id::text as id from ${quote(ref.table)} where ${quote(ref.column)} = any($1::uuid[])`, [ids]);
    const found = rows.map((row) => String(row.id));
    if (ref.action === 'c') await report(em, userId, ref.table, found, depth + 1);
    else {
      const linked = entityOfTable(em, ref.table);
      if (linked) for (const id of found) recordLiveChange(em, userId, { entity: linked, id, kind: 'updated' });
    }
  }
}

/** The same for a raw update (`nativeUpdate`) of `entity` rows `ids`: each is `updated`. */
export function recordUpdates(em: EntityManager, userId: string, entity: { name: string }, ids: readonly string[]): void {
  for (const id of ids) recordLiveChange(em, userId, { entity: entity.name, id, kind: 'updated' });
}
