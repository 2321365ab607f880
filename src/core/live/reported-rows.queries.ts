import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../database/read-rows.js';
import { namedParameters } from '../database/named-parameters.js';
import { LiveChangeCollector, MAX_CHANGES_PER_BATCH, recordLiveChange } from './change-collector.js';
import type { LiveChangeKind } from './live-change.js';

/** The entity class stored in `table` (the name the live updates and the feed use). */
export function entityOfTable(em: EntityManager, table: string): string | undefined {
  for (const meta of Object.values(em.getMetadata().getAll())) if (meta.tableName === table) return meta.className;
  return undefined;
}

/**
 * Rows a raw statement changes that only the database lists (a delete's cascades, a trashed record's
 * copied rows), as SQL: `with` items (no `with` keyword) with `:name` placeholders that define
 * `reached(tbl, id, kind)`: each row's table, id (text) and change kind. A row named twice counts once
 * (a change other than `updated` wins: a nulled row that is deleted too is deleted).
 */
export interface ReachedRows {
  with: string;
  params: Record<string, unknown>;
  /** Every table `reached` may name (a table without an entity is left out of both reports). */
  tables: readonly string[];
  /** A `with` item whose rows the statement counts and answers (a delete's `returning 1`). */
  count?: string;
}

/**
 * Tells the live updates and the change feed (docs/sync.md) about `rows` without holding them in the
 * service: one statement answers at most a batch's worth plus one (`MAX_CHANGES_PER_BATCH + 1`), which
 * go to the collector like any raw write's (past the batch, the live updates hear one "everything"
 * change, `*`: change-collector.ts), and writes the feed rows of the rest itself, in the same order, so
 * each row is in the feed exactly once whatever the count. The statement may change data itself (a
 * `delete … returning` item): everything it reports is read in that statement's snapshot, before
 * its changes. Answers the count of `rows.count`'s rows (0 without one).
 */
export async function reportRows(em: EntityManager, userId: string, rows: ReachedRows): Promise<number> {
  const collector = LiveChangeCollector.of(em);
  const entities = new Map<string, { entity: string; fed: boolean }>();
  for (const table of new Set(rows.tables)) {
    const entity = entityOfTable(em, table);
    if (entity) entities.set(table, { entity, fed: !!collector?.inFeed({ entity, id: '', kind: 'updated' }) });
  }
  const { text, values } = namedParameters(
    `with ${rows.with},
     reported as (
       select distinct on (r.tbl, r.id) m.entity, r.id, r.kind, m.fed
         from reached r join unnest(:report_tables::text[], :report_entities::text[], :report_fed::bool[]) m(tbl, entity, fed) on m.tbl = r.tbl
        order by r.tbl, r.id, r.kind = 'updated'),
     numbered as (select entity, id, kind, fed, row_number() over (order by entity, id) as n from reported),
     fed as (
       select lp_record_changes(:report_owner::uuid, array_agg(entity order by n), array_agg(id order by n), array_agg(kind order by n)) as cursor
         from numbered where n > :report_head and fed)
     select (select coalesce(json_agg(json_build_array(entity, id, kind) order by n), '[]') from numbered where n <= :report_head) as head,
            (select count(*) from fed)::int as fed,
            ${rows.count ? `(select count(*) from ${rows.count})::int` : '0'} as counted`,
    {
      ...rows.params,
      report_tables: [...entities.keys()],
      report_entities: [...entities.values()].map((e) => e.entity),
      report_fed: [...entities.values()].map((e) => e.fed),
      report_owner: userId,
      report_head: MAX_CHANGES_PER_BATCH + 1,
    },
  );
  const [answer] = await queryRows(em, text, values);
  for (const [entity, id, kind] of (answer?.head ?? []) as [string, string, LiveChangeKind][]) recordLiveChange(em, userId, { entity, id, kind });
  return Number(answer?.counted ?? 0);
}
