import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004423 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "gamification_achievements" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "key" varchar(64) not null, "name" varchar(100) not null, "description" varchar(300) not null, "order" int not null, constraint "gamification_achievements_pkey" primary key ("id"));`);
    this.addSql(`alter table "gamification_achievements" add constraint "gamification_achievements_key_unique" unique ("key");`);

    this.addSql(`create table "gamification_shop_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "key" varchar(64) not null, "name" varchar(100) not null, "description" varchar(300) not null, "slot" varchar(32) not null, "price" int not null, "order" int not null, constraint "gamification_shop_items_pkey" primary key ("id"));`);
    this.addSql(`alter table "gamification_shop_items" add constraint "gamification_shop_items_key_unique" unique ("key");`);

    this.addSql(`create table "gamification_purchases" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "item_id" uuid not null, "price" int not null, constraint "gamification_purchases_pkey" primary key ("id"));`);
    this.addSql(`create index "gamification_purchases_user_id_created_at_index" on "gamification_purchases" ("user_id", "created_at");`);

    this.addSql(`create table "gamification_profiles" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "xp" int not null default 0, "highest_level" int not null default 1, "coins_spent" int not null default 0, "checklist_streak" int not null default 0, "training_streak" int not null default 0, constraint "gamification_profiles_pkey" primary key ("id"));`);
    this.addSql(`alter table "gamification_profiles" add constraint "gamification_profiles_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "gamification_user_achievements" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "achievement_id" uuid not null, "unlocked_at" timestamptz not null, constraint "gamification_user_achievements_pkey" primary key ("id"));`);
    this.addSql(`alter table "gamification_user_achievements" add constraint "gamification_user_achievements_user_id_achievement_id_unique" unique ("user_id", "achievement_id");`);

    this.addSql(`create table "gamification_xp_grants" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "action" varchar(32) not null, "source_id" varchar(100) not null, "xp" int not null, "granted_at" timestamptz not null, constraint "gamification_xp_grants_pkey" primary key ("id"));`);
    this.addSql(`alter table "gamification_xp_grants" add constraint "gamification_xp_grants_user_id_action_source_id_unique" unique ("user_id", "action", "source_id");`);

    this.addSql(`alter table "gamification_purchases" add constraint "gamification_purchases_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "gamification_purchases" add constraint "gamification_purchases_item_id_foreign" foreign key ("item_id") references "gamification_shop_items" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "gamification_profiles" add constraint "gamification_profiles_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "gamification_user_achievements" add constraint "gamification_user_achievements_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "gamification_user_achievements" add constraint "gamification_user_achievements_achievement_id_foreign" foreign key ("achievement_id") references "gamification_achievements" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "gamification_xp_grants" add constraint "gamification_xp_grants_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "gamification_user_achievements" drop constraint "gamification_user_achievements_achievement_id_foreign";`);

    this.addSql(`alter table "gamification_purchases" drop constraint "gamification_purchases_item_id_foreign";`);

    this.addSql(`drop table if exists "gamification_achievements" cascade;`);

    this.addSql(`drop table if exists "gamification_shop_items" cascade;`);

    this.addSql(`drop table if exists "gamification_purchases" cascade;`);

    this.addSql(`drop table if exists "gamification_profiles" cascade;`);

    this.addSql(`drop table if exists "gamification_user_achievements" cascade;`);

    this.addSql(`drop table if exists "gamification_xp_grants" cascade;`);
  }

}
