import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004218 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "brain_tag" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "name_key" varchar(100) not null, "color" varchar(7) null, constraint "brain_tag_pkey" primary key ("id"));`);
    this.addSql(`alter table "brain_tag" add constraint "brain_tag_user_id_name_key_unique" unique ("user_id", "name_key");`);

    this.addSql(`create table "brain_folder" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "parent_id" uuid null, constraint "brain_folder_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_folder_parent_id_index" on "brain_folder" ("parent_id");`);
    this.addSql(`create index "brain_folder_user_id_parent_id_index" on "brain_folder" ("user_id", "parent_id");`);

    this.addSql(`create table "brain_note" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(300) not null, "content" text not null default '', "folder_id" uuid null, "tag_ids" uuid[] not null, "search_vector" tsvector generated always as (setweight(to_tsvector('simple'::regconfig, (title)::text), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, content), 'B'::"char")) stored null, constraint "brain_note_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_note_folder_id_index" on "brain_note" ("folder_id");`);
    this.addSql(`create index "brain_note_search_vector_index" on "brain_note" using gin ("search_vector");`);
    this.addSql(`create index "brain_note_tag_ids_index" on "brain_note" using gin ("tag_ids");`);
    this.addSql(`create index "brain_note_user_id_updated_at_index" on "brain_note" ("user_id", "updated_at");`);

    this.addSql(`create table "brain_canvas" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "cards" jsonb not null, constraint "brain_canvas_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_canvas_user_id_created_at_index" on "brain_canvas" ("user_id", "created_at");`);

    this.addSql(`alter table "brain_tag" add constraint "brain_tag_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "brain_folder" add constraint "brain_folder_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "brain_folder" add constraint "brain_folder_parent_id_foreign" foreign key ("parent_id") references "brain_folder" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "brain_note" add constraint "brain_note_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "brain_note" add constraint "brain_note_folder_id_foreign" foreign key ("folder_id") references "brain_folder" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "brain_canvas" add constraint "brain_canvas_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "brain_folder" drop constraint "brain_folder_parent_id_foreign";`);

    this.addSql(`alter table "brain_note" drop constraint "brain_note_folder_id_foreign";`);

    this.addSql(`drop table if exists "brain_tag" cascade;`);

    this.addSql(`drop table if exists "brain_folder" cascade;`);

    this.addSql(`drop table if exists "brain_note" cascade;`);

    this.addSql(`drop table if exists "brain_canvas" cascade;`);
  }

}
