import { Migration } from '@mikro-orm/migrations';

export class Migration20261124010112 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "agenda_feeds" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "token_hash" varchar(64) not null, constraint "agenda_feeds_pkey" primary key ("id"));`);
    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_token_hash_unique" unique ("token_hash");`);

    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create index "project_tasks_user_id_due_date_index" on "project_tasks" ("user_id", "due_date");`);

    this.addSql(`create index "meditation_sessions_user_id_time_index" on "meditation_sessions" ("user_id", "time");`);

    this.addSql(`create index "cardio_sessions_user_id_start_time_index" on "cardio_sessions" ("user_id", "start_time");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agenda_feeds" cascade;`);

    this.addSql(`drop index "cardio_sessions_user_id_start_time_index";`);

    this.addSql(`drop index "meditation_sessions_user_id_time_index";`);

    this.addSql(`drop index "project_tasks_user_id_due_date_index";`);
  }

}
