import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002911 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "event_outbox" ("id" uuid not null, "user_id" uuid not null, "event" varchar(64) not null, "data" jsonb not null, "occurred_at" timestamptz not null, "dispatched_at" timestamptz null, constraint "event_outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "event_outbox_user_id_index" on "event_outbox" ("user_id");`);
    this.addSql(`create index "event_outbox_dispatched_at_occurred_at_index" on "event_outbox" ("dispatched_at", "occurred_at");`);

    this.addSql(`create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" varchar(320) not null, "password_hash" text not null, "email_verified_at" timestamptz null, "plan" text check ("plan" in ('free', 'pro')) not null default 'free', "plan_expires_at" timestamptz null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "login_sessions" ("id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "login_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "login_sessions_user_id_index" on "login_sessions" ("user_id");`);

    this.addSql(`create table "auth_tokens" ("id" uuid not null, "user_id" uuid not null, "kind" text check ("kind" in ('password_reset', 'email_verification')) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "auth_tokens_pkey" primary key ("id"));`);
    this.addSql(`create index "auth_tokens_token_hash_index" on "auth_tokens" ("token_hash");`);

    this.addSql(`alter table "login_sessions" add constraint "login_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "login_sessions" drop constraint "login_sessions_user_id_foreign";`);

    this.addSql(`alter table "auth_tokens" drop constraint "auth_tokens_user_id_foreign";`);

    this.addSql(`drop table if exists "event_outbox" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "login_sessions" cascade;`);

    this.addSql(`drop table if exists "auth_tokens" cascade;`);
  }

}
