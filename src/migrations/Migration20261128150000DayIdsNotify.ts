import { Migration } from '@mikro-orm/migrations';

/**
 * Today's day ids are cached per instance (src/planning/today-day-ids.ts, issue 36). A day deleted (its
 * week's or its owner's deletion, by cascade or directly) or moved to another date or person NOTIFYs
 * channel `lp_day_ids` with the owner's id, whoever makes it (the service, the admin CLI, plain SQL);
 * every instance drops that owner's cached ids when the notification arrives. Deletions notify once per
 * statement and owner (an account deletion removes thousands of days at once).
 */
export class Migration20261128150000DayIdsNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function lp_day_ids_deleted() returns trigger language plpgsql as $fn$
      declare owner uuid;
      begin
        for owner in select distinct user_id from gone loop
          perform pg_notify('lp_day_ids', owner::text);
        end loop;
        return null;
      end $fn$;`);
    this.addSql(`create or replace function lp_day_ids_moved() returns trigger language plpgsql as $fn$
      begin
        perform pg_notify('lp_day_ids', old.user_id::text);
        return null;
      end $fn$;`);
    this.addSql(`create trigger lp_day_ids_deleted after delete on "days" referencing old table as gone
      for each statement execute function lp_day_ids_deleted();`);
    this.addSql(`create trigger lp_day_ids_moved after update of "date", "user_id" on "days"
      for each row execute function lp_day_ids_moved();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists lp_day_ids_moved on "days";`);
    this.addSql(`drop trigger if exists lp_day_ids_deleted on "days";`);
    this.addSql(`drop function if exists lp_day_ids_moved();`);
    this.addSql(`drop function if exists lp_day_ids_deleted();`);
  }
}
