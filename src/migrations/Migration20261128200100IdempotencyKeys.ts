import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys (issue 38 item 5, docs/idempotency.md): one row per person and key, claimed by the
 * first request (the primary key makes a concurrent second claim wait, then see the first), holding its
 * answer for 24 h. The created_at index serves the chunked purge.
 */
export class Migration20261128200100IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("user_id" uuid not null, "key" varchar(300) not null, "fingerprint" varchar(64) not null, "status" smallint null, "headers" jsonb null, "body" text null, "created_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("user_id", "key"));`);
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
