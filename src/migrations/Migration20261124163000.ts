import { Migration } from '@mikro-orm/migrations';

/**
 * Caps on what one parent may hold (issue 23): every list the API answers whole is bounded by them.
 * One trigger function for all of them: it takes a transaction-scoped advisory lock on the parent
 * (so two concurrent inserts at cap - 1 cannot both pass), counts the parent's rows with a fresh
 * snapshot (a PL/pgSQL statement sees rows committed while it waited), and refuses the insert or
 * the move with SQLSTATE LPCAP; src/core/database/row-caps.ts turns that into a 400. Arguments:
 * parent column, cap, rule, then the message (hint) and the field the refusal names (column).
 * The numbers are fixed here as they stood; test/graphql/list-bounds.test.ts compares them with the
 * constants the API documents.
 */
const CAPS: { table: string; parent: string; cap: number; rule: string; message: string; field: string }[] = [
  { table: 'tasks', parent: 'day_id', cap: 200, rule: 'day_task_limit', message: 'A day can hold at most 200 tasks', field: 'dayId' },
  ...[
    ['body_measurements', 'body measurements'],
    ['mobility_sessions', 'mobility sessions'],
    ['cardio_sessions', 'cardio sessions'],
    ['water_intakes', 'water intakes'],
    ['steps_entries', 'steps entries'],
    ['meditation_sessions', 'meditation sessions'],
    ['mood_entries', 'mood entries'],
    ['sleep_entries', 'sleep entries'],
    ['journal_entries', 'journal entries'],
    ['reading_sessions', 'reading sessions'],
    ['social_happenings', 'social happenings'],
  ].map(([table, label]) => ({ table: table!, parent: 'day_id', cap: 100, rule: 'day_entry_limit', message: `A day can hold at most 100 ${label}`, field: 'dayId' })),
  // Each session holds up to 50 exercises of 50 sets: ten sessions are a long day already.
  { table: 'training_sessions', parent: 'day_id', cap: 10, rule: 'day_entry_limit', message: 'A day can hold at most 10 training sessions', field: 'dayId' },
  { table: 'project_tasks', parent: 'column_id', cap: 500, rule: 'column_task_limit', message: 'A board column can hold at most 500 tasks', field: 'columnId' },
  { table: 'grocery_items', parent: 'list_id', cap: 500, rule: 'grocery_item_limit', message: 'A grocery list can hold at most 500 items', field: 'listId' },
  { table: 'brain_database', parent: 'user_id', cap: 200, rule: 'brain_database_limit', message: 'A user can have at most 200 Brain databases', field: '' },
  { table: 'brain_form', parent: 'user_id', cap: 200, rule: 'brain_form_limit', message: 'A user can have at most 200 Brain forms', field: '' },
];

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

export class Migration20261124163000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function enforce_row_cap() returns trigger language plpgsql as $body$
declare
  parent uuid;
  held bigint;
begin
  execute format('select ($1).%I', tg_argv[0]) into parent using new;
  if parent is null then return new; end if;
  perform pg_advisory_xact_lock(hashtextextended(tg_table_name || ':' || tg_argv[0] || ':' || parent::text, 0));
  execute format('select count(*) from %I where %I = $1', tg_table_name, tg_argv[0]) into held using parent;
  if held >= tg_argv[1]::bigint then
    raise exception using errcode = 'LPCAP', message = tg_argv[3], detail = tg_argv[2], hint = tg_argv[3], column = tg_argv[4];
  end if;
  return new;
end;
$body$;`);
    for (const c of CAPS) {
      const args = [c.parent, String(c.cap), c.rule, c.message, c.field].map(quote).join(', ');
      this.addSql(`create trigger "${c.table}_cap_insert" before insert on "${c.table}" for each row execute function enforce_row_cap(${args});`);
      this.addSql(
        `create trigger "${c.table}_cap_move" before update of "${c.parent}" on "${c.table}" for each row when (old."${c.parent}" is distinct from new."${c.parent}") execute function enforce_row_cap(${args});`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const c of CAPS) {
      this.addSql(`drop trigger if exists "${c.table}_cap_insert" on "${c.table}";`);
      this.addSql(`drop trigger if exists "${c.table}_cap_move" on "${c.table}";`);
    }
    this.addSql(`drop function if exists enforce_row_cap();`);
  }
}
