import type { EntityManager } from '@mikro-orm/postgresql';
import type { BrainEntityType } from './brain-search.types.js';
import type { BrainSearchSource } from './search-source.js';

/** Brain search's hand-written SQL: one full-text statement over every source (search-sources.ts). */

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface SearchRow {
  type: string;
  id: string;
  title: string | null;
  snippet: string;
  rank: number;
}

/**
 * The best `limit` hits of the tsquery `query` over `sources`, ranked (ts_rank), each with a ts_headline
 * snippet whose matches are marked by `markers` (their characters are first removed from the text).
 */
export function searchRows(em: EntityManager, sources: BrainSearchSource[], userId: string, query: string, limit: number, markers: string, headlineOptions: string): Promise<SearchRow[]> {
  const params: unknown[] = [query];
  const parts = sources.map((s) => {
    params.push(userId);
    return `(select '${s.type}'::text as type, e.id, (${s.titleSql})::text as title, (${s.textSql})::text as body,
      ts_rank(e.search_vector, q.query) as rank
      from ${quoteIdent(s.table)} e, q where e.${quoteIdent(s.ownerColumn)} = ? and e.search_vector @@ q.query)`;
  });
  params.push(limit, markers, headlineOptions);
  const sql = `with q as (select to_tsquery('simple', ?) as query),
    hits as (${parts.join(' union all ')} order by rank desc, title, id limit ?)
    select h.type, h.id, h.title, ts_headline('simple', translate(coalesce(h.body, ''), ?, ''), q.query, ?) as snippet, h.rank
    from hits h, q order by h.rank desc, h.title, h.id`;
  return em.getConnection().execute<SearchRow[]>(sql, params);
}

/** How many entities of each source the user has (one statement). */
export async function typeCounts(em: EntityManager, sources: BrainSearchSource[], userId: string): Promise<BrainEntityType[]> {
  if (!sources.length) return [];
  const params: unknown[] = [];
  const sql = sources
    .map((s) => {
      params.push(userId);
      return `select '${s.type}'::text as type, count(*)::int as count from ${quoteIdent(s.table)} e where e.${quoteIdent(s.ownerColumn)} = ?`;
    })
    .join(' union all ');
  return em.getConnection().execute<BrainEntityType[]>(sql, params);
}

/**
 * Recomputes the search vectors of every entity of the user by rewriting the columns each vector is
 * made from (`updatedAt` stays); one statement over every source. Answers the count per type.
 */
export async function reindexSources(em: EntityManager, sources: BrainSearchSource[], userId: string): Promise<BrainEntityType[]> {
  const columns = await Promise.all(sources.map((s) => vectorColumns(em, s.table, s.ownerColumn)));
  const params: unknown[] = [];
  const ctes = sources.map((s, i) => {
    params.push(userId);
    const set = columns[i]!.map((c) => `${quoteIdent(c)} = e.${quoteIdent(c)}`).join(', ');
    return `s${i} as (update ${quoteIdent(s.table)} e set ${set} where e.${quoteIdent(s.ownerColumn)} = ? returning 1)`;
  });
  const selects = sources.map((s, i) => `select '${s.type}'::text as type, (select count(*)::int from s${i}) as count`);
  return sources.length
    ? await em.getConnection().execute(`with ${ctes.join(', ')} ${selects.join(' union all ')}`, params)
    : [];
}

const vectorColumnCache = new Map<string, string[]>();

/**
 * The columns a table's generated `search_vector` is computed from (pg_depend). A column kept by a
 * trigger has none recorded: the owner column is then rewritten, which fires the trigger.
 */
async function vectorColumns(em: EntityManager, table: string, ownerColumn: string): Promise<string[]> {
  const cached = vectorColumnCache.get(table);
  if (cached) return cached;
  const rows: { name: string }[] = await em.getConnection().execute(
    `select a.attname as name
       from pg_attribute v
       join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = v.attrelid and d.objsubid = v.attnum
        and d.refclassid = 'pg_class'::regclass and d.refobjid = v.attrelid and d.refobjsubid > 0
       join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
      where v.attrelid = to_regclass(?) and v.attname = 'search_vector'
      order by a.attnum`,
    [quoteIdent(table)],
  );
  const names = rows.length ? rows.map((r) => r.name) : [ownerColumn];
  vectorColumnCache.set(table, names);
  return names;
}
