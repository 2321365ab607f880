import { Migration } from '@mikro-orm/migrations';

export class Migration20261127083835 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tasks" add column "start_time" varchar(5) null, add column "recurrence" text null, add column "series_id" uuid null, add column "occurrence_date" date null, add column "recurrence_exceptions" text[] not null default '{}';`);
    this.addSql(`alter table "tasks" add constraint "tasks_series_id_occurrence_date_unique" unique ("series_id", "occurrence_date");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tasks" drop constraint "tasks_series_id_occurrence_date_unique";`);
    this.addSql(`alter table "tasks" drop column "start_time", drop column "recurrence", drop column "series_id", drop column "occurrence_date", drop column "recurrence_exceptions";`);
  }

}
