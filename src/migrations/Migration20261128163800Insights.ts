import { Migration } from '@mikro-orm/migrations';

/** Insights (issue 37): the person-days the nightly job builds, its bookkeeping per person, and the findings. */
export class Migration20261128163800Insights extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "insight_runs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "run_date" date null, "aggregated_through" date null, "tests_run" int not null default 0, "insights_found" int not null default 0, constraint "insight_runs_pkey" primary key ("id"));`);
    this.addSql(`alter table "insight_runs" add constraint "insight_runs_user_id_unique" unique ("user_id");`);
    this.addSql(`create index "insight_runs_run_date_index" on "insight_runs" ("run_date");`);

    this.addSql(`create table "insight_days" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "date" date not null, "sleep_hours" double precision null, "bedtime_minutes" int null, "mood" double precision null, "energy" double precision null, "steps" int null, "water_ml" double precision null, "training_sessions" int not null default 0, "training_load" double precision not null default 0, "reading_minutes" int not null default 0, "habits_done" int null, "social_happenings" int not null default 0, "spending" numeric(15,2) not null default '0', "spending_by_category" jsonb not null, "tasks_done" int not null default 0, "tasks_deferred" int not null default 0, constraint "insight_days_pkey" primary key ("id"));`);
    this.addSql(`alter table "insight_days" add constraint "insight_days_user_id_date_unique" unique ("user_id", "date");`);

    this.addSql(`create table "insights" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "sentence" text not null, "condition" text check ("condition" in ('sleepHours', 'bedtime', 'steps', 'water', 'trainingSessions', 'trainingLoad', 'readingMinutes', 'habitsDone', 'socialHappenings', 'spending', 'tasksDone', 'tasksDeferred', 'mood', 'energy')) not null, "outcome" text check ("outcome" in ('sleepHours', 'bedtime', 'steps', 'water', 'trainingSessions', 'trainingLoad', 'readingMinutes', 'habitsDone', 'socialHappenings', 'spending', 'tasksDone', 'tasksDeferred', 'mood', 'energy')) not null, "lag" smallint not null, "rho" double precision not null, "n" int not null, "p" double precision not null, "q" double precision not null, "threshold" double precision not null, "effect" double precision not null, "mean_with" double precision not null, "mean_without" double precision not null, "condition_days" int not null, "days" text[] not null, "computed_at" timestamptz not null, constraint "insights_pkey" primary key ("id"));`);
    this.addSql(`create index "insights_user_id_q_index" on "insights" ("user_id", "q");`);

    this.addSql(`alter table "insight_runs" add constraint "insight_runs_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "insight_days" add constraint "insight_days_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "insights" add constraint "insights_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "insight_runs" cascade;`);

    this.addSql(`drop table if exists "insight_days" cascade;`);

    this.addSql(`drop table if exists "insights" cascade;`);
  }

}
