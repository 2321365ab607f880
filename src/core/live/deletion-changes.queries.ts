import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../database/read-rows.js';
import { namedParameters } from '../database/named-parameters.js';
import { recordLiveChange } from './change-collector.js';
import { reportRows } from './reported-rows.queries.js';
import { quoteIdentifier as quote, referencesTo as references } from '../database/foreign-keys.queries.js';

/**
 * Deletes by raw statement (in place of `nativeDelete`) and tells the live updates and the change feed
 * (docs/sync.md) what it took: the rows of `entity` whose properties equal `where`'s values (an array:
 * one of them), every row the database's foreign keys cascade the delete to (deleted) and every row
 * whose reference it nulls (updated). Runs in a transaction (the changes go out with its commit).
 *
 * The rows it reaches are never read into the service: one statement finds them (from the catalog's
 * keys), deletes, and reports them through `reportRows` (at most a batch's worth held; past it the
 * live updates hear `*` and the feed rows are written by that statement), so a Brain database of
 * 50,000 records costs the service what a small one does. When something references the table, its rows
 * are locked first, so no cascading row is added between that statement's snapshot and the delete
 * (an insert referencing a locked row waits): two statements; a table nothing references, one.
 * Answers how many rows of `entity` went.
 */
export async function deleteReported(em: EntityManager, userId: string, entity: { name: string }, where: Record<string, unknown>): Promise<number> {
  if (!em.getTransactionContext()) throw new Error('deleteReported runs in a transaction');
  const meta = em.getMetadata().get(entity.name);
  const params: Record<string, unknown> = {};
  const conditions = Object.entries(where).map(([property, value], i) => {
    const column = quote(meta.properties[property as never]?.fieldNames?.[0] ?? property);
    params[`w${i}`] = value;
    return Array.isArray(value) ? `${column} = any(:w${i})` : `${column} = :w${i}`;
  });
  const root = `select id from ${quote(meta.tableName)} where ${conditions.join(' and ')}`;
  if ((await references(em, meta.tableName)).length > 0) {
    const { text, values } = namedParameters(`with locked as (${root} for update) select count(*) from locked`, params);
    await queryRows(em, text, values);
  }
  const reach = new Reach();
  await reach.add(em, meta.tableName, root, 0);
  return reportRows(em, userId, {
    with: `${reach.items.join(',\n')},
      reached(tbl, id, kind) as (${reach.rows.join(' union all ')}),
      gone as (delete from ${quote(meta.tableName)} where id in (select id from r0) returning 1)`,
    params,
    tables: reach.tables,
    count: 'gone',
  });
}

/** The `with` items that select what a delete of a table's rows reaches, one per table and depth (`r0` the rows themselves). */
class Reach {
  readonly items: string[] = [];
  readonly rows: string[] = [];
  readonly tables: string[] = [];

  async add(em: EntityManager, table: string, select: string, depth: number): Promise<void> {
    const name = `r${this.items.length}`;
    this.items.push(`${name} as (${select})`);
    this.rows.push(`select '${table.replaceAll("'", "''")}'::text, id::text, 'deleted'::text from ${name}`);
    this.tables.push(table);
    if (depth > 4) return; // the schema nests cascades two deep; a cycle would stop here
    for (const ref of await references(em, table)) {
      const linked = `select id from ${quote(ref.table)} where ${quote(ref.column)} in (select id from ${name})`;
      if (ref.action === 'c') await this.add(em, ref.table, linked, depth + 1);
      else {
        this.rows.push(`select '${ref.table.replaceAll("'", "''")}'::text, id::text, 'updated'::text from (${linked}) n`);
        this.tables.push(ref.table);
      }
    }
  }
}

/** The same for a raw update (`nativeUpdate`) of `entity` rows `ids`: each is `updated`. */
export function recordUpdates(em: EntityManager, userId: string, entity: { name: string }, ids: readonly string[]): void {
  for (const id of ids) recordLiveChange(em, userId, { entity: entity.name, id, kind: 'updated' });
}
