import { Migration } from '@mikro-orm/migrations';

export class Migration20261127084822 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "people" add column "birthday" date null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "people" drop column "birthday";`);
  }

}
