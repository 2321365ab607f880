import { Migration } from '@mikro-orm/migrations';

/** The nightly insights rebuild a person's whole window once a week: the date it was last done. */
export class Migration20261128193000InsightFullRebuild extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "insight_runs" add column "full_built_on" date null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "insight_runs" drop column "full_built_on";`);
  }
}
