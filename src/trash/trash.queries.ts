import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { quoteIdentifier as quote, referencesTo as references } from '../core/database/foreign-keys.queries.js';
import type { TrashSnapshot } from './trash-item.entity.js';
import type { ReachedRows } from '../core/live/reported-rows.queries.js';

/*
 * A trashed record's rows live in `trash_rows` (and its nulled references in `trash_links`), copied by
 * `insert … select to_jsonb(t)` in the delete's transaction and put back by `insert … select …
 * jsonb_populate_record(…)`: whatever the size of what a delete takes (a habit's years of entries), no
 * row passes through the service's memory; it runs one statement per table and reference the delete
 * reaches, and a restore one per chunk of `RESTORE_CHUNK` rows.
 *
 * The foreign keys and columns come from the catalog, read once per process: a table added later with a
 * cascading key to a trashable one is copied and restored without a change here.
 */

/** Rows re-inserted per statement: a restore's statements stay bounded whatever the record holds. */
export const RESTORE_CHUNK = 1000;

const nullableTargetsOf = new Map<string, Promise<{ column: string; target: string }[]>>();

/** A table's own foreign keys whose target's delete sets them to null (a task's category, day). */
export function nullableTargets(em: EntityManager, table: string): Promise<{ column: string; target: string }[]> {
  let found = nullableTargetsOf.get(table);
  if (!found) {
    found = queryRows(
      em,
      `select a.attname as "column", t.relname as target
         from pg_constraint k
         join pg_class t on t.oid = k.confrelid
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
        where k.contype = 'f' and k.conrelid = $1::regclass and cardinality(k.conkey) = 1 and k.confdeltype = 'n'`,
      [table],
    ).then((rows) => rows as never);
    found.catch(() => nullableTargetsOf.delete(table));
    nullableTargetsOf.set(table, found);
  }
  return found;
}
const columnsOf = new Map<string, Promise<string[]>>();

