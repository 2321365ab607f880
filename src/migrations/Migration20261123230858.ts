import { Migration } from '@mikro-orm/migrations';

export class Migration20261123230858 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "finance_accounts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "type" varchar(50) not null, "balance" numeric(15,2) not null, "opening_balance" numeric(15,2) not null, "currency" varchar(3) not null, "is_active" boolean not null default true, constraint "finance_accounts_pkey" primary key ("id"));`);
    this.addSql(`create index "finance_accounts_user_id_name_index" on "finance_accounts" ("user_id", "name");`);

    this.addSql(`create table "finance_transactions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "account_id" uuid not null, "amount" numeric(15,2) not null, "description" varchar(500) null, "category" varchar(100) null, "date" date not null, "recurring" boolean not null default false, "social_happening_id" uuid null, constraint "finance_transactions_pkey" primary key ("id"));`);
    this.addSql(`create index "finance_transactions_account_id_index" on "finance_transactions" ("account_id");`);
    this.addSql(`create index "finance_transactions_social_happening_id_index" on "finance_transactions" ("social_happening_id");`);
    this.addSql(`create index "finance_transactions_user_id_date_index" on "finance_transactions" ("user_id", "date");`);

    this.addSql(`alter table "finance_accounts" add constraint "finance_accounts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "finance_transactions" add constraint "finance_transactions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "finance_transactions" add constraint "finance_transactions_account_id_foreign" foreign key ("account_id") references "finance_accounts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "finance_transactions" add constraint "finance_transactions_social_happening_id_foreign" foreign key ("social_happening_id") references "social_happenings" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "user_settings" add column "large_expense_threshold" numeric(15,2) not null default '100';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "finance_transactions" drop constraint "finance_transactions_account_id_foreign";`);

    this.addSql(`drop table if exists "finance_accounts" cascade;`);

    this.addSql(`drop table if exists "finance_transactions" cascade;`);

    this.addSql(`alter table "user_settings" drop column "large_expense_threshold";`);
  }

}
