import { Migration } from '@mikro-orm/migrations';

export class Migration20261123213945 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "journal_questions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid null, "question" text not null, "order" int not null, "is_global" boolean not null default false, constraint "journal_questions_pkey" primary key ("id"));`);
    this.addSql(`create index "journal_questions_user_id_index" on "journal_questions" ("user_id");`);
    this.addSql(`create index "journal_questions_is_global_order_index" on "journal_questions" ("is_global", "order");`);

    this.addSql(`create table "journal_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "question_id" uuid null, "question" text not null, "answer" text not null, constraint "journal_entries_pkey" primary key ("id"));`);
    this.addSql(`create index "journal_entries_day_id_index" on "journal_entries" ("day_id");`);
    this.addSql(`create index "journal_entries_question_id_index" on "journal_entries" ("question_id");`);

    this.addSql(`alter table "journal_questions" add constraint "journal_questions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "journal_entries" add constraint "journal_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "journal_entries" add constraint "journal_entries_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "journal_entries" add constraint "journal_entries_question_id_foreign" foreign key ("question_id") references "journal_questions" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "journal_entries" drop constraint "journal_entries_question_id_foreign";`);

    this.addSql(`drop table if exists "journal_questions" cascade;`);

    this.addSql(`drop table if exists "journal_entries" cascade;`);
  }

}