/** The columns an insert may name (generated ones, such as a note's search vector, are made again). */
export function insertableColumns(em: EntityManager, table: string): Promise<string[]> {
  let found = columnsOf.get(table);
  if (!found) {
    found = queryRows(
      em,
      `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
      [table],
    ).then((rows) => rows.map((row) => String(row.name)));
    found.catch(() => columnsOf.delete(table));
    columnsOf.set(table, found);
  }
  return found;
}

/** Runs `insert … returning 1` and answers how many rows it inserted (one number back, not the rows). */
async function insertedCount(em: EntityManager, insert: string, params: unknown[]): Promise<number> {
  const [row] = await queryRows(em, `with ins as (${insert} returning 1) select count(*)::int as n from ins`, params);
  return Number(row?.n ?? 0);
}

/** Renumbers a condition's `$n` placeholders to follow `offset` others. */
const shifted = (sql: string, offset: number) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);

/** Copies the rows of `table` matching `where` ($3…) and, recursively, every row a delete of them cascades to or nulls. */
async function collect(em: EntityManager, itemId: string, table: string, where: string, params: unknown[], snapshot: TrashSnapshot, depth: number): Promise<void> {
  const copied = await insertedCount(
    em,
    `insert into trash_rows (trash_item_id, table_name, row_id, row)
     select $1::uuid, $2::text, t.id, to_jsonb(t) from ${quote(table)} t where ${where}
     on conflict do nothing`,
    [itemId, table, ...params],
  );
  if (copied === 0) return;
  if (!snapshot.tables.includes(table)) snapshot.tables.push(table);
  if (depth > 4) return; // the schema nests cascades two deep; a cycle would stop here
  const parents = `(select row_id from trash_rows where trash_item_id = $1 and table_name = $3)`;
  for (const ref of await references(em, table)) {
    if (ref.action === 'c') {
      await collect(em, itemId, ref.table, `t.${quote(ref.column)} in ${parents}`, [table], snapshot, depth + 1);
      continue;
    }
    const linked = await insertedCount(
      em,
      `insert into trash_links (trash_item_id, table_name, column_name, row_id, value)
       select $1::uuid, $2::text, $4::text, t.id, t.${quote(ref.column)} from ${quote(ref.table)} t where t.${quote(ref.column)} in ${parents}
       on conflict do nothing`,
      [itemId, ref.table, table, ref.column],
    );
    if (linked > 0 && !snapshot.links.some((l) => l.table === ref.table && l.column === ref.column)) snapshot.links.push({ table: ref.table, column: ref.column });
  }
}

/** Rows of the same table taken with the record (a series' later occurrences): a condition on alias `t`, its own `$1…`. */
export interface AlsoRows {
  where: string;
  params: unknown[];
}

/**
 * A reference to a trashed record that no foreign key declares, in a table of the user's rows (`user_id`):
 * a uuid column, or with `array` a JSON array of ids as text (a happening's `guest_ids`).
 */
export interface UndeclaredReference {
  table: string;
  column: string;
  array?: true;
}

/** Keeps the user's rows of `ref.table` that point at `id` as links (row, value `id`), by SQL. */
async function keepUndeclared(em: EntityManager, itemId: string, userId: string, id: string, ref: UndeclaredReference, snapshot: TrashSnapshot): Promise<void> {
  const column = `t.${quote(ref.column)}`;
  const linked = await insertedCount(
    em,
    `insert into trash_links (trash_item_id, table_name, column_name, row_id, value)
     select $1::uuid, $2::text, $3::text, t.id, $4::uuid from ${quote(ref.table)} t
      where t.user_id = $5 and ${ref.array ? `${column} @> jsonb_build_array($4::text)` : `${column} = $4::uuid`}
     on conflict do nothing`,
    [itemId, ref.table, ref.column, id, userId],
  );
  if (linked > 0) snapshot.links.push({ table: ref.table, column: ref.column, ...(ref.array ? { array: true as const } : {}) });
}

/**
 * Copies under `itemId`, before the delete and in its transaction, what deleting the user's row `id` of
 * `table` (and the rows `also` names) will take with it; answers the outline a restore follows. `itemId`
 * must name a `trash_items` row by the transaction's end (the key is deferred).
 */
export async function snapshotOf(
  em: EntityManager,
  itemId: string,
  table: string,
  userId: string,
  id: string,
  also?: AlsoRows,
  references: readonly UndeclaredReference[] = [],
): Promise<TrashSnapshot> {
  const snapshot: TrashSnapshot = { tables: [], links: [] };
  const where = also ? `t.user_id = $4 and (t.id = $3 or (${shifted(also.where, 4)}))` : 't.id = $3 and t.user_id = $4';
  await collect(em, itemId, table, where, [id, userId, ...(also?.params ?? [])], snapshot, 0);
  for (const ref of references) await keepUndeclared(em, itemId, userId, id, ref, snapshot);
  return snapshot;
}

// Numbers as their text: an amount of 15 digits would lose its cents as a JavaScript number.
const EXACT_ROW = `(select jsonb_object_agg(e.key, case when jsonb_typeof(e.value) = 'number' then to_jsonb(e.value #>> '{}') else e.value end) from jsonb_each(r.row) e)`;

/** The trashed record's own row (one row: what a kind's restore rules read), numbers as text. */
export async function trashedRow(em: EntityManager, itemId: string, table: string, id: string): Promise<Record<string, unknown> | undefined> {
  const [found] = await queryRows(em, `select ${EXACT_ROW} as row from trash_rows r where r.trash_item_id = $1 and r.table_name = $2 and r.row_id = $3`, [itemId, table, id]);
  return found?.row as Record<string, unknown> | undefined;
}

/** The same for many entries at once (the purge's chunk): by trash item id. */
export async function trashedRows(em: EntityManager, items: { id: string; table: string; recordId: string }[]): Promise<Map<string, Record<string, unknown>>> {
  if (items.length === 0) return new Map();
  const rows = await queryRows(
    em,
    `select r.trash_item_id::text as id, ${EXACT_ROW} as row from trash_rows r
      join unnest($1::uuid[], $2::text[], $3::uuid[]) k(item, tbl, rid) on r.trash_item_id = k.item and r.table_name = k.tbl and r.row_id = k.rid`,
    [items.map((i) => i.id), items.map((i) => i.table), items.map((i) => i.recordId)],
  );
  return new Map(rows.map((row) => [String(row.id), row.row as Record<string, unknown>]));
}

/** Writes back the record's own row a kind's restore rule changed (a card's new place). */
export async function rewriteTrashedRow(em: EntityManager, itemId: string, table: string, id: string, row: Record<string, unknown>): Promise<void> {
  await queryRows(em, 'update trash_rows set row = $4::jsonb where trash_item_id = $1 and table_name = $2 and row_id = $3', [itemId, table, id, JSON.stringify(row)]);
}

/**
 * Re-inserts the rows copied under `itemId` with their ids, parents first, `RESTORE_CHUNK` at a time, and
 * sets its nulled references back (those still null). A reference of a restored row to something deleted
 * meanwhile that would have nulled it (a task's category) comes back null, as that delete would have left it.
 */
export async function restoreRows(em: EntityManager, itemId: string, snapshot: TrashSnapshot): Promise<void> {
  for (const table of snapshot.tables) {
    const columns = await insertableColumns(em, table);
    const nullable = new Map((await nullableTargets(em, table)).map(({ column, target }) => [column, target]));
    const values = columns.map((c) => (nullable.has(c) ? `(select g.id from ${quote(nullable.get(c)!)} g where g.id = x.${quote(c)})` : `x.${quote(c)}`));
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const [chunk] = await queryRows(
        em,
        `with batch as (
           select row_id, row from trash_rows where trash_item_id = $1 and table_name = $2 and row_id > $3::uuid order by row_id limit $4
         ), ins as (
           insert into ${quote(table)} (${columns.map(quote).join(', ')})
           select ${values.join(', ')} from batch b cross join lateral jsonb_populate_record(null::${quote(table)}, b.row) x
         )
         select count(*)::int as n, max(row_id::text) as last from batch`,
        [itemId, table, after, RESTORE_CHUNK],
      );
      if (!chunk || Number(chunk.n) < RESTORE_CHUNK) break;
      after = String(chunk.last);
    }
  }
  for (const { table, column, array } of snapshot.links) {
    // An id taken out of a JSON array goes back at its end (once), into the rows still there.
    const set = array ? `${quote(column)} = u.${quote(column)} || jsonb_build_array(l.value::text)` : `${quote(column)} = l.value`;
    const still = array ? `not u.${quote(column)} @> jsonb_build_array(l.value::text)` : `u.${quote(column)} is null`;
    await queryRows(
      em,
      `update ${quote(table)} u set ${set} from trash_links l
        where l.trash_item_id = $1 and l.table_name = $2 and l.column_name = $3 and u.id = l.row_id and ${still}`,
      [itemId, table, column],
    );
  }
}

/**
 * The rows kept under `itemId` (`kind`: deleted by the trash, created by a restore) and the rows whose
 * reference it nulled (updated), as the live report reads them by SQL (`reportRows`): a delete's
 * thousands of rows are each in the feed without passing through the service.
 */
export function trashedReach(itemId: string, snapshot: TrashSnapshot, kind: string): ReachedRows {
  return {
    with: `reached(tbl, id, kind) as (
      select table_name, row_id::text, :trash_kind::text from trash_rows where trash_item_id = :trash_item
      union all select table_name, row_id::text, 'updated' from trash_links where trash_item_id = :trash_item)`,
    params: { trash_item: itemId, trash_kind: kind },
    tables: [...snapshot.tables, ...snapshot.links.map((l) => l.table)],
  };
}

/**
 * Up to `limit` trash items whose time ran out at `now` (each person's retention: user_settings, 30 days
 * without a row), locked for the purge; a second purge running at once skips them.
 */
export async function lockExpired(em: EntityManager, now: Date, limit: number): Promise<{ id: string; userId: string; kind: string; recordId: string }[]> {
  const rows = await queryRows(
    em,
    `select t.id::text as id, t.user_id::text as "userId", t.kind, t.record_id::text as "recordId"
       from trash_items t left join user_settings s on s.user_id = t.user_id
      where t.deleted_at < $1::timestamptz - make_interval(days => coalesce(s.trash_retention_days, 30))
      order by t.deleted_at
      limit $2
      for update of t skip locked`,
    [now.toISOString(), limit],
  );
  return rows as never;
}

/** Deletes trash items for good; their rows and links go with them (their keys cascade). */
export async function deleteTrashItems(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length) await queryRows(em, 'delete from trash_items where id = any($1::uuid[])', [ids]);
}
