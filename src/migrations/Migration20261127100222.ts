import { Migration } from '@mikro-orm/migrations';

export class Migration20261127100222 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "reminders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "kind" text check ("kind" in ('task_start', 'task_at_time', 'deadline', 'happening', 'birthday', 'bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review')) not null, "target_id" uuid null, "channel" text check ("channel" in ('web_push', 'email', 'push_url')) not null, "offset_minutes" int not null default 0, "local_time" varchar(5) null, "active" boolean not null default true, "next_due_at" timestamptz null, "next_occurrence_key" varchar(100) null, constraint "reminders_pkey" primary key ("id"));`);
    this.addSql(`create index "reminders_due_index" on "reminders" ("next_due_at") where "active" and "next_due_at" is not null;`);
    this.addSql(`create index "reminders_user_id_created_at_index" on "reminders" ("user_id", "created_at");`);

    this.addSql(`create table "reminder_deliveries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "reminder_id" uuid not null, "occurrence_key" varchar(100) not null, "due_at" timestamptz not null, "channel" text check ("channel" in ('web_push', 'email', 'push_url')) not null, "status" text check ("status" in ('pending', 'sent', 'skipped', 'failed')) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "held_until" timestamptz null, "sent_at" timestamptz null, "failed_at" timestamptz null, "error" text null, constraint "reminder_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create index "reminder_deliveries_pending_index" on "reminder_deliveries" ("next_attempt_at") where "status" = 'pending';`);
    this.addSql(`create index "reminder_deliveries_reminder_id_due_at_index" on "reminder_deliveries" ("reminder_id", "due_at");`);
    this.addSql(`alter table "reminder_deliveries" add constraint "reminder_deliveries_reminder_id_occurrence_key_unique" unique ("reminder_id", "occurrence_key");`);

    this.addSql(`create table "push_subscriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "endpoint" text not null, "p256dh" varchar(100) not null, "auth" varchar(50) not null, "expires_at" timestamptz null, constraint "push_subscriptions_pkey" primary key ("id"));`);
    this.addSql(`alter table "push_subscriptions" add constraint "push_subscriptions_user_id_endpoint_unique" unique ("user_id", "endpoint");`);

    this.addSql(`create table "notification_settings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "push_url" text null, "quiet_hours_start" varchar(5) null, "quiet_hours_end" varchar(5) null, constraint "notification_settings_pkey" primary key ("id"));`);
    this.addSql(`alter table "notification_settings" add constraint "notification_settings_user_id_unique" unique ("user_id");`);

    this.addSql(`alter table "reminders" add constraint "reminders_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "reminder_deliveries" add constraint "reminder_deliveries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "reminder_deliveries" add constraint "reminder_deliveries_reminder_id_foreign" foreign key ("reminder_id") references "reminders" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "push_subscriptions" add constraint "push_subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "notification_settings" add constraint "notification_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tasks" add column "recurrence_end" date null;`);
    this.addSql(`create index "tasks_series_first_index" on "tasks" ("user_id", "occurrence_date") where "recurrence" is not null;`);

    this.addSql(`alter table "finance_transactions" add column "recurrence" text null, add column "series_id" uuid null, add column "occurrence_date" date null, add column "next_date" date null;`);
    this.addSql(`create index "finance_transactions_next_date_index" on "finance_transactions" ("next_date");`);
    this.addSql(`alter table "finance_transactions" add constraint "finance_transactions_series_id_occurrence_date_unique" unique ("series_id", "occurrence_date");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "reminder_deliveries" drop constraint "reminder_deliveries_reminder_id_foreign";`);

    this.addSql(`drop table if exists "reminders" cascade;`);

    this.addSql(`drop table if exists "reminder_deliveries" cascade;`);

    this.addSql(`drop table if exists "push_subscriptions" cascade;`);

    this.addSql(`drop table if exists "notification_settings" cascade;`);

    this.addSql(`drop index "finance_transactions_next_date_index";`);
    this.addSql(`alter table "finance_transactions" drop constraint "finance_transactions_series_id_occurrence_date_unique";`);
    this.addSql(`alter table "finance_transactions" drop column "recurrence", drop column "series_id", drop column "occurrence_date", drop column "next_date";`);

    this.addSql(`drop index "tasks_series_first_index";`);
    this.addSql(`alter table "tasks" drop column "recurrence_end";`);
  }

}
