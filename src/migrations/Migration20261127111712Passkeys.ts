import { Migration } from '@mikro-orm/migrations';

/** Issue 28: passkeys (WebAuthn credentials) and the challenges of registering and signing in with one. */
export class Migration20261127111712Passkeys extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "passkeys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "credential_id" text not null, "public_key" bytea not null, "counter" bigint not null default 0, "transports" text[] not null default '{}', "name" varchar(100) not null, "device_type" varchar(16) not null, "backed_up" boolean not null default false, "last_used_at" timestamptz null, constraint "passkeys_pkey" primary key ("id"));`);
    this.addSql(`create index "passkeys_user_id_index" on "passkeys" ("user_id");`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_credential_id_unique" unique ("credential_id");`);

    this.addSql(`create table "webauthn_challenges" ("id" uuid not null, "user_id" uuid null, "purpose" text check ("purpose" in ('registration', 'sign_in')) not null, "challenge" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "webauthn_challenges_pkey" primary key ("id"));`);
    this.addSql(`create index "webauthn_challenges_user_id_index" on "webauthn_challenges" ("user_id");`);
    this.addSql(`create index "webauthn_challenges_expires_at_index" on "webauthn_challenges" ("expires_at");`);

    this.addSql(`alter table "passkeys" add constraint "passkeys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webauthn_challenges" add constraint "webauthn_challenges_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "passkeys" cascade;`);

    this.addSql(`drop table if exists "webauthn_challenges" cascade;`);
  }

}
