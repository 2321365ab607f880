import { Migration } from '@mikro-orm/migrations';

export class Migration20261124164907 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "account_imports" add column "refused_total" int not null default 0, add column "rows_total" int not null default 0, add column "rows_done" int not null default 0, add column "started_at" timestamptz null, add column "heartbeat_at" timestamptz null;`);
    this.addSql(`alter table "account_imports" alter column "content" type bytea using convert_to("content", 'UTF8');`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account_imports" drop column "refused_total", drop column "rows_total", drop column "rows_done", drop column "started_at", drop column "heartbeat_at";`);

    this.addSql(`alter table "account_imports" alter column "content" type text using convert_from("content", 'UTF8');`);
  }

}
