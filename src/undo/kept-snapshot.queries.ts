import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../core/database/read-rows.js';
import { quoteIdentifier as quote, referencesTo as references } from '../core/database/foreign-keys.queries.js';
import { insertableColumns, nullableTargets } from '../trash/trash.queries.js';

/**
 * What an undoable delete outside the trash keeps (docs/undo.md, "Deletes outside the trash"): the rows it
 * takes and the references it nulls, read into memory because they travel with the undo token (its row),
 * so the read is capped (UNDO_SNAPSHOT_ROWS) rather than copied SQL-side as the trash's are.
 */
export interface KeptSnapshot {
  rows: { table: string; row: Record<string, unknown> }[];
  links: { table: string; column: string; ids: string[]; value: string }[];
}

/** The rows `ids` of `table` and, recursively, every row a delete of them cascades to or nulls. */
async function collect(em: EntityManager, table: string, where: string, params: unknown[], snapshot: KeptSnapshot, depth: number, cap = Infinity): Promise<void> {
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

/*
 * A capped snapshot (undo's, src/undo/kinds/kept-deletes.ts): it reads at most one row past the cap (rows
 * plus nulled references) and gives up, so a delete that takes a big tree costs bounded memory.
 */
class OverCap extends Error {}
const sizeOf = (snapshot: KeptSnapshot): number => snapshot.rows.length + snapshot.links.reduce((sum, link) => sum + link.ids.length, 0);
const limitWithin = (snapshot: KeptSnapshot, cap: number): string => (Number.isFinite(cap) ? ` limit ${Math.max(0, cap - sizeOf(snapshot)) + 1}` : '');
function overCap(snapshot: KeptSnapshot, cap: number): void {
  if (sizeOf(snapshot) > cap) throw new OverCap();
}

/** `snapshotOf` bounded: null when the delete would take more than `cap` rows and references (or nothing). */
export async function snapshotWithin(em: EntityManager, table: string, userId: string, id: string, cap: number): Promise<KeptSnapshot | null> {
  const snapshot: KeptSnapshot = { rows: [], links: [] };
  try {
    await collect(em, table, 't.id = $1 and t.user_id = $2', [id, userId], snapshot, 0, cap);
  } catch (error) {
    if (error instanceof OverCap) return null;
    throw error;
  }
  return snapshot.rows.length > 0 ? snapshot : null;
}

/** Re-inserts the snapshot's rows with their ids and sets its nulled references back (those still null). */
export async function reinsert(em: EntityManager, snapshot: KeptSnapshot): Promise<void> {
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
