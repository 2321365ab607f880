import { Migration } from '@mikro-orm/migrations';

/**
 * API-key lookups are cached per instance (src/api-keys/api-key-auth.ts). Any change that can refuse a
 * key or change what the lookup answers NOTIFYs channel `lp_api_key_auth` with the owner's id, whoever
 * makes it (the service, the admin CLI, plain SQL): a key revoked, rotated, expired, deleted or changed;
 * the owner's plan or its end changed, the owner deleted; the owner's time zone set or changed. (`last_used_at`, written by the lookups themselves, notifies nobody.) Every instance
 * listens and drops the owner's cached keys when the notification arrives.
 */
export class Migration20261124004800 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function lp_api_key_auth_notify() returns trigger language plpgsql as $fn$
      declare owner uuid;
      begin
        if tg_table_name = 'users' then owner := coalesce(new.id, old.id);
        else owner := coalesce(new.user_id, old.user_id);
        end if;
        perform pg_notify('lp_api_key_auth', owner::text);
        return null;
      end $fn$;`);
    this.addSql(`create trigger lp_api_key_auth_keys after update of "revoked", "expires_at", "key_hash", "user_id" or delete on "api_keys"
      for each row execute function lp_api_key_auth_notify();`);
    this.addSql(`create trigger lp_api_key_auth_plan after update of "plan", "plan_expires_at" or delete on "users"
      for each row execute function lp_api_key_auth_notify();`);
    this.addSql(`create trigger lp_api_key_auth_timezone after insert or update of "timezone", "user_id" or delete on "user_settings"
      for each row execute function lp_api_key_auth_notify();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists lp_api_key_auth_timezone on "user_settings";`);
    this.addSql(`drop trigger if exists lp_api_key_auth_plan on "users";`);
    this.addSql(`drop trigger if exists lp_api_key_auth_keys on "api_keys";`);
    this.addSql(`drop function if exists lp_api_key_auth_notify();`);
  }
}
