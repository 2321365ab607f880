import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004531 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "storage_purges" ("id" uuid not null, "prefix" varchar(64) not null, "adapters" text[] not null, "attempts" int not null default 0, "last_error" text null, "created_at" timestamptz not null, constraint "storage_purges_pkey" primary key ("id"));`);

    this.addSql(`create table "account_imports" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "source" text check ("source" in ('strong', 'goodreads', 'transactions')) not null, "status" text check ("status" in ('pending', 'running', 'done', 'failed')) not null default 'pending', "content" text null, "options" jsonb null, "created" int not null default 0, "skipped" int not null default 0, "refused" jsonb not null, "finished_at" timestamptz null, constraint "account_imports_pkey" primary key ("id"));`);
    this.addSql(`create index "account_imports_user_id_created_at_index" on "account_imports" ("user_id", "created_at");`);

    this.addSql(`alter table "account_imports" add constraint "account_imports_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "storage_purges" cascade;`);

    this.addSql(`drop table if exists "account_imports" cascade;`);
  }

}
