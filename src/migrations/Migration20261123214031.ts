import { Migration } from '@mikro-orm/migrations';

export class Migration20261123214031 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "meal_templates" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(200) not null, "ingredients" jsonb not null, "instructions" text null, "image_file_id" uuid null, "servings" smallint null, constraint "meal_templates_pkey" primary key ("id"));`);
    this.addSql(`create index "meal_templates_user_id_created_at_index" on "meal_templates" ("user_id", "created_at");`);

    this.addSql(`create table "grocery_lists" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "week_id" uuid not null, constraint "grocery_lists_pkey" primary key ("id"));`);
    this.addSql(`alter table "grocery_lists" add constraint "grocery_lists_week_id_unique" unique ("week_id");`);

    this.addSql(`create table "grocery_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "list_id" uuid not null, "name" varchar(200) not null, "quantity" double precision null, "unit" varchar(50) not null default '', "section" varchar(100) not null default '', "purchased" boolean not null default false, "source" text check ("source" in ('plan', 'carried', 'manual')) not null, "carried_from_item_id" uuid null, constraint "grocery_items_pkey" primary key ("id"));`);
    this.addSql(`create index "grocery_items_list_id_index" on "grocery_items" ("list_id");`);

    this.addSql(`create table "dinner_plans" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "week_id" uuid not null, "day_id" uuid not null, "date" date not null, "meal_template_id" uuid null, "is_cook_day" boolean not null default false, "covered_by_dinner_plan_id" uuid null, "cooked" boolean not null default false, "cooked_at" timestamptz null, constraint "dinner_plans_pkey" primary key ("id"));`);
    this.addSql(`create index "dinner_plans_week_id_index" on "dinner_plans" ("week_id");`);
    this.addSql(`alter table "dinner_plans" add constraint "dinner_plans_day_id_unique" unique ("day_id");`);

    this.addSql(`alter table "meal_templates" add constraint "meal_templates_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "meal_templates" add constraint "meal_templates_image_file_id_foreign" foreign key ("image_file_id") references "files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "grocery_lists" add constraint "grocery_lists_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "grocery_lists" add constraint "grocery_lists_week_id_foreign" foreign key ("week_id") references "weeks" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "grocery_items" add constraint "grocery_items_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "grocery_items" add constraint "grocery_items_list_id_foreign" foreign key ("list_id") references "grocery_lists" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "dinner_plans" add constraint "dinner_plans_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dinner_plans" add constraint "dinner_plans_week_id_foreign" foreign key ("week_id") references "weeks" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dinner_plans" add constraint "dinner_plans_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dinner_plans" add constraint "dinner_plans_meal_template_id_foreign" foreign key ("meal_template_id") references "meal_templates" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dinner_plans" drop constraint "dinner_plans_meal_template_id_foreign";`);

    this.addSql(`alter table "grocery_items" drop constraint "grocery_items_list_id_foreign";`);

    this.addSql(`drop table if exists "meal_templates" cascade;`);

    this.addSql(`drop table if exists "grocery_lists" cascade;`);

    this.addSql(`drop table if exists "grocery_items" cascade;`);

    this.addSql(`drop table if exists "dinner_plans" cascade;`);
  }

}
