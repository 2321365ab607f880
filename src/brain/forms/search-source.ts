import type { BrainSearchSource } from '../search/search-source.js';

/** Forms: found by name (A), description and field labels (B). */
export const FORM_SEARCH_SOURCE: BrainSearchSource = {
  type: 'form',
  table: 'brain_form',
  ownerColumn: 'user_id',
  titleSql: `e.name`,
  textSql: `concat_ws(' ', e.config->>'description', (select string_agg(f->>'label', ' ') from jsonb_array_elements(e.config->'fields') f))`,
};
