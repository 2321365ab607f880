import { Migration } from '@mikro-orm/migrations';

export class Migration20261127112520OidcIdentities extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "oidc_identities" ("id" uuid not null, "user_id" uuid not null, "issuer" text not null, "subject" text not null, "email" varchar(320) not null, "created_at" timestamptz not null, "last_used_at" timestamptz not null, constraint "oidc_identities_pkey" primary key ("id"));`);
    this.addSql(`create index "oidc_identities_user_id_index" on "oidc_identities" ("user_id");`);
    this.addSql(`alter table "oidc_identities" add constraint "oidc_identities_issuer_subject_unique" unique ("issuer", "subject");`);

    this.addSql(`alter table "oidc_identities" add constraint "oidc_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "oidc_identities" cascade;`);
  }

}
