import { Migration } from '@mikro-orm/migrations';

export class Migration20261124173513 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "account_imports" add column "exercise_names" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account_imports" drop column "exercise_names";`);
  }

}
