import { Migration } from '@mikro-orm/migrations';

/**
 * The person's date on which a habit's stored streak was last computed: a write that changes no day's
 * done-ness on that same date keeps it without walking the history again.
 */
export class Migration20261128200400HabitStreakComputedOn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "habits" add column "streak_computed_on" date null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "habits" drop column "streak_computed_on";`);
  }
}
