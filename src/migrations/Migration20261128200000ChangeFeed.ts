import { Migration } from '@mikro-orm/migrations';

/**
 * The change feed (issue 38 item 1, docs/sync.md): one row per committed change to a person's records,
 * written by the committing transaction itself (src/core/database/change-feed.ts), so a crash after the
 * commit loses none and a rolled-back write leaves none.
 *
 * The cursor is the person's data version (`lp_data_versions`, migration 20261128163400), raised by the
 * number of rows the transaction records: the version row's lock, held to the commit, queues the
 * transactions of one person, so cursors commit in increasing order and none becomes visible after a
 * later one was read (a plain sequence would let a slower transaction commit a smaller cursor late).
 * `lp_record_changes` marks the person as bumped, so the data-version trigger at commit adds nothing.
 *
 * `lp_change_feed_horizons`: per person, the newest cursor the retention purge removed; a `since` below it
 * may have lost changes (410). Both tables go with the account (a trigger on `users`).
 */
export class Migration20261128200000ChangeFeed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "lp_change_feed" (
      "user_id" uuid not null,
      "cursor" bigint not null,
      "entity" text not null,
      "record_id" text not null,
      "kind" text not null,
      "changed_at" timestamptz not null default now(),
      constraint "lp_change_feed_pkey" primary key ("user_id", "cursor"));`);
    this.addSql(`create index "lp_change_feed_changed_at_index" on "lp_change_feed" ("changed_at");`);
    this.addSql(`create table "lp_change_feed_horizons" ("user_id" uuid not null primary key, "purged_through" bigint not null);`);
    // The people who wrote before the feed existed: their feed starts now, so an older (or no) cursor reads everything again.
    this.addSql(`insert into "lp_change_feed_horizons" ("user_id", "purged_through") select "user_id", "version" from "lp_data_versions";`);
    this.addSql(`create or replace function lp_record_changes(owner uuid, entities text[], ids text[], kinds text[]) returns bigint language plpgsql as $fn$
      declare
        n int := coalesce(cardinality(entities), 0);
        top bigint;
      begin
        if owner is null or n = 0 then return null; end if;
        insert into lp_data_versions as v (user_id, version) values (owner, n)
          on conflict (user_id) do update set version = v.version + n
          returning version into top;
        insert into lp_change_feed (user_id, cursor, entity, record_id, kind)
          select owner, top - n + u.o, u.e, u.i, u.k from unnest(entities, ids, kinds) with ordinality as u(e, i, k, o);
        perform set_config('lp.data_versions_bumped', coalesce(current_setting('lp.data_versions_bumped', true), '') || owner::text || ',', true);
        return top;
      end $fn$;`);
    this.addSql(`create or replace function lp_change_feed_forget() returns trigger language plpgsql as $fn$
      begin
        delete from lp_change_feed where user_id = old.id;
        delete from lp_change_feed_horizons where user_id = old.id;
        return null;
      end $fn$;`);
    this.addSql(`create trigger lp_change_feed_forget after delete on "users" for each row execute function lp_change_feed_forget();`);
    this.addSql(`select lp_attach_data_version_triggers();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists lp_change_feed_forget on "users";`);
    this.addSql(`drop function if exists lp_change_feed_forget();`);
    this.addSql(`drop function if exists lp_record_changes(uuid, text[], text[], text[]);`);
    this.addSql(`drop table if exists "lp_change_feed_horizons";`);
    this.addSql(`drop table if exists "lp_change_feed";`);
  }
}
