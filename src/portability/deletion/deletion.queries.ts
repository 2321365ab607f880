import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../../core/database/read-rows.js';

/** A column of a table that holds the owning user's id. */
export interface OwnerColumn {
  table: string;
  column: string;
  /** ON DELETE rule of its foreign key to users (`c` cascade, `n` set null, `a` no action, …), null without one. */
  deleteRule: string | null;
}

/** A foreign key between two tables of the schema: `child` references `parent`. */
export interface TableEdge {
  child: string;
  parent: string;
  /** `r` restrict / `a` no action refuse to delete a referenced parent; `c`, `n`, `d` do not. */
  deleteRule: string;
}

/**
 * Every column of the current schema that names a user, read from the database catalog at the time
 * of the deletion, so a table added later (calendar feed tokens, gamification, Brain, OAuth grants) is
 * covered without a change here: each foreign key to `users`, plus any `user_id` column that has none
 * (the event outbox keeps its rows apart from the user's on purpose). Rows that hang below these
 * (sets below sessions, attempts below deliveries) go with them through their own cascading keys; a
 * test checks that every such key cascades.
 */
export async function ownerColumns(em: EntityManager): Promise<OwnerColumn[]> {
  const rows = await queryRows(
    em,
    `select cls.relname as "table", att.attname as "column", con.confdeltype as "deleteRule"
       from pg_constraint con
       join pg_class cls on cls.oid = con.conrelid
       join pg_namespace ns on ns.oid = cls.relnamespace
       join pg_attribute att on att.attrelid = con.conrelid and att.attnum = con.conkey[1]
      where con.contype = 'f' and ns.nspname = current_schema() and array_length(con.conkey, 1) = 1
        and con.confrelid = (select oid from pg_class where relname = 'users' and relnamespace = ns.oid)
     union
     select c.table_name, c.column_name, null
       from information_schema.columns c
      where c.table_schema = current_schema() and c.column_name = 'user_id' and c.table_name <> 'users'
        and not exists (
          select 1 from pg_constraint con2
            join pg_class cls2 on cls2.oid = con2.conrelid
            join pg_attribute att2 on att2.attrelid = con2.conrelid and att2.attnum = con2.conkey[1]
           where con2.contype = 'f' and cls2.relname = c.table_name and att2.attname = c.column_name)
     order by 1, 2`,
  );
  return rows.map((r) => ({ table: r.table as string, column: r.column as string, deleteRule: (r.deleteRule as string | null) ?? null }));
}

/** Every foreign key between two different tables of the current schema (self-references left out). */
export async function tableEdges(em: EntityManager): Promise<TableEdge[]> {
  const rows = await queryRows(
    em,
    `select distinct cls.relname as child, par.relname as parent, con.confdeltype as "deleteRule"
       from pg_constraint con
       join pg_class cls on cls.oid = con.conrelid
       join pg_class par on par.oid = con.confrelid
      where con.contype = 'f' and cls.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        and con.conrelid <> con.confrelid
      order by 1, 2`,
  );
  return rows.map((r) => ({ child: r.child as string, parent: r.parent as string, deleteRule: r.deleteRule as string }));
}

const refuses = (edge: TableEdge) => edge.deleteRule === 'r' || edge.deleteRule === 'a';

/**
 * `tables` ordered children before parents along `edges` (Kahn's algorithm; ties alphabetical, so the
 * order is stable). A cycle is broken at its cascading / set-null keys, which never refuse a delete;
 * a cycle of refusing keys has no order that works and throws. A self-reference needs none: one
 * DELETE of all a user's rows of a table checks its keys at the end of the statement.
 */
export function childrenFirst(tables: readonly string[], edges: readonly TableEdge[]): string[] {
  const within = new Set(tables);
  let relevant = edges.filter((e) => within.has(e.child) && within.has(e.parent) && e.child !== e.parent);
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    // A table goes once no table still left references it.
    const ready = [...left].filter((t) => !relevant.some((e) => e.parent === t && left.has(e.child))).sort();
    if (ready.length) {
      for (const t of ready) {
        order.push(t);
        left.delete(t);
      }
      continue;
    }
    const before = relevant.length;
    relevant = relevant.filter((e) => !(left.has(e.child) && left.has(e.parent)) || refuses(e));
    if (relevant.length === before) throw new Error(`No deletion order: the foreign keys among ${[...left].sort().join(', ')} refuse deletes in a cycle`);
  }
  return order;
}

/** The columns that name the user, in an order of their tables that no foreign key refuses. */
export async function deletionOrder(em: EntityManager): Promise<OwnerColumn[]> {
  const columns = await ownerColumns(em);
  const order = childrenFirst([...new Set(columns.map((c) => c.table))], await tableEdges(em));
  const rank = new Map(order.map((t, i) => [t, i]));
  return [...columns].sort((a, b) => rank.get(a.table)! - rank.get(b.table)! || a.column.localeCompare(b.column));
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Locks the user's row for the transaction: writes that reference the user wait for the deletion (or finish first). */
export async function lockUser(tx: EntityManager, userId: string): Promise<void> {
  await queryRows(tx, 'select id from users where id = $1 for update', [userId]);
}

/** Deletes the user's rows of one table (found by `deletionOrder`), then, last, the user. */
export async function deleteOwnedRows(tx: EntityManager, { table, column }: OwnerColumn, userId: string): Promise<void> {
  await queryRows(tx, `delete from ${quoteIdent(table)} where ${quoteIdent(column)} = $1`, [userId]);
}

export async function deleteUserRow(tx: EntityManager, userId: string): Promise<void> {
  await queryRows(tx, 'delete from users where id = $1', [userId]);
}
