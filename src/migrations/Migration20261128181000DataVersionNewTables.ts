import { Migration } from '@mikro-orm/migrations';

/**
 * The habits' and insights' tables were made after the answer cache's migration: they get the per-person
 * data-version trigger the same way (`lp_attach_data_version_triggers()` is idempotent and covers every
 * table that holds a person's rows; src/graphql/answer-cache.test.ts checks none is missed).
 */
export class Migration20261128181000DataVersionNewTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    // The triggers go with their tables' own down migrations.
  }
}
