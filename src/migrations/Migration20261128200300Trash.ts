import { Migration } from '@mikro-orm/migrations';

/**
 * The trash (issue 38, docs/trash.md): a deleted record's rows as a JSON snapshot, restorable until the
 * person's retention (user_settings.trash_retention_days, default 30) runs out.
 */
export class Migration20261128200300Trash extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "trash_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "kind" varchar(32) not null, "record_id" uuid not null, "label" varchar(300) not null, "snapshot" jsonb not null, "deleted_at" timestamptz not null, constraint "trash_items_pkey" primary key ("id"));`);
    this.addSql(`create index "trash_items_user_id_deleted_at_index" on "trash_items" ("user_id", "deleted_at");`);
    this.addSql(`create index "trash_items_deleted_at_index" on "trash_items" ("deleted_at");`);
    this.addSql(`alter table "trash_items" add constraint "trash_items_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_settings" add column "trash_retention_days" smallint not null default 30;`);
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "user_settings" drop column "trash_retention_days";`);
    this.addSql(`drop table if exists "trash_items" cascade;`);
  }
}
