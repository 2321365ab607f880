import type { BrainSearchSource } from './search-source.js';

/**
 * Every searchable Brain table. Search, `/brain/entities/types`, reindex and canvas cards read this list:
 * a new source (databases, records, forms) is one entry here.
 */
export const BRAIN_SEARCH_SOURCES: BrainSearchSource[] = [
  { type: 'note', table: 'brain_note', ownerColumn: 'user_id', titleSql: 'e.title', textSql: 'e.content' },
];
