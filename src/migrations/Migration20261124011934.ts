import { Migration } from '@mikro-orm/migrations';

export class Migration20261124011934 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "brain_database" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "properties" jsonb not null, "search_vector" tsvector generated always as (setweight(to_tsvector('simple'::regconfig, (COALESCE(name, ''::character varying))::text), 'A'::"char") || setweight(jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(properties, '\$[*]."name"'::jsonpath), '["string"]'::jsonb), 'B'::"char")) stored null, constraint "brain_database_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_database_search_vector_index" on "brain_database" using gin ("search_vector");`);
    this.addSql(`create index "brain_database_user_id_created_at_index" on "brain_database" ("user_id", "created_at");`);

    this.addSql(`create table "brain_record" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "database_id" uuid not null, "values" jsonb not null, "form_id" uuid null, "respondent_key" varchar(200) null, "respondent_user_id" uuid null, "respondent_ip_hash" varchar(100) null, "search_vector" tsvector generated always as (setweight(jsonb_to_tsvector('simple'::regconfig, ("values" - '{__respondentKey,__respondentUserId,__respondentIpHash,__respondentSignals,__respondentAt}'::text[]), '["string", "numeric"]'::jsonb), 'B'::"char")) stored null, constraint "brain_record_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_record_search_vector_index" on "brain_record" using gin ("search_vector");`);
    this.addSql(`create index "brain_record_user_id_index" on "brain_record" ("user_id");`);
    this.addSql(`create index "brain_record_database_id_created_at_index" on "brain_record" ("database_id", "created_at");`);
    this.addSql(`alter table "brain_record" add constraint "brain_record_form_id_respondent_user_id_unique" unique ("form_id", "respondent_user_id");`);
    this.addSql(`alter table "brain_record" add constraint "brain_record_form_id_respondent_key_unique" unique ("form_id", "respondent_key");`);

    this.addSql(`create table "brain_form" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "database_id" uuid not null, "config" jsonb not null, "access_password_hash" text null, "sync_fields" boolean not null default false, "published" boolean not null default false, "public_slug" varchar(32) null, "search_vector" tsvector generated always as ((setweight(to_tsvector('simple'::regconfig, (COALESCE(name, ''::character varying))::text), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, COALESCE((config ->> 'description'::text), ''::text)), 'B'::"char")) || setweight(jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(config, '\$."fields"[*]."label"'::jsonpath), '["string"]'::jsonb), 'B'::"char")) stored null, constraint "brain_form_pkey" primary key ("id"));`);
    this.addSql(`create index "brain_form_database_id_index" on "brain_form" ("database_id");`);
    this.addSql(`alter table "brain_form" add constraint "brain_form_public_slug_unique" unique ("public_slug");`);
    this.addSql(`create index "brain_form_search_vector_index" on "brain_form" using gin ("search_vector");`);
    this.addSql(`create index "brain_form_user_id_created_at_index" on "brain_form" ("user_id", "created_at");`);

    this.addSql(`alter table "brain_database" add constraint "brain_database_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "brain_record" add constraint "brain_record_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "brain_record" add constraint "brain_record_database_id_foreign" foreign key ("database_id") references "brain_database" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "brain_form" add constraint "brain_form_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "brain_form" add constraint "brain_form_database_id_foreign" foreign key ("database_id") references "brain_database" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "brain_record" drop constraint "brain_record_database_id_foreign";`);

    this.addSql(`alter table "brain_form" drop constraint "brain_form_database_id_foreign";`);

    this.addSql(`drop table if exists "brain_database" cascade;`);

    this.addSql(`drop table if exists "brain_record" cascade;`);

    this.addSql(`drop table if exists "brain_form" cascade;`);
  }

}
