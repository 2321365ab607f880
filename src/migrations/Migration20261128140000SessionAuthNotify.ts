import { Migration } from '@mikro-orm/migrations';

/**
 * Verified sessions are cached per instance (src/accounts/session-auth.ts, issue 36). Any change that
 * can end a session or change what its check answers NOTIFYs channel `lp_session_auth` with the user's
 * id, whoever makes it (the service, the admin CLI, plain SQL): a session deleted (logout, revocation,
 * password change or reset, account deletion by cascade), its expiry or owner changed; the user row
 * changed or deleted. (`last_used_at`, written by the checks themselves, notifies nobody.) Every
 * instance listens and drops the user's cached sessions when the notification arrives.
 */
export class Migration20261128140000SessionAuthNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function lp_session_auth_notify() returns trigger language plpgsql as $fn$
      begin
        if tg_table_name = 'users' then
          perform pg_notify('lp_session_auth', coalesce(new.id, old.id)::text);
        else
          -- The user the cached session belonged to (a session moved to another user is forgotten too).
          perform pg_notify('lp_session_auth', old.user_id::text);
        end if;
        return null;
      end $fn$;`);
    this.addSql(`create trigger lp_session_auth_sessions after update of "expires_at", "user_id" or delete on "login_sessions"
      for each row execute function lp_session_auth_notify();`);
    this.addSql(`create trigger lp_session_auth_users after update or delete on "users"
      for each row execute function lp_session_auth_notify();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists lp_session_auth_users on "users";`);
    this.addSql(`drop trigger if exists lp_session_auth_sessions on "login_sessions";`);
    this.addSql(`drop function if exists lp_session_auth_notify();`);
  }
}
