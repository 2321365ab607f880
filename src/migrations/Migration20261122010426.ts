import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010426 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "event_outbox" ("id" uuid not null, "user_id" uuid not null, "event" varchar(64) not null, "data" jsonb not null, "occurred_at" timestamptz not null, "dispatched_at" timestamptz null, constraint "event_outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "event_outbox_user_id_index" on "event_outbox" ("user_id");`);
    this.addSql(`create index "event_outbox_dispatched_at_occurred_at_index" on "event_outbox" ("dispatched_at", "occurred_at");`);

    this.addSql(`create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" varchar(320) not null, "password_hash" text not null, "email_verified_at" timestamptz null, "plan" text check ("plan" in ('free', 'pro')) not null default 'free', "plan_expires_at" timestamptz null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "task_categories" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "color" varchar(7) null, constraint "task_categories_pkey" primary key ("id"));`);

    this.addSql(`create table "files" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "file_name" text not null, "file_type" text check ("file_type" in ('image', 'document')) not null, "mime_type" varchar(100) not null, "size" int not null, "storage_key" varchar(200) not null, "storage_adapter" varchar(10) not null, "is_image" boolean not null, "metadata" jsonb null, constraint "files_pkey" primary key ("id"));`);
    this.addSql(`create index "files_user_id_created_at_index" on "files" ("user_id", "created_at");`);

    this.addSql(`create table "perimeter_tasks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(500) not null, "person_id" uuid null, constraint "perimeter_tasks_pkey" primary key ("id"));`);

    this.addSql(`create table "login_sessions" ("id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "login_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "login_sessions_user_id_index" on "login_sessions" ("user_id");`);

    this.addSql(`create table "image_variants" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "file_id" uuid not null, "variant" text check ("variant" in ('thumbnail', 'small', 'medium', 'large', 'original')) not null, "status" text check ("status" in ('ready', 'failed')) not null, "width" int null, "height" int null, "size" int not null, "storage_key" varchar(200) not null, "error" text null, constraint "image_variants_pkey" primary key ("id"));`);
    this.addSql(`alter table "image_variants" add constraint "image_variants_file_id_variant_unique" unique ("file_id", "variant");`);

    this.addSql(`create table "exercises" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid null, "name" varchar(200) not null, "category" varchar(100) not null, "muscle_groups" text[] not null, "is_global" boolean not null default false, constraint "exercises_pkey" primary key ("id"));`);
    this.addSql(`create index "exercises_user_id_index" on "exercises" ("user_id");`);
    this.addSql(`create index "exercises_is_global_name_index" on "exercises" ("is_global", "name");`);

    this.addSql(`create table "auth_tokens" ("id" uuid not null, "user_id" uuid not null, "kind" text check ("kind" in ('password_reset', 'email_verification')) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "auth_tokens_pkey" primary key ("id"));`);
    this.addSql(`create index "auth_tokens_token_hash_index" on "auth_tokens" ("token_hash");`);

    this.addSql(`create table "api_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "key_prefix" varchar(16) not null, "key_hash" varchar(64) not null, "last_used_at" timestamptz null, "expires_at" timestamptz null, "revoked" boolean not null default false, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "user_settings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "weekly_split_labels" jsonb not null, "wake_time" varchar(5) not null default '07:00', "in_bed_time" varchar(5) not null default '22:30', "lights_out_time" varchar(5) not null default '23:00', "stress_week_wake_time" varchar(5) not null default '07:00', "stress_week_in_bed_time" varchar(5) not null default '22:00', "stress_week_lights_out_time" varchar(5) not null default '22:30', "timezone" varchar(64) not null default 'UTC', constraint "user_settings_pkey" primary key ("id"));`);
    this.addSql(`alter table "user_settings" add constraint "user_settings_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "url" text not null, "events" text[] not null, "secret_encrypted" text not null, "secret_prefix" varchar(32) not null, "active" boolean not null default true, constraint "webhook_endpoints_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_user_id_created_at_index" on "webhook_endpoints" ("user_id", "created_at");`);

    this.addSql(`create table "webhook_deliveries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "webhook_id" uuid not null, "delivery_id" uuid not null, "event" varchar(64) not null, "payload" text not null, "status" text check ("status" in ('pending', 'success', 'failed')) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "response_status_code" int null, "response_body" text null, "last_error" text null, "last_attempt_at" timestamptz null, "completed_at" timestamptz null, constraint "webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_delivery_id_unique" unique ("delivery_id");`);
    this.addSql(`create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`);
    this.addSql(`create index "webhook_deliveries_webhook_id_created_at_index" on "webhook_deliveries" ("webhook_id", "created_at");`);

    this.addSql(`create table "webhook_attempts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "webhook_delivery_id" uuid not null, "attempt" int not null, "response_status_code" int null, "response_body" text null, "error" text null, "duration_ms" int not null, constraint "webhook_attempts_pkey" primary key ("id"));`);
    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_webhook_delivery_id_attempt_unique" unique ("webhook_delivery_id", "attempt");`);

    this.addSql(`create table "weeks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "start_date" date not null, "end_date" date not null, "is_stress_week" boolean not null default false, constraint "weeks_pkey" primary key ("id"));`);
    this.addSql(`alter table "weeks" add constraint "weeks_user_id_start_date_unique" unique ("user_id", "start_date");`);

    this.addSql(`create table "days" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "week_id" uuid not null, "date" date not null, "notes" text null, "minimum_mode" boolean not null default false, "mood" smallint null, "energy" smallint null, "sleep_hours" double precision null, "completed_at" timestamptz null, constraint "days_pkey" primary key ("id"));`);
    this.addSql(`create index "days_week_id_index" on "days" ("week_id");`);
    this.addSql(`alter table "days" add constraint "days_user_id_date_unique" unique ("user_id", "date");`);

    this.addSql(`create table "water_intakes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "volume" double precision not null, "time" timestamptz not null, "notes" text null, constraint "water_intakes_pkey" primary key ("id"));`);
    this.addSql(`create index "water_intakes_day_id_index" on "water_intakes" ("day_id");`);

    this.addSql(`create table "training_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "split" varchar(100) not null, "start_time" timestamptz not null, "end_time" timestamptz null, "session_rpe" smallint null, "notes" text null, constraint "training_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "training_sessions_day_id_index" on "training_sessions" ("day_id");`);
    this.addSql(`create index "training_sessions_user_id_start_time_index" on "training_sessions" ("user_id", "start_time");`);

    this.addSql(`create table "training_exercises" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "session_id" uuid not null, "exercise_id" uuid null, "exercise_name" varchar(200) not null, "position" smallint not null, constraint "training_exercises_pkey" primary key ("id"));`);
    this.addSql(`create index "training_exercises_session_id_index" on "training_exercises" ("session_id");`);
    this.addSql(`create index "training_exercises_exercise_id_index" on "training_exercises" ("exercise_id");`);

    this.addSql(`create table "training_sets" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "training_exercise_id" uuid not null, "set_number" smallint not null, "reps" int null, "load" double precision null, "rir" smallint null, "rest_time" int null, constraint "training_sets_pkey" primary key ("id"));`);
    this.addSql(`create index "training_sets_training_exercise_id_index" on "training_sets" ("training_exercise_id");`);

    this.addSql(`create table "tasks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(500) not null, "description" text null, "timebox" int not null, "status" text check ("status" in ('todo', 'doing', 'done', 'deferred')) not null default 'todo', "next_step" text null, "category_id" uuid null, "day_id" uuid null, "completed_at" timestamptz null, "deferred_at" timestamptz null, constraint "tasks_pkey" primary key ("id"));`);
    this.addSql(`create index "tasks_category_id_index" on "tasks" ("category_id");`);
    this.addSql(`create index "tasks_day_id_index" on "tasks" ("day_id");`);
    this.addSql(`create index "tasks_user_id_status_index" on "tasks" ("user_id", "status");`);

    this.addSql(`create table "steps_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "steps" int not null, "time" timestamptz not null, "notes" text null, constraint "steps_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "steps_entries_day_id_index" on "steps_entries" ("day_id");`);

    this.addSql(`create table "sleep_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "duration" double precision not null, "bedtime" timestamptz null, "wake_time" timestamptz null, "quality" smallint null, "notes" text null, constraint "sleep_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "sleep_entries_day_id_index" on "sleep_entries" ("day_id");`);

    this.addSql(`create table "progress_photos" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "file_id" uuid not null, "pose" text check ("pose" in ('front', 'side', 'back', 'other')) not null, "notes" text null, constraint "progress_photos_pkey" primary key ("id"));`);
    this.addSql(`create index "progress_photos_day_id_index" on "progress_photos" ("day_id");`);
    this.addSql(`create index "progress_photos_file_id_index" on "progress_photos" ("file_id");`);

    this.addSql(`create table "mood_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "mood" smallint not null, "energy" smallint not null, "time" timestamptz not null, "notes" text null, constraint "mood_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "mood_entries_day_id_index" on "mood_entries" ("day_id");`);

    this.addSql(`create table "mobility_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "focus" varchar(200) not null, "duration" int not null, "intensity" smallint not null, constraint "mobility_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "mobility_sessions_day_id_index" on "mobility_sessions" ("day_id");`);

    this.addSql(`create table "meditation_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "duration" int not null, "type" varchar(100) null, "time" timestamptz not null, "notes" text null, constraint "meditation_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "meditation_sessions_day_id_index" on "meditation_sessions" ("day_id");`);

    this.addSql(`create table "day_perimeter_tasks" ("id" uuid not null, "day_id" uuid not null, "perimeter_task_id" uuid not null, "position" smallint not null, constraint "day_perimeter_tasks_pkey" primary key ("id"));`);
    this.addSql(`create index "day_perimeter_tasks_day_id_index" on "day_perimeter_tasks" ("day_id");`);
    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_day_id_perimeter_task_id_unique" unique ("day_id", "perimeter_task_id");`);

    this.addSql(`create table "checklist_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "key" text check ("key" in ('MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING', 'MEDITATION', 'JOURNAL', 'PERIMETER', 'WEIGHT_LOG')) not null, "completed" boolean not null default false, "value" jsonb null, "completed_at" timestamptz null, constraint "checklist_items_pkey" primary key ("id"));`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_day_id_key_unique" unique ("day_id", "key");`);

    this.addSql(`create table "cardio_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "type" varchar(100) not null, "duration" int not null, "distance" double precision null, "intensity" smallint null, "effort" text check ("effort" in ('easy', 'zone2', 'hard')) null, "pace" double precision null, "average_heart_rate" smallint null, "max_heart_rate" smallint null, "calories" int null, "elevation_gain" int null, "start_time" timestamptz not null, "end_time" timestamptz null, "notes" text null, constraint "cardio_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "cardio_sessions_day_id_index" on "cardio_sessions" ("day_id");`);

    this.addSql(`create table "body_measurements" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "weight" double precision null, "body_fat" double precision null, "waist" double precision null, "hip" double precision null, "notes" text null, "measured_at" timestamptz not null, constraint "body_measurements_pkey" primary key ("id"));`);
    this.addSql(`create index "body_measurements_day_id_index" on "body_measurements" ("day_id");`);
    this.addSql(`create index "body_measurements_measured_at_index" on "body_measurements" ("measured_at");`);

    this.addSql(`alter table "task_categories" add constraint "task_categories_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "files" add constraint "files_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "perimeter_tasks" add constraint "perimeter_tasks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "login_sessions" add constraint "login_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "image_variants" add constraint "image_variants_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "image_variants" add constraint "image_variants_file_id_foreign" foreign key ("file_id") references "files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "exercises" add constraint "exercises_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "user_settings" add constraint "user_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_webhook_delivery_id_foreign" foreign key ("webhook_delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "weeks" add constraint "weeks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "days" add constraint "days_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "days" add constraint "days_week_id_foreign" foreign key ("week_id") references "weeks" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "water_intakes" add constraint "water_intakes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "water_intakes" add constraint "water_intakes_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "training_sessions" add constraint "training_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "training_sessions" add constraint "training_sessions_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "training_exercises" add constraint "training_exercises_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "training_exercises" add constraint "training_exercises_session_id_foreign" foreign key ("session_id") references "training_sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "training_exercises" add constraint "training_exercises_exercise_id_foreign" foreign key ("exercise_id") references "exercises" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "training_sets" add constraint "training_sets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "training_sets" add constraint "training_sets_training_exercise_id_foreign" foreign key ("training_exercise_id") references "training_exercises" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tasks" add constraint "tasks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tasks" add constraint "tasks_category_id_foreign" foreign key ("category_id") references "task_categories" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "tasks" add constraint "tasks_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "steps_entries" add constraint "steps_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "steps_entries" add constraint "steps_entries_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "sleep_entries" add constraint "sleep_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sleep_entries" add constraint "sleep_entries_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "progress_photos" add constraint "progress_photos_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "progress_photos" add constraint "progress_photos_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "progress_photos" add constraint "progress_photos_file_id_foreign" foreign key ("file_id") references "files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "mood_entries" add constraint "mood_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "mood_entries" add constraint "mood_entries_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "mobility_sessions" add constraint "mobility_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "mobility_sessions" add constraint "mobility_sessions_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "meditation_sessions" add constraint "meditation_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "meditation_sessions" add constraint "meditation_sessions_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "day_perimeter_tasks" add constraint "day_perimeter_tasks_perimeter_task_id_foreign" foreign key ("perimeter_task_id") references "perimeter_tasks" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "checklist_items" add constraint "checklist_items_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "checklist_items" add constraint "checklist_items_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "cardio_sessions" add constraint "cardio_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "cardio_sessions" add constraint "cardio_sessions_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "body_measurements" add constraint "body_measurements_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "body_measurements" add constraint "body_measurements_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "task_categories" drop constraint "task_categories_user_id_foreign";`);

    this.addSql(`alter table "files" drop constraint "files_user_id_foreign";`);

    this.addSql(`alter table "perimeter_tasks" drop constraint "perimeter_tasks_user_id_foreign";`);

    this.addSql(`alter table "login_sessions" drop constraint "login_sessions_user_id_foreign";`);

    this.addSql(`alter table "image_variants" drop constraint "image_variants_user_id_foreign";`);

    this.addSql(`alter table "exercises" drop constraint "exercises_user_id_foreign";`);

    this.addSql(`alter table "auth_tokens" drop constraint "auth_tokens_user_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_user_id_foreign";`);

    this.addSql(`alter table "user_settings" drop constraint "user_settings_user_id_foreign";`);

    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_user_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_user_id_foreign";`);

    this.addSql(`alter table "webhook_attempts" drop constraint "webhook_attempts_user_id_foreign";`);

    this.addSql(`alter table "weeks" drop constraint "weeks_user_id_foreign";`);

    this.addSql(`alter table "days" drop constraint "days_user_id_foreign";`);

    this.addSql(`alter table "water_intakes" drop constraint "water_intakes_user_id_foreign";`);

    this.addSql(`alter table "training_sessions" drop constraint "training_sessions_user_id_foreign";`);

    this.addSql(`alter table "training_exercises" drop constraint "training_exercises_user_id_foreign";`);

    this.addSql(`alter table "training_sets" drop constraint "training_sets_user_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_user_id_foreign";`);

    this.addSql(`alter table "steps_entries" drop constraint "steps_entries_user_id_foreign";`);

    this.addSql(`alter table "sleep_entries" drop constraint "sleep_entries_user_id_foreign";`);

    this.addSql(`alter table "progress_photos" drop constraint "progress_photos_user_id_foreign";`);

    this.addSql(`alter table "mood_entries" drop constraint "mood_entries_user_id_foreign";`);

    this.addSql(`alter table "mobility_sessions" drop constraint "mobility_sessions_user_id_foreign";`);

    this.addSql(`alter table "meditation_sessions" drop constraint "meditation_sessions_user_id_foreign";`);

    this.addSql(`alter table "checklist_items" drop constraint "checklist_items_user_id_foreign";`);

    this.addSql(`alter table "cardio_sessions" drop constraint "cardio_sessions_user_id_foreign";`);

    this.addSql(`alter table "body_measurements" drop constraint "body_measurements_user_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_category_id_foreign";`);

    this.addSql(`alter table "image_variants" drop constraint "image_variants_file_id_foreign";`);

    this.addSql(`alter table "progress_photos" drop constraint "progress_photos_file_id_foreign";`);

    this.addSql(`alter table "day_perimeter_tasks" drop constraint "day_perimeter_tasks_perimeter_task_id_foreign";`);

    this.addSql(`alter table "training_exercises" drop constraint "training_exercises_exercise_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`alter table "webhook_attempts" drop constraint "webhook_attempts_webhook_delivery_id_foreign";`);

    this.addSql(`alter table "days" drop constraint "days_week_id_foreign";`);

    this.addSql(`alter table "water_intakes" drop constraint "water_intakes_day_id_foreign";`);

    this.addSql(`alter table "training_sessions" drop constraint "training_sessions_day_id_foreign";`);

    this.addSql(`alter table "tasks" drop constraint "tasks_day_id_foreign";`);

    this.addSql(`alter table "steps_entries" drop constraint "steps_entries_day_id_foreign";`);

    this.addSql(`alter table "sleep_entries" drop constraint "sleep_entries_day_id_foreign";`);

    this.addSql(`alter table "progress_photos" drop constraint "progress_photos_day_id_foreign";`);

    this.addSql(`alter table "mood_entries" drop constraint "mood_entries_day_id_foreign";`);

    this.addSql(`alter table "mobility_sessions" drop constraint "mobility_sessions_day_id_foreign";`);

    this.addSql(`alter table "meditation_sessions" drop constraint "meditation_sessions_day_id_foreign";`);

    this.addSql(`alter table "day_perimeter_tasks" drop constraint "day_perimeter_tasks_day_id_foreign";`);

    this.addSql(`alter table "checklist_items" drop constraint "checklist_items_day_id_foreign";`);

    this.addSql(`alter table "cardio_sessions" drop constraint "cardio_sessions_day_id_foreign";`);

    this.addSql(`alter table "body_measurements" drop constraint "body_measurements_day_id_foreign";`);

    this.addSql(`alter table "training_exercises" drop constraint "training_exercises_session_id_foreign";`);

    this.addSql(`alter table "training_sets" drop constraint "training_sets_training_exercise_id_foreign";`);

    this.addSql(`drop table if exists "event_outbox" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "task_categories" cascade;`);

    this.addSql(`drop table if exists "files" cascade;`);

    this.addSql(`drop table if exists "perimeter_tasks" cascade;`);

    this.addSql(`drop table if exists "login_sessions" cascade;`);

    this.addSql(`drop table if exists "image_variants" cascade;`);

    this.addSql(`drop table if exists "exercises" cascade;`);

    this.addSql(`drop table if exists "auth_tokens" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "user_settings" cascade;`);

    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "webhook_attempts" cascade;`);

    this.addSql(`drop table if exists "weeks" cascade;`);

    this.addSql(`drop table if exists "days" cascade;`);

    this.addSql(`drop table if exists "water_intakes" cascade;`);

    this.addSql(`drop table if exists "training_sessions" cascade;`);

    this.addSql(`drop table if exists "training_exercises" cascade;`);

    this.addSql(`drop table if exists "training_sets" cascade;`);

    this.addSql(`drop table if exists "tasks" cascade;`);

    this.addSql(`drop table if exists "steps_entries" cascade;`);

    this.addSql(`drop table if exists "sleep_entries" cascade;`);

    this.addSql(`drop table if exists "progress_photos" cascade;`);

    this.addSql(`drop table if exists "mood_entries" cascade;`);

    this.addSql(`drop table if exists "mobility_sessions" cascade;`);

    this.addSql(`drop table if exists "meditation_sessions" cascade;`);

    this.addSql(`drop table if exists "day_perimeter_tasks" cascade;`);

    this.addSql(`drop table if exists "checklist_items" cascade;`);

    this.addSql(`drop table if exists "cardio_sessions" cascade;`);

    this.addSql(`drop table if exists "body_measurements" cascade;`);
  }

}
