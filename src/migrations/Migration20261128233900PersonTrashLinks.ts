import { Migration } from '@mikro-orm/migrations';

/**
 * A trashed person's guest places and perimeter links move from the entry's `extra` (id lists read into
 * memory on restore) to `trash_links` rows, which the restore sets back by SQL (docs/trash.md).
 */
export class Migration20261128233900PersonTrashLinks extends Migration {
  override async up(): Promise<void> {
    for (const [list, table, column] of [
      ['happeningIds', 'social_happenings', 'guest_ids'],
      ['perimeterTaskIds', 'perimeter_tasks', 'person_id'],
    ]) {
      this.addSql(`insert into "trash_links" ("trash_item_id", "table_name", "column_name", "row_id", "value")
        select t.id, '${table}', '${column}', i.value::uuid, t.record_id
          from "trash_items" t, jsonb_array_elements_text(t.snapshot->'extra'->'${list}') i
         where t.kind = 'person'
        on conflict do nothing;`);
    }
    this.addSql(`update "trash_items" t set "snapshot" = (t.snapshot - 'extra') || jsonb_build_object('links', coalesce(t.snapshot->'links', '[]'::jsonb)
        || case when jsonb_array_length(coalesce(t.snapshot->'extra'->'happeningIds', '[]')) > 0
                then '[{"table": "social_happenings", "column": "guest_ids", "array": true}]'::jsonb else '[]'::jsonb end
        || case when jsonb_array_length(coalesce(t.snapshot->'extra'->'perimeterTaskIds', '[]')) > 0
                then '[{"table": "perimeter_tasks", "column": "person_id"}]'::jsonb else '[]'::jsonb end)
      where t.kind = 'person' and t.snapshot ? 'extra';`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "trash_items" t set "snapshot" = t.snapshot || jsonb_build_object(
        'links', coalesce((select jsonb_agg(l) from jsonb_array_elements(t.snapshot->'links') l
                            where l->>'table' not in ('social_happenings', 'perimeter_tasks')), '[]'::jsonb),
        'extra', jsonb_build_object(
          'happeningIds', coalesce((select jsonb_agg(k.row_id) from "trash_links" k where k.trash_item_id = t.id and k.table_name = 'social_happenings'), '[]'::jsonb),
          'perimeterTaskIds', coalesce((select jsonb_agg(k.row_id) from "trash_links" k where k.trash_item_id = t.id and k.table_name = 'perimeter_tasks'), '[]'::jsonb)))
      where t.kind = 'person';`);
    this.addSql(`delete from "trash_links" k using "trash_items" t
      where k.trash_item_id = t.id and t.kind = 'person' and k.table_name in ('social_happenings', 'perimeter_tasks');`);
  }
}
