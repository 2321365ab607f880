import { Migration } from '@mikro-orm/migrations';

export class Migration20261124165925 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "agenda_feeds" add column "etag" varchar(64) null, add column "content_changed_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "agenda_feeds" drop column "etag", drop column "content_changed_at";`);
  }

}
