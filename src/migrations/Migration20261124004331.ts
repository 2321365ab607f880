import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004331 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "account_exports" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "status" text check ("status" in ('pending', 'running', 'done', 'failed')) not null default 'pending', "storage_adapter" varchar(8) null, "storage_key" varchar(200) null, "size" bigint null, "error" text null, "finished_at" timestamptz null, constraint "account_exports_pkey" primary key ("id"));`);
    this.addSql(`create index "account_exports_user_id_created_at_index" on "account_exports" ("user_id", "created_at");`);

    this.addSql(`alter table "account_exports" add constraint "account_exports_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "account_exports" cascade;`);
  }

}
