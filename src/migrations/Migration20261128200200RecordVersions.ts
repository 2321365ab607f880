import { Migration } from '@mikro-orm/migrations';

/** The records a client edits, each with a version for If-Match / expectedVersion (docs/concurrency.md). */
const TABLES = ['tasks', 'checklist_items', 'project_tasks', 'brain_note', 'brain_record', 'people', 'finance_transactions', 'habits'];

/**
 * Issue 38 "no lost updates": a `version` on each record a client edits, bumped by a BEFORE UPDATE
 * trigger so that every writer counts, the ORM's flushes and the raw statements and bulk jobs alike
 * (src/core/database/versioned.entity.ts). The trigger sets old + 1 whatever the statement set, so a
 * writer cannot move a version back or keep it.
 */
export class Migration20261128200200RecordVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function lp_bump_version() returns trigger language plpgsql as $$
begin
  new.version := old.version + 1;
  return new;
end $$;`);
    for (const table of TABLES) {
      this.addSql(`alter table "${table}" add column "version" int not null default 1;`);
      this.addSql(`create trigger "${table}_bump_version" before update on "${table}" for each row execute function lp_bump_version();`);
    }
  }

  override async down(): Promise<void> {
    for (const table of TABLES) {
      this.addSql(`drop trigger if exists "${table}_bump_version" on "${table}";`);
      this.addSql(`alter table "${table}" drop column "version";`);
    }
    this.addSql(`drop function if exists lp_bump_version();`);
  }
}
