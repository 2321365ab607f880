import { Migration } from '@mikro-orm/migrations';

/** Issue 28: TOTP two-factor, recovery codes, the second step of sign-in, and what a session shows (last use, device, network). */
export class Migration20261127111656TwoFactorSessions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "totp_credentials" ("id" uuid not null, "user_id" uuid not null, "secret_encrypted" text not null, "enabled_at" timestamptz null, "last_used_step" int null, "created_at" timestamptz not null, constraint "totp_credentials_pkey" primary key ("id"));`);
    this.addSql(`alter table "totp_credentials" add constraint "totp_credentials_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "sign_in_challenges" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "webauthn_challenge" text null, "attempts" int not null default 0, "created_at" timestamptz not null, constraint "sign_in_challenges_pkey" primary key ("id"));`);
    this.addSql(`create index "sign_in_challenges_user_id_index" on "sign_in_challenges" ("user_id");`);
    this.addSql(`alter table "sign_in_challenges" add constraint "sign_in_challenges_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "recovery_codes" ("id" uuid not null, "user_id" uuid not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "recovery_codes_pkey" primary key ("id"));`);
    this.addSql(`create index "recovery_codes_user_id_code_hash_index" on "recovery_codes" ("user_id", "code_hash");`);

    this.addSql(`alter table "totp_credentials" add constraint "totp_credentials_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "sign_in_challenges" add constraint "sign_in_challenges_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "recovery_codes" add constraint "recovery_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "login_sessions" add column "last_used_at" timestamptz null, add column "user_agent" varchar(255) null, add column "ip_range" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "totp_credentials" cascade;`);

    this.addSql(`drop table if exists "sign_in_challenges" cascade;`);

    this.addSql(`drop table if exists "recovery_codes" cascade;`);

    this.addSql(`alter table "login_sessions" drop column "last_used_at", drop column "user_agent", drop column "ip_range";`);
  }

}
