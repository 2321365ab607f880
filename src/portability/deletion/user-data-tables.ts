import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../../core/database/read-rows.js';

/** A column of a table that holds the owning user's id. */
export interface OwnerColumn {
  table: string;
  column: string;
  /** ON DELETE rule of its foreign key to users (`c` cascade, `n` set null, `a` no action, …), null without one. */
  deleteRule: string | null;
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

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
