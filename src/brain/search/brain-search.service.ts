import type { EntityManager } from '@mikro-orm/postgresql';
import escapeHtml from 'escape-html';
import { ValidationError } from '../../core/errors.js';
import type { BrainSearchSource } from './search-source.js';
import { BRAIN_SEARCH_SOURCES } from './search-sources.js';
import { SEARCH_LIMIT_DEFAULT, type BrainEntityType, type BrainReindexResult, type BrainSearchHit } from './brain-search.types.js';

/** At most this many words of a query count (a search box, not a document). */
const QUERY_WORDS_MAX = 32;
/** Private-use characters marking matches inside ts_headline, turned into <mark> after HTML escaping. */
const START = '\uE000';
const STOP = '\uE001';
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The tsquery of a search box: every word (letters and digits) must match, as a whole word or the start
 * of one (`plan` finds planning), like a search-as-you-type box. Punctuation is dropped, so no user text
 * reaches the tsquery syntax; null when nothing searchable is left.
 */
export function searchQuery(q: string): string | null {
  const words = (q.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, QUERY_WORDS_MAX);
  return words.length ? words.map((w) => `'${w}':*`).join(' & ') : null;
}

/** ts_headline's markers → <mark>, everything else HTML-escaped: the snippet is safe to show as HTML. */
export function markSnippet(headline: string): string {
  return escapeHtml(headline).replaceAll(START, '<mark>').replaceAll(STOP, '</mark>');
}

/** Full-text search over every Brain source (src/brain/search/search-sources.ts), in one statement. */
export class BrainSearchService {
  constructor(
    private readonly em: EntityManager,
    private readonly sources: BrainSearchSource[] = BRAIN_SEARCH_SOURCES,
  ) {}

  /** Ranked best first (ts_rank over title A and body B), with a highlighted snippet (ts_headline). */
  async search(userId: string, args: { q: string; type?: string; limit?: number }): Promise<BrainSearchHit[]> {
    if (!args.q.trim()) throw new ValidationError('Invalid search', [{ path: ['q'], message: 'q must not be empty' }]);
    const query = searchQuery(args.q);
    const sources = this.sources.filter((s) => !args.type || s.type === args.type);
    if (!query || !sources.length) return [];
    const params: unknown[] = [query];
    const parts = sources.map((s) => {
      params.push(userId);
      return `(select '${s.type}'::text as type, e.id, (${s.titleSql})::text as title, (${s.textSql})::text as body,
        ts_rank(e.search_vector, q.query) as rank
        from ${quoteIdent(s.table)} e, q where e.${quoteIdent(s.ownerColumn)} = ? and e.search_vector @@ q.query)`;
    });
    params.push(args.limit ?? SEARCH_LIMIT_DEFAULT, START + STOP, HEADLINE_OPTIONS);
    const sql = `with q as (select to_tsquery('simple', ?) as query),
      hits as (${parts.join(' union all ')} order by rank desc, title, id limit ?)
      select h.type, h.id, h.title, ts_headline('simple', translate(coalesce(h.body, ''), ?, ''), q.query, ?) as snippet, h.rank
      from hits h, q order by h.rank desc, h.title, h.id`;
    const rows: { type: string; id: string; title: string | null; snippet: string; rank: number }[] = await this.em
      .getConnection()
      .execute(sql, params);
    return rows.map((r) => ({ type: r.type, id: r.id, title: r.title ?? '', snippet: markSnippet(r.snippet), rank: Number(r.rank) }));
  }

  /** The searchable types with how many entities of each the user has. */
  async types(userId: string): Promise<BrainEntityType[]> {
    if (!this.sources.length) return [];
    const params: unknown[] = [];
    const sql = this.sources
      .map((s) => {
        params.push(userId);
        return `select '${s.type}'::text as type, count(*)::int as count from ${quoteIdent(s.table)} e where e.${quoteIdent(s.ownerColumn)} = ?`;
      })
      .join(' union all ');
    return this.em.getConnection().execute(sql, params);
  }

  /**
   * Rebuilds the user's search vectors: each of their rows is rewritten with the columns its
   * `search_vector` is computed from (found in the catalog), so PostgreSQL recomputes the generated
   * column (or re-runs a trigger that keeps it) and replaces the row's GIN index entries. Useful after a
   * change of the text-search configuration or dictionaries; nothing else of the rows changes
   * (`updatedAt` stays). One statement over every source.
   */
  async reindex(userId: string): Promise<BrainReindexResult> {
    const columns = await Promise.all(this.sources.map((s) => vectorColumns(this.em, s.table, s.ownerColumn)));
    const params: unknown[] = [];
    const ctes = this.sources.map((s, i) => {
      params.push(userId);
      const set = columns[i]!.map((c) => `${quoteIdent(c)} = e.${quoteIdent(c)}`).join(', ');
      return `s${i} as (update ${quoteIdent(s.table)} e set ${set} where e.${quoteIdent(s.ownerColumn)} = ? returning 1)`;
    });
    const selects = this.sources.map((s, i) => `select '${s.type}'::text as type, (select count(*)::int from s${i}) as count`);
    const types: BrainEntityType[] = this.sources.length
      ? await this.em.getConnection().execute(`with ${ctes.join(', ')} ${selects.join(' union all ')}`, params)
      : [];
    return { reindexed: types.reduce((sum, t) => sum + t.count, 0), types };
  }
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
