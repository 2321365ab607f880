import { Migration } from '@mikro-orm/migrations';

export class Migration20261123230316 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "tags" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "name" varchar(100) not null, "color" varchar(7) null, constraint "tags_pkey" primary key ("id"));`);
    this.addSql(`create index "tags_user_id_created_at_index" on "tags" ("user_id", "created_at");`);

    this.addSql(`create table "projects" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(300) not null, "description" text null, "type" varchar(50) not null default 'personal', "status" varchar(20) not null default 'active', constraint "projects_pkey" primary key ("id"));`);
    this.addSql(`create index "projects_user_id_created_at_index" on "projects" ("user_id", "created_at");`);

    this.addSql(`create table "board_columns" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "project_id" uuid not null, "name" varchar(100) not null, "position" int not null, constraint "board_columns_pkey" primary key ("id"));`);
    this.addSql(`create index "board_columns_project_id_position_index" on "board_columns" ("project_id", "position");`);

    this.addSql(`create table "deadlines" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(300) not null, "description" text null, "due_date" timestamptz not null, "project_id" uuid null, "priority" varchar(20) not null default 'medium', "status" varchar(20) not null default 'pending', constraint "deadlines_pkey" primary key ("id"));`);
    this.addSql(`create index "deadlines_project_id_index" on "deadlines" ("project_id");`);
    this.addSql(`create index "deadlines_user_id_due_date_index" on "deadlines" ("user_id", "due_date");`);

    this.addSql(`create table "project_tasks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "project_id" uuid not null, "column_id" uuid not null, "position" int not null, "title" varchar(300) not null, "description" text null, "status" varchar(10) not null default 'todo', "expected_work_amount" int null, "due_date" timestamptz null, "deadline_id" uuid null, "category_ids" uuid[] not null, "tag_ids" uuid[] not null, constraint "project_tasks_pkey" primary key ("id"));`);
    this.addSql(`create index "project_tasks_project_id_index" on "project_tasks" ("project_id");`);
    this.addSql(`create index "project_tasks_deadline_id_index" on "project_tasks" ("deadline_id");`);
    this.addSql(`create index "project_tasks_column_id_position_index" on "project_tasks" ("column_id", "position");`);

    this.addSql(`alter table "tags" add constraint "tags_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "projects" add constraint "projects_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "board_columns" add constraint "board_columns_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "deadlines" add constraint "deadlines_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "deadlines" add constraint "deadlines_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "project_tasks" add constraint "project_tasks_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "project_tasks" add constraint "project_tasks_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "project_tasks" add constraint "project_tasks_column_id_foreign" foreign key ("column_id") references "board_columns" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "project_tasks" add constraint "project_tasks_deadline_id_foreign" foreign key ("deadline_id") references "deadlines" ("id") on update cascade on delete set null;`);

    // category_ids is an array, so no foreign key: this trigger takes a deleted category's id off every
    // project task, in the deleting transaction (the task-category module needs to know nothing of projects).
    this.addSql(`create function "project_tasks_drop_category"() returns trigger language plpgsql as $$ begin update "project_tasks" set "category_ids" = array_remove("category_ids", old."id") where old."id" = any("category_ids"); return old; end $$;`);
    this.addSql(`create trigger "project_tasks_drop_category" after delete on "task_categories" for each row execute function "project_tasks_drop_category"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "project_tasks_drop_category" on "task_categories";`);
    this.addSql(`drop function if exists "project_tasks_drop_category"();`);
    this.addSql(`alter table "board_columns" drop constraint "board_columns_project_id_foreign";`);

    this.addSql(`alter table "deadlines" drop constraint "deadlines_project_id_foreign";`);

    this.addSql(`alter table "project_tasks" drop constraint "project_tasks_project_id_foreign";`);

    this.addSql(`alter table "project_tasks" drop constraint "project_tasks_column_id_foreign";`);

    this.addSql(`alter table "project_tasks" drop constraint "project_tasks_deadline_id_foreign";`);

    this.addSql(`drop table if exists "tags" cascade;`);

    this.addSql(`drop table if exists "projects" cascade;`);

    this.addSql(`drop table if exists "board_columns" cascade;`);

    this.addSql(`drop table if exists "deadlines" cascade;`);

    this.addSql(`drop table if exists "project_tasks" cascade;`);
  }

}
