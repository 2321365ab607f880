import { Migration } from '@mikro-orm/migrations';

/** Undo tokens (issue 38, docs/undo.md): one row per undoable write, valid for UNDO_TTL_MS. */
export class Migration20261128210000UndoTokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "undo_tokens" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "kind" varchar(40) not null, "record_id" uuid not null, "data" jsonb not null, "expires_at" timestamptz not null, constraint "undo_tokens_pkey" primary key ("id"));`);
    this.addSql(`create index "undo_tokens_user_id_index" on "undo_tokens" ("user_id");`);
    this.addSql(`create index "undo_tokens_expires_at_index" on "undo_tokens" ("expires_at");`);
    this.addSql(`alter table "undo_tokens" add constraint "undo_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "undo_tokens" cascade;`);
  }
}
