import { Migration } from '@mikro-orm/migrations';

/**
 * Read-your-writes for the per-instance answer cache (src/graphql/answer-cache.ts, issue 36 item 8):
 * each person's data version, bumped by the commit of every transaction that changed one of their rows,
 * whoever writes it (the service's unit of work, a raw statement, a bulk import, the admin CLI, plain
 * SQL). A cached answer carries the version read before it was computed and is served only while the
 * version is still that.
 *
 * The bump is a deferred constraint trigger on every table that holds a person's rows: it runs in the
 * writing transaction, at its commit (the version and the data commit together), and takes the version
 * row's lock only then, after every other lock of the transaction, so two transactions of one person
 * queue for a moment at commit and never deadlock over it. It bumps each person once per transaction
 * (a transaction-local setting remembers whom it bumped), so a 10,000-row import writes one version.
 *
 * The owner is the row's `user_id` (the `users` row's own `id`); a table without one belongs to the
 * person of the row its foreign key names (`day_perimeter_tasks` → `days`). Tables that hold nobody's
 * rows (the catalogs, the OAuth clients, the migrator's and Agenda's) carry none; the event outbox bumps on
 * insert and delete only (its one update is the webhook dispatcher's bookkeeping). A table made later is
 * given the trigger by calling `lp_attach_data_version_triggers()` in its migration; a test
 * (src/graphql/answer-cache.test.ts) checks that every table is covered or listed as nobody's.
 */
export class Migration20261128163400AnswerCacheDataVersions extends Migration {
  override async up(): Promise<void> {
    // No foreign key: an account deletion's cascade would otherwise bump the version of a user that is gone
    // (the users trigger below removes the person's row instead).
    this.addSql(`create table "lp_data_versions" ("user_id" uuid not null primary key, "version" bigint not null);`);
    this.addSql(`create or replace function lp_bump_data_version(owner uuid) returns void language plpgsql as $fn$
      declare bumped text := coalesce(current_setting('lp.data_versions_bumped', true), '');
      begin
        if owner is null or position(owner::text in bumped) > 0 then return; end if;
        -- The row exists after the person's first write: a plain update, the insert only the first time.
        update lp_data_versions set version = version + 1 where user_id = owner;
        if not found then
          insert into lp_data_versions as v (user_id, version) values (owner, 1)
            on conflict (user_id) do update set version = v.version + 1;
        end if;
        perform set_config('lp.data_versions_bumped', bumped || owner::text || ',', true);
      end $fn$;`);
    // tg_argv[0]: the owner column; tg_argv[1], when given: the table that column references (whose
    // user_id owns the row). A row moved between owners bumps both.
    this.addSql(`create or replace function lp_data_changed() returns trigger language plpgsql as $fn$
      declare
        column_name text := tg_argv[0];
        parent text := tg_argv[1];
        before uuid;
        after uuid;
      begin
        -- A deleted account leaves no version behind (account deletion leaves no trace of the person), and
        -- the rest of its transaction's cascade bumps nothing more.
        if tg_table_name = 'users' and tg_op = 'DELETE' then
          delete from lp_data_versions where user_id = old.id;
          perform set_config('lp.data_versions_bumped', coalesce(current_setting('lp.data_versions_bumped', true), '') || old.id::text || ',', true);
          return null;
        end if;
        -- The common columns read directly; another through jsonb (a whole-row conversion).
        if column_name = 'user_id' then
          if tg_op <> 'INSERT' then before := old.user_id; end if;
          if tg_op <> 'DELETE' then after := new.user_id; end if;
        elsif column_name = 'id' then
          if tg_op <> 'INSERT' then before := old.id; end if;
          if tg_op <> 'DELETE' then after := new.id; end if;
        else
          if tg_op <> 'INSERT' then before := (to_jsonb(old) ->> column_name)::uuid; end if;
          if tg_op <> 'DELETE' then after := (to_jsonb(new) ->> column_name)::uuid; end if;
        end if;
        if parent is not null then
          if before is not null then execute format('select user_id from %I where id = $1', parent) into before using before; end if;
          if after is not null then execute format('select user_id from %I where id = $1', parent) into after using after; end if;
        end if;
        perform lp_bump_data_version(before);
        if after is distinct from before then perform lp_bump_data_version(after); end if;
        return null;
      end $fn$;`);
    // Every table of the schema with a user_id, the users table by its id, and a table whose foreign key
    // names such a table; idempotent (a later migration calls it again for its new tables).
    this.addSql(`create or replace function lp_attach_data_version_triggers() returns void language plpgsql as $fn$
      declare
        t record;
        events text;
      begin
        for t in
          select c.relname as table_name,
                 case when c.relname = 'users' then 'id'
                      when exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped) then 'user_id'
                      else fk.column_name end as owner_column,
                 case when c.relname = 'users' or exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped) then null
                      else fk.parent end as parent
          from pg_class c
          join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
          left join lateral (
            select a.attname::text as column_name, p.relname::text as parent
            from pg_constraint k
            join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
            join pg_class p on p.oid = k.confrelid
            where k.conrelid = c.oid and k.contype = 'f' and array_length(k.conkey, 1) = 1
              and exists (select 1 from pg_attribute pa where pa.attrelid = p.oid and pa.attname = 'user_id' and not pa.attisdropped)
            order by a.attname limit 1
          ) fk on true
          where c.relkind in ('r', 'p') and c.relname not in ('lp_data_versions', 'mikro_orm_migrations', 'agenda_jobs', 'agenda_logs')
        loop
          continue when t.owner_column is null;
          execute format('drop trigger if exists lp_data_version on %I', t.table_name);
          -- The outbox's one update is the webhook dispatcher's bookkeeping (dispatched_at), which no
          -- answer shows: bumping there would drop every writer's answers a second time.
          events := case when t.table_name = 'event_outbox' then 'insert or delete' else 'insert or update or delete' end;
          if t.parent is null then
            execute format('create constraint trigger lp_data_version after %s on %I deferrable initially deferred for each row execute function lp_data_changed(%L)', events, t.table_name, t.owner_column);
          else
            execute format('create constraint trigger lp_data_version after %s on %I deferrable initially deferred for each row execute function lp_data_changed(%L, %L)', events, t.table_name, t.owner_column, t.parent);
          end if;
        end loop;
      end $fn$;`);
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    this.addSql(`do $do$ declare t record; begin
      for t in select tgrelid::regclass::text as table_name from pg_trigger where tgname = 'lp_data_version' loop
        execute format('drop trigger if exists lp_data_version on %s', t.table_name);
      end loop; end $do$;`);
    this.addSql(`drop function if exists lp_attach_data_version_triggers();`);
    this.addSql(`drop function if exists lp_data_changed();`);
    this.addSql(`drop function if exists lp_bump_data_version(uuid);`);
    this.addSql(`drop table if exists "lp_data_versions";`);
  }
}
