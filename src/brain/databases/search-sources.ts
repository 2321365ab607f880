import type { BrainSearchSource } from '../search/search-source.js';

/** Fingerprint keys a form submit stores on a record; never searched nor shown as text. */
const HIDDEN_KEYS = `'{__respondentKey,__respondentUserId,__respondentIpHash,__respondentSignals,__respondentAt}'::text[]`;

/** Databases: found by name (A) and property names (B). */
export const DATABASE_SEARCH_SOURCE: BrainSearchSource = {
  type: 'database',
  table: 'brain_database',
  ownerColumn: 'user_id',
  titleSql: `e.name`,
  textSql: `coalesce((select string_agg(p->>'name', ' ') from jsonb_array_elements(e.properties) p), '')`,
};

/** Records: found by their text and number values (B); titled by their first text value. */
export const RECORD_SEARCH_SOURCE: BrainSearchSource = {
  type: 'record',
  table: 'brain_record',
  ownerColumn: 'user_id',
  titleSql: `coalesce((select v.value from jsonb_each_text(e.values - ${HIDDEN_KEYS}) v where jsonb_typeof(e.values->v.key) = 'string' and v.key not like '\\_\\_%' order by v.key limit 1), 'Record')`,
  textSql: `coalesce((select string_agg(v.value, ' ' order by v.key) from jsonb_each_text(e.values - ${HIDDEN_KEYS}) v), '')`,
};
