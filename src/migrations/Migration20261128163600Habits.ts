import { Migration } from '@mikro-orm/migrations';

/**
 * Habits (issue 37): habits, their entries and their SKIP/REST day marks, and the reminder kind `habit`. A person holds at most 100
 * habits, by the `enforce_row_cap` trigger of migration 20261124163000 (its advisory lock makes two
 * concurrent creates at 99 pass one at a time).
 */
export class Migration20261128163600Habits extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "habits" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "icon" varchar(32) null, "colour" varchar(7) null, "kind" text check ("kind" in ('CHECK', 'COUNT', 'DURATION', 'AMOUNT')) not null, "unit" varchar(20) null, "target" double precision not null, "schedule" text check ("schedule" in ('DAILY', 'WEEKDAYS', 'TIMES_PER_WEEK', 'TIMES_PER_MONTH', 'RRULE')) not null, "weekdays" jsonb not null, "times_per_period" smallint null, "recurrence" varchar(500) null, "start_date" date not null, "position" int not null default 0, "archived_at" timestamptz null, "current_streak" int not null default 0, "longest_streak" int not null default 0, constraint "habits_pkey" primary key ("id"));`);
    this.addSql(`create index "habits_user_id_position_index" on "habits" ("user_id", "position");`);

    this.addSql(`create table "habit_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "habit_id" uuid not null, "date" date not null, "value" double precision not null, "note" text null, constraint "habit_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "habit_entries_day_id_index" on "habit_entries" ("day_id");`);
    this.addSql(`create index "habit_entries_habit_id_date_index" on "habit_entries" ("habit_id", "date");`);

    this.addSql(`create table "habit_day_marks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "habit_id" uuid not null, "date" date not null, "mark" text check ("mark" in ('SKIP', 'REST')) not null, constraint "habit_day_marks_pkey" primary key ("id"));`);
    this.addSql(`create index "habit_day_marks_day_id_index" on "habit_day_marks" ("day_id");`);
    this.addSql(`alter table "habit_day_marks" add constraint "habit_day_marks_habit_id_day_id_unique" unique ("habit_id", "day_id");`);

    this.addSql(`alter table "habits" add constraint "habits_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "habit_entries" add constraint "habit_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "habit_entries" add constraint "habit_entries_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "habit_entries" add constraint "habit_entries_habit_id_foreign" foreign key ("habit_id") references "habits" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "habit_day_marks" add constraint "habit_day_marks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "habit_day_marks" add constraint "habit_day_marks_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "habit_day_marks" add constraint "habit_day_marks_habit_id_foreign" foreign key ("habit_id") references "habits" ("id") on update cascade on delete cascade;`);

    this.addSql(`create trigger "habits_cap_insert" before insert on "habits" for each row execute function enforce_row_cap('user_id', '100', 'habit_limit', 'A person can have at most 100 habits', '');`);

    // Reminders can be about a habit (reminder kind `habit`).
    this.addSql(`alter table "reminders" drop constraint if exists "reminders_kind_check";`);
    this.addSql(`alter table "reminders" add constraint "reminders_kind_check" check("kind" in ('task_start', 'task_at_time', 'deadline', 'happening', 'birthday', 'bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review', 'habit'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "reminders" where "kind" = 'habit';`);
    this.addSql(`alter table "reminders" drop constraint if exists "reminders_kind_check";`);
    this.addSql(`alter table "reminders" add constraint "reminders_kind_check" check("kind" in ('task_start', 'task_at_time', 'deadline', 'happening', 'birthday', 'bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review'));`);
    this.addSql(`drop trigger if exists "habits_cap_insert" on "habits";`);
    this.addSql(`alter table "habit_entries" drop constraint "habit_entries_habit_id_foreign";`);

    this.addSql(`alter table "habit_day_marks" drop constraint "habit_day_marks_habit_id_foreign";`);

    this.addSql(`drop table if exists "habits" cascade;`);

    this.addSql(`drop table if exists "habit_entries" cascade;`);

    this.addSql(`drop table if exists "habit_day_marks" cascade;`);
  }

}
