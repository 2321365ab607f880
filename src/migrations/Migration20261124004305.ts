import { Migration } from '@mikro-orm/migrations';

export class Migration20261124004305 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "agenda_feeds" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "token_hash" varchar(64) not null, constraint "agenda_feeds_pkey" primary key ("id"));`);
    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_token_hash_unique" unique ("token_hash");`);

    this.addSql(`alter table "agenda_feeds" add constraint "agenda_feeds_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agenda_feeds" cascade;`);
  }

}
