import { Migration } from '@mikro-orm/migrations';

export class Migration20261128102950 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "finance_transactions" add column "recurrence_end" date null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "finance_transactions" drop column "recurrence_end";`);
  }

}
