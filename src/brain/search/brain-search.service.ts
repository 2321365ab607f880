import type { EntityManager } from '@mikro-orm/postgresql';
import escapeHtml from 'escape-html';
import { ValidationError } from '../../core/errors.js';
import { reindexSources, searchRows, typeCounts } from './brain-search.queries.js';
import type { BrainSearchSource } from './search-source.js';
import { BRAIN_SEARCH_SOURCES } from './search-sources.js';
import { SEARCH_LIMIT_DEFAULT, type BrainEntityType, type BrainReindexResult, type BrainSearchHit } from './brain-search.types.js';

/** At most this many words of a query count (a search box, not a document). */
const QUERY_WORDS_MAX = 32;
/** Private-use characters marking matches inside ts_headline, turned into <mark> after HTML escaping. */
const START = '\uE000';
const STOP = '\uE001';
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

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
    const rows = await searchRows(this.em, sources, userId, query, args.limit ?? SEARCH_LIMIT_DEFAULT, START + STOP, HEADLINE_OPTIONS);
    return rows.map((r) => ({ type: r.type, id: r.id, title: r.title ?? '', snippet: markSnippet(r.snippet), rank: Number(r.rank) }));
  }

  /** The searchable types with how many entities of each the user has. */
  async types(userId: string): Promise<BrainEntityType[]> {
    return typeCounts(this.em, this.sources, userId);
  }

  /**
   * Rebuilds the user's search vectors: each of their rows is rewritten with the columns its
   * `search_vector` is computed from (found in the catalog), so PostgreSQL recomputes the generated
   * column (or re-runs a trigger that keeps it) and replaces the row's GIN index entries. Useful after a
   * change of the text-search configuration or dictionaries; nothing else of the rows changes
   * (`updatedAt` stays). One statement over every source.
   */
  async reindex(userId: string): Promise<BrainReindexResult> {
    const types = await reindexSources(this.em, this.sources, userId);
    return { reindexed: types.reduce((sum, t) => sum + t.count, 0), types };
  }
}
