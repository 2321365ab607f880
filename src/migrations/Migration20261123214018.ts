import { Migration } from '@mikro-orm/migrations';

export class Migration20261123214018 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "exercise_settings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "exercise_id" uuid not null, "one_rep_max" double precision null, constraint "exercise_settings_pkey" primary key ("id"));`);
    this.addSql(`alter table "exercise_settings" add constraint "exercise_settings_user_id_exercise_id_unique" unique ("user_id", "exercise_id");`);

    this.addSql(`alter table "exercise_settings" add constraint "exercise_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "exercise_settings" add constraint "exercise_settings_exercise_id_foreign" foreign key ("exercise_id") references "exercises" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "training_sets" add column "rpe" real null, add column "tempo" varchar(20) null, add column "tut" int null, add column "rom" text check ("rom" in ('full', 'partial', 'lengthened')) null, add column "pause_duration" int null, add column "velocity" double precision null, add column "notes" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "exercise_settings" cascade;`);

    this.addSql(`alter table "training_sets" drop column "rpe", drop column "tempo", drop column "tut", drop column "rom", drop column "pause_duration", drop column "velocity", drop column "notes";`);
  }

}
