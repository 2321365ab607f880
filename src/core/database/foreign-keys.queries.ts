import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from './read-rows.js';

/** A single-column foreign key pointing at a table's `id`, and what a delete of its target does to it. */
export interface Reference {
  table: string;
  column: string;
  /** `c`: the row is deleted with its target; `n`: its column is set to null. */
  action: 'c' | 'n';
}

/** A quoted SQL identifier. */
export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

// From the catalog, once per process: a table added later with a cascading key is covered without a change in code.
const referencesOf = new Map<string, Promise<Reference[]>>();

/**
 * The single-column foreign keys that point at `table` and that a delete of its rows cascades to (`c`) or
 * sets to null (`n`): what a raw delete takes with it (the trash's snapshot, the change feed's report).
 */
export function referencesTo(em: EntityManager, table: string): Promise<Reference[]> {
  let found = referencesOf.get(table);
  if (!found) {
    found = queryRows(
      em,
      `select c.relname as "table", a.attname as "column", k.confdeltype as action
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
        where k.contype = 'f' and k.confrelid = $1::regclass and cardinality(k.conkey) = 1 and k.confdeltype in ('c', 'n')
        order by 1, 2`,
      [table],
    ).then((rows) => rows as unknown as Reference[]);
    found.catch(() => referencesOf.delete(table));
    referencesOf.set(table, found);
  }
  return found;
}
