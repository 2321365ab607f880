import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003149 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "event_outbox" ("id" uuid not null, "user_id" uuid not null, "event" varchar(64) not null, "data" jsonb not null, "occurred_at" timestamptz not null, "dispatched_at" timestamptz null, constraint "event_outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "event_outbox_user_id_index" on "event_outbox" ("user_id");`);
    this.addSql(`create index "event_outbox_dispatched_at_occurred_at_index" on "event_outbox" ("dispatched_at", "occurred_at");`);

    this.addSql(`create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" varchar(320) not null, "password_hash" text not null, "email_verified_at" timestamptz null, "plan" text check ("plan" in ('free', 'pro')) not null default 'free', "plan_expires_at" timestamptz null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "task_categories" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "color" varchar(7) null, constraint "task_categories_pkey" primary key ("id"));`);

    this.addSql(`create table "perimeter_tasks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(500) not null, "person_id" uuid null, constraint "perimeter_tasks_pkey" primary key ("id"));`);

    this.addSql(`create table "login_sessions" ("id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "login_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "login_sessions_user_id_index" on "login_sessions" ("user_id");`);

    this.addSql(`create table "auth_tokens" ("id" uuid not null, "user_id" uuid not null, "kind" text check ("kind" in ('password_reset', 'email_verification')) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "auth_tokens_pkey" primary key ("id"));`);
    this.addSql(`create index "auth_tokens_token_hash_index" on "auth_tokens" ("token_hash");`);

    this.addSql(`create table "user_settings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "weekly_split_labels" jsonb not null, "wake_time" varchar(5) not null default '07:00', "in_bed_time" varchar(5) not null default '22:30', "lights_out_time" varchar(5) not null default '23:00', "stress_week_wake_time" varchar(5) not null default '07:00', "stress_week_in_bed_time" varchar(5) not null default '22:00', "stress_week_lights_out_time" varchar(5) not null default '22:30', "timezone" varchar(64) not null default 'UTC', constraint "user_settings_pkey" primary key ("id"));`);
    this.addSql(`alter table "user_settings" add constraint "user_settings_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "weeks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "start_date" date not null, "end_date" date not null, "is_stress_week" boolean not null default false, constraint "weeks_pkey" primary key ("id"));`);
    this.addSql(`alter table "weeks" add constraint "weeks_user_id_start_date_unique" unique ("user_id", "start_date");`);

    this.addSql(`create table "days" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "week_id" uuid not null, "date" date not null, "notes" text null, "minimum_mode" boolean not null default false, "mood" smallint null, "energy" smallint null, "sleep_hours" double precision null, "completed_at" timestamptz null, constraint "days_pkey" primary key ("id"));`);
    this.addSql(`create index "days_week_id_index" on "days" ("week_id");`);
    this.addSql(`alter table "days" add constraint "days_user_id_date_unique" unique ("user_id", "date");`);

    this.addSql(`create table "tasks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(500) not null, "description" text null, "timebox" int not null, "status" text check ("status" in ('todo', 'doing', 'done', 'deferred')) not null default 'todo', "next_step" text null, "category_id" uuid null, "day_id" uuid null, "completed_at" timestamptz null, "deferred_at" timestamptz null, constraint "tasks_pkey" primary key ("id"));`);
    this.addSql(`create index "tasks_category_id_index" on "tasks" ("category_id");`);
    this.addSql(`create index "tasks_day_id_index" on "tasks" ("day_id");`);
    this.addSql(`create index "tasks_user_id_status_index" on "tasks" ("user_id", "status");`);

    this.addSql(`create table "day_perimeter_tasks" ("id" uuid not null, "day_id" uuid not null, "perimeter_task_id" uuid not null, "position" smallint not null, constraint "day_perimeter_tasks_pkey" primary key ("id"));`);
    this.addSql(`create index "day_perimeter_tasks_day_id_index" on "day_perimeter_tasks" ("day_id");`);
    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_day_id_perimeter_task_id_unique" unique ("day_id", "perimeter_task_id");`);

    this.addSql(`create table "checklist_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "key" text check ("key" in ('MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING', 'MEDITATION', 'JOURNAL', 'PERIMETER', 'WEIGHT_LOG')) not null, "completed" boolean not null default false, "value" jsonb null, "completed_at" timestamptz null, constraint "checklist_items_pkey" primary key ("id"));`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_day_id_key_unique" unique ("day_id", "key");`);

    this.addSql(`alter table "task_categories" add constraint "task_categories_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "perimeter_tasks" add constraint "perimeter_tasks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "login_sessions" add constraint "login_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "user_settings" add constraint "user_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "weeks" add constraint "weeks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "days" add constraint "days_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "days" add constraint "days_week_id_foreign" foreign key ("week_id") references "weeks" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tasks" add constraint "tasks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_category_id_foreign" foreign key ("category_id") references "task_categories" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_perimeter_task_id_foreign" foreign key ("perimeter_task_id") references "perimeter_tasks" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "checklist_items" add constraint "checklist_items_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "task_categories" drop constraint "task_categories_user_id_foreign";`);

    this.addSql(`alter table "perimeter_tasks" drop constraint "perimeter_tasks_user_id_foreign";`);

    this.addSql(`alter table "login_sessions" drop constraint "login_sessions_user_id_foreign";`);

    this.addSql(`alter table "auth_tokens" drop constraint "auth_tokens_user_id_foreign";`);

    this.addSql(`alter table "user_settings" drop constraint "user_settings_user_id_foreign";`);

    this.addSql(`alter table "weeks" drop constraint "weeks_user_id_foreign";`);

    this.addSql(`alter table "days" drop constraint "days_user_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_user_id_foreign";`);

    this.addSql(`alter table "checklist_items" drop constraint "checklist_items_user_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_category_id_foreign";`);

    this.addSql(`alter table "day_perimeter_tasks" drop constraint "day_perimeter_tasks_perimeter_task_id_foreign";`);

    this.addSql(`alter table "days" drop constraint "days_week_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_day_id_foreign";`);

    this.addSql(`alter table "day_perimeter_tasks" drop constraint "day_perimeter_tasks_day_id_foreign";`);

    this.addSql(`alter table "checklist_items" drop constraint "checklist_items_day_id_foreign";`);

    this.addSql(`drop table if exists "event_outbox" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "task_categories" cascade;`);

    this.addSql(`drop table if exists "perimeter_tasks" cascade;`);

    this.addSql(`drop table if exists "login_sessions" cascade;`);

    this.addSql(`drop table if exists "auth_tokens" cascade;`);

    this.addSql(`drop table if exists "user_settings" cascade;`);

    this.addSql(`drop table if exists "weeks" cascade;`);

    this.addSql(`drop table if exists "days" cascade;`);

    this.addSql(`drop table if exists "tasks" cascade;`);

    this.addSql(`drop table if exists "day_perimeter_tasks" cascade;`);

    this.addSql(`drop table if exists "checklist_items" cascade;`);
  }

}
