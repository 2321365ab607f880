import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34, item 10: the per-person send budget's count on notification_settings, and one reminder per
 * daily kind. Reminders of a daily kind held twice by one person before this rule: the oldest stays,
 * the later ones go with their deliveries (they sent the same message again at the same time of day).
 */
export class Migration20261128120000ReminderBudgetDailyKinds extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "notification_settings" add column "send_minute" timestamptz null, add column "sends_in_minute" int not null default 0;`);
    this.addSql(`delete from "reminders" r using "reminders" older
      where r."user_id" = older."user_id" and r."kind" = older."kind"
        and r."kind" in ('bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review')
        and (older."created_at", older."id") < (r."created_at", r."id");`);
    this.addSql(`create unique index "reminders_one_per_daily_kind" on "reminders" ("user_id", "kind") where "kind" in ('bedtime_in_bed', 'bedtime_lights_out', 'morning_brief', 'evening_review');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "reminders_one_per_daily_kind";`);
    this.addSql(`alter table "notification_settings" drop column "send_minute", drop column "sends_in_minute";`);
  }

}
