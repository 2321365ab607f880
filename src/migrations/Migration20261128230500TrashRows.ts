import { Migration } from '@mikro-orm/migrations';

/**
 * The trash keeps a deleted record's rows in tables, copied and restored by SQL (docs/trash.md), not in
 * one JSON document that passes through the service's memory: `trash_rows` (each row a deletion took,
 * as `to_jsonb`), `trash_links` (each reference it nulled). `trash_items.snapshot` keeps only which
 * tables and columns those are, in restore order, and a kind's small extra. Existing snapshots move over.
 * `trash_storage_releases`: storage a purge freed but could not delete yet, retried until it is gone.
 */
export class Migration20261128230500TrashRows extends Migration {
  override async up(): Promise<void> {
    // Deferred: the rows are copied before the caller's flush inserts the trash item, in the same transaction.
    this.addSql(`create table "trash_rows" (
      "trash_item_id" uuid not null references "trash_items" ("id") on delete cascade deferrable initially deferred,
      "table_name" text not null,
      "row_id" uuid not null,
      "row" jsonb not null,
      constraint "trash_rows_pkey" primary key ("trash_item_id", "table_name", "row_id"));`);
    this.addSql(`create table "trash_links" (
      "trash_item_id" uuid not null references "trash_items" ("id") on delete cascade deferrable initially deferred,
      "table_name" text not null,
      "column_name" text not null,
      "row_id" uuid not null,
      "value" uuid not null,
      constraint "trash_links_pkey" primary key ("trash_item_id", "table_name", "column_name", "row_id"));`);
    this.addSql(`create table "trash_storage_releases" (
      "id" uuid not null primary key,
      "adapter" varchar(16) not null,
      "prefix" text not null,
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz not null,
      "last_error" text null,
      "created_at" timestamptz not null);`);
    this.addSql(`create index "trash_storage_releases_next_attempt_at_index" on "trash_storage_releases" ("next_attempt_at");`);

    // The snapshots so far: their rows and links into the tables, then the document reduced to its outline.
    this.addSql(`insert into "trash_rows" ("trash_item_id", "table_name", "row_id", "row")
      select t.id, r.value->>'table', (r.value->'row'->>'id')::uuid, r.value->'row'
        from "trash_items" t, jsonb_array_elements(t.snapshot->'rows') r
      on conflict do nothing;`);
    this.addSql(`insert into "trash_links" ("trash_item_id", "table_name", "column_name", "row_id", "value")
      select t.id, l.value->>'table', l.value->>'column', i.value::uuid, (l.value->>'value')::uuid
        from "trash_items" t, jsonb_array_elements(t.snapshot->'links') l, jsonb_array_elements_text(l.value->'ids') i
      on conflict do nothing;`);
    this.addSql(`update "trash_items" t set "snapshot" = jsonb_strip_nulls(jsonb_build_object(
        'tables', coalesce((select jsonb_agg(x.name order by x.first) from (
          select r.value->>'table' as name, min(r.ordinality) as first from jsonb_array_elements(t.snapshot->'rows') with ordinality r group by 1) x), '[]'::jsonb),
        'links', coalesce((select jsonb_agg(distinct jsonb_build_object('table', l.value->>'table', 'column', l.value->>'column'))
          from jsonb_array_elements(t.snapshot->'links') l), '[]'::jsonb),
        'extra', t.snapshot->'extra'))
      where t.snapshot ? 'rows';`);
  }

  override async down(): Promise<void> {
    // The outline and the rows back into one document (parents first: the outline's table order).
    this.addSql(`update "trash_items" t set "snapshot" = jsonb_strip_nulls(jsonb_build_object(
        'rows', coalesce((select jsonb_agg(jsonb_build_object('table', r.table_name, 'row', r.row) order by o.n, r.row_id)
          from "trash_rows" r join jsonb_array_elements_text(t.snapshot->'tables') with ordinality o(name, n) on o.name = r.table_name
          where r.trash_item_id = t.id), '[]'::jsonb),
        'links', coalesce((select jsonb_agg(jsonb_build_object('table', g.table_name, 'column', g.column_name, 'value', g.value, 'ids', g.ids))
          from (select table_name, column_name, value, jsonb_agg(row_id) as ids from "trash_links" where trash_item_id = t.id group by 1, 2, 3) g), '[]'::jsonb),
        'extra', t.snapshot->'extra'))
      where t.snapshot ? 'tables';`);
    this.addSql(`drop table if exists "trash_storage_releases";`);
    this.addSql(`drop table if exists "trash_links";`);
    this.addSql(`drop table if exists "trash_rows";`);
  }
}
