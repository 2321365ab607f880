import { Migration } from '@mikro-orm/migrations';

export class Migration20261123214817 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "books" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "title" varchar(300) not null, "author" varchar(300) not null, "total_pages" int not null, "current_page" int not null default 0, "cover_file_id" uuid null, constraint "books_pkey" primary key ("id"));`);
    this.addSql(`create index "books_cover_file_id_index" on "books" ("cover_file_id");`);
    this.addSql(`create index "books_user_id_created_at_index" on "books" ("user_id", "created_at");`);

    this.addSql(`create table "reading_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "day_id" uuid not null, "book_id" uuid not null, "pages_read" int not null, "duration" int not null, "pages_added" int not null, constraint "reading_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "reading_sessions_day_id_index" on "reading_sessions" ("day_id");`);
    this.addSql(`create index "reading_sessions_book_id_index" on "reading_sessions" ("book_id");`);

    this.addSql(`alter table "books" add constraint "books_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "books" add constraint "books_cover_file_id_foreign" foreign key ("cover_file_id") references "files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "reading_sessions" add constraint "reading_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "reading_sessions" add constraint "reading_sessions_day_id_foreign" foreign key ("day_id") references "days" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "reading_sessions" add constraint "reading_sessions_book_id_foreign" foreign key ("book_id") references "books" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "reading_sessions" drop constraint "reading_sessions_book_id_foreign";`);

    this.addSql(`drop table if exists "books" cascade;`);

    this.addSql(`drop table if exists "reading_sessions" cascade;`);
  }

}
