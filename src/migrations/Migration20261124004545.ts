import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004545 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "oauth_clients" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "client_secret_hash" varchar(64) null, "client_secret_expires_at" timestamptz null, "client_name" varchar(200) null, "metadata" jsonb not null, constraint "oauth_clients_pkey" primary key ("id"));`);

    this.addSql(`create table "oauth_connections" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "client_id" uuid not null, "client_name" varchar(200) not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "oauth_connections_pkey" primary key ("id"));`);
    this.addSql(`create index "oauth_connections_user_id_client_id_index" on "oauth_connections" ("user_id", "client_id");`);

    this.addSql(`create table "oauth_tokens" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "token_hash" varchar(64) not null, "kind" varchar(10) not null, "connection_id" uuid not null, "client_id" uuid not null, "family_id" uuid not null, "resource" text not null, "expires_at" timestamptz not null, "rotated_at" timestamptz null, "revoked_at" timestamptz null, constraint "oauth_tokens_pkey" primary key ("id"));`);
    this.addSql(`alter table "oauth_tokens" add constraint "oauth_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "oauth_tokens_connection_id_index" on "oauth_tokens" ("connection_id");`);
    this.addSql(`create index "oauth_tokens_family_id_index" on "oauth_tokens" ("family_id");`);

    this.addSql(`create table "oauth_codes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "code_hash" varchar(64) not null, "connection_id" uuid not null, "client_id" uuid not null, "redirect_uri" text not null, "code_challenge" varchar(128) not null, "resource" text not null, "family_id" uuid not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "oauth_codes_pkey" primary key ("id"));`);
    this.addSql(`alter table "oauth_codes" add constraint "oauth_codes_code_hash_unique" unique ("code_hash");`);
    this.addSql(`create index "oauth_codes_connection_id_index" on "oauth_codes" ("connection_id");`);

    this.addSql(`alter table "oauth_connections" add constraint "oauth_connections_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "oauth_connections" add constraint "oauth_connections_client_id_foreign" foreign key ("client_id") references "oauth_clients" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "oauth_tokens" add constraint "oauth_tokens_connection_id_foreign" foreign key ("connection_id") references "oauth_connections" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "oauth_codes" add constraint "oauth_codes_connection_id_foreign" foreign key ("connection_id") references "oauth_connections" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "oauth_connections" drop constraint "oauth_connections_client_id_foreign";`);

    this.addSql(`alter table "oauth_tokens" drop constraint "oauth_tokens_connection_id_foreign";`);

    this.addSql(`alter table "oauth_codes" drop constraint "oauth_codes_connection_id_foreign";`);

    this.addSql(`drop table if exists "oauth_clients" cascade;`);

    this.addSql(`drop table if exists "oauth_connections" cascade;`);

    this.addSql(`drop table if exists "oauth_tokens" cascade;`);

    this.addSql(`drop table if exists "oauth_codes" cascade;`);
  }

}
