import { DATABASE_SEARCH_SOURCE, RECORD_SEARCH_SOURCE } from '../databases/search-sources.js';
import { FORM_SEARCH_SOURCE } from '../forms/search-source.js';
import type { BrainSearchSource } from './search-source.js';

/**
 * Every searchable Brain table. Search, `/brain/entities/types`, reindex and canvas cards read this list:
 * a new searchable type is one entry here.
 */
export const BRAIN_SEARCH_SOURCES: BrainSearchSource[] = [
  { type: 'note', table: 'brain_note', ownerColumn: 'user_id', titleSql: 'e.title', textSql: 'e.content' },
  DATABASE_SEARCH_SOURCE,
  RECORD_SEARCH_SOURCE,
  FORM_SEARCH_SOURCE,
];
