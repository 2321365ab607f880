import { Migration } from '@mikro-orm/migrations';

export class Migration20261123230259 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "people" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "relationship_type" varchar(50) null, "picture_file_id" uuid null, "notes" text null, constraint "people_pkey" primary key ("id"));`);
    this.addSql(`create index "people_picture_file_id_index" on "people" ("picture_file_id");`);
    this.addSql(`create index "people_user_id_name_index" on "people" ("user_id", "name");`);

    this.addSql(`create table "social_happenings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "title" varchar(300) not null, "start_time" timestamptz not null, "end_time" timestamptz not null, "location" varchar(300) null, "guest_ids" jsonb not null, "item_ids" jsonb not null, constraint "social_happenings_pkey" primary key ("id"));`);
    this.addSql(`create index "social_happenings_day_id_index" on "social_happenings" ("day_id");`);
    this.addSql(`create index "social_happenings_user_id_start_time_index" on "social_happenings" ("user_id", "start_time");`);

    this.addSql(`alter table "people" add constraint "people_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "people" add constraint "people_picture_file_id_foreign" foreign key ("picture_file_id") references "files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "social_happenings" add constraint "social_happenings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "social_happenings" add constraint "social_happenings_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "people" cascade;`);

    this.addSql(`drop table if exists "social_happenings" cascade;`);
  }

}
