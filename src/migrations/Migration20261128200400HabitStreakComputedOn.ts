import { Migration } from '@mikro-orm/migrations';

/**
 * The person's date on which a habit's stored streak was last computed: a write that changes no day's
 * done-ness on that same date keeps it without walking the history again, and the periodic streak sweep
 * finds the running streaks a passing day may have broken (the partial index).
 */
export class Migration20261128200400HabitStreakComputedOn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "habits" add column "streak_computed_on" date null;`);
    this.addSql(`create index "habits_running_streak_index" on "habits" ("streak_computed_on") where "current_streak" > 0 and "archived_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "habits_running_streak_index";`);
    this.addSql(`alter table "habits" drop column "streak_computed_on";`);
  }
}
