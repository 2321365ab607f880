import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { quoteIdentifier as quote, referencesTo as references } from '../core/database/foreign-keys.queries.js';
import type { TrashSnapshot } from './trash-item.entity.js';

/*
 * The foreign keys and columns come from the catalog, read once per process: a table added later with a
 * cascading key to a trashable one is snapshotted and restored without a change here.
 */
const nullableTargetsOf = new Map<string, Promise<{ column: string; target: string }[]>>();

/** A table's own foreign keys whose target's delete sets them to null (a task's category, day). */
function nullableTargets(em: EntityManager, table: string): Promise<{ column: string; target: string }[]> {
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
function insertableColumns(em: EntityManager, table: string): Promise<string[]> {
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

/** The rows `ids` of `table` and, recursively, every row a delete of them cascades to or nulls. */
async function collect(em: EntityManager, table: string, where: string, params: unknown[], snapshot: TrashSnapshot, depth: number, cap = Infinity): Promise<void> {
  // Numbers as their text: an amount of 15 digits would lose its cents as a JavaScript number.
  const row = `(select jsonb_object_agg(e.key, case when jsonb_typeof(e.value) = 'number' then to_jsonb(e.value #>> '{}') else e.value end) from jsonb_each(to_jsonb(t)) e)`;
  const rows = await queryRows(em, `select t.id::text as id, ${row} as row from ${quote(table)} t where ${where}${limitWithin(snapshot, cap)}`, params);
  if (rows.length === 0) return;
  for (const { row } of rows) snapshot.rows.push({ table, row: row as Record<string, unknown> });
  overCap(snapshot, cap);
  const ids = rows.map((row) => String(row.id));
  if (depth > 4) return; // the schema nests cascades two deep; a cycle would stop here
  for (const ref of await references(em, table)) {
    if (ref.action === 'c') {
      await collect(em, ref.table, `t.${quote(ref.column)} = any($1::uuid[])`, [ids], snapshot, depth + 1, cap);
    } else {
      const linked = await queryRows(em, `select id::text as id, ${quote(ref.column)}::text as value from ${quote(ref.table)} where ${quote(ref.column)} = any($1::uuid[])${limitWithin(snapshot, cap)}`, [ids]);
      const byValue = new Map<string, string[]>();
      for (const link of linked) byValue.set(String(link.value), [...(byValue.get(String(link.value)) ?? []), String(link.id)]);
      for (const [value, linkIds] of byValue) snapshot.links.push({ table: ref.table, column: ref.column, ids: linkIds, value });
      overCap(snapshot, cap);
    }
  }
}

/** What deleting the user's row `id` of `table` would take with it, read before the delete (in its transaction). */
export async function snapshotOf(em: EntityManager, table: string, userId: string, id: string): Promise<TrashSnapshot> {
  const snapshot: TrashSnapshot = { rows: [], links: [] };
  await collect(em, table, 't.id = $1 and t.user_id = $2', [id, userId], snapshot, 0);
  return snapshot;
}

/*
 * A capped snapshot (undo's, src/undo/kinds/kept-deletes.ts): it reads at most one row past the cap (rows
 * plus nulled references) and gives up, so a delete that takes a big tree costs bounded memory.
 */
class OverCap extends Error {}
const sizeOf = (snapshot: TrashSnapshot): number => snapshot.rows.length + snapshot.links.reduce((sum, link) => sum + link.ids.length, 0);
const limitWithin = (snapshot: TrashSnapshot, cap: number): string => (Number.isFinite(cap) ? ` limit ${Math.max(0, cap - sizeOf(snapshot)) + 1}` : '');
function overCap(snapshot: TrashSnapshot, cap: number): void {
  if (sizeOf(snapshot) > cap) throw new OverCap();
}

/** `snapshotOf` bounded: null when the delete would take more than `cap` rows and references (or nothing). */
export async function snapshotWithin(em: EntityManager, table: string, userId: string, id: string, cap: number): Promise<TrashSnapshot | null> {
  const snapshot: TrashSnapshot = { rows: [], links: [] };
  try {
    await collect(em, table, 't.id = $1 and t.user_id = $2', [id, userId], snapshot, 0, cap);
  } catch (error) {
    if (error instanceof OverCap) return null;
    throw error;
  }
  return snapshot.rows.length > 0 ? snapshot : null;
}

/** Re-inserts the snapshot's rows with their ids and sets its nulled references back (those still null). */
export async function reinsert(em: EntityManager, snapshot: TrashSnapshot): Promise<void> {
  for (const { table, row } of snapshot.rows) {
    // What was deleted meanwhile and would have nulled the reference had the row been here is nulled now.
    for (const { column, target } of await nullableTargets(em, table)) {
      if (row[column] == null) continue;
      const exists = await queryRows(em, `select 1 from ${quote(target)} where id = $1`, [row[column]]);
      if (exists.length === 0) row[column] = null;
    }
    const columns = (await insertableColumns(em, table)).map(quote).join(', ');
    await queryRows(em, `insert into ${quote(table)} (${columns}) select ${columns} from jsonb_populate_record(null::${quote(table)}, $1::jsonb)`, [
      JSON.stringify(row),
    ]);
  }
  for (const link of snapshot.links) {
    await queryRows(em, `update ${quote(link.table)} set ${quote(link.column)} = $1 where id = any($2::uuid[]) and ${quote(link.column)} is null`, [
      link.value,
      link.ids,
    ]);
  }
}

/**
 * Up to `limit` trash items whose time ran out at `now` (each person's retention: user_settings, 30 days
 * without a row), locked for the purge; a second purge running at once skips them.
 */
export async function lockExpired(em: EntityManager, now: Date, limit: number): Promise<{ id: string; userId: string; kind: string; snapshot: TrashSnapshot }[]> {
  const rows = await queryRows(
    em,
    `select t.id::text as id, t.user_id::text as "userId", t.kind, t.snapshot
       from trash_items t left join user_settings s on s.user_id = t.user_id
      where t.deleted_at < $1::timestamptz - make_interval(days => coalesce(s.trash_retention_days, 30))
      order by t.deleted_at
      limit $2
      for update of t skip locked`,
    [now.toISOString(), limit],
  );
  return rows as never;
}

export async function deleteTrashItems(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length) await queryRows(em, 'delete from trash_items where id = any($1::uuid[])', [ids]);
}
