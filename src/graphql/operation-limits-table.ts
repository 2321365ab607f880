import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';
import { INTROSPECTION_LIST_ESTIMATE, OPERATION_LIMITS } from './operation-limits.js';

/**
 * The "Limits on operations" table of docs/security.md is written between these markers from
 * OPERATION_LIMITS (npm run generate; test/drift/limits-table.test.ts compares), so the page cannot
 * state a limit the executor does not apply.
 */
export const LIMITS_TABLE_START = '<!-- limits-table:start (npm run generate) -->';
export const LIMITS_TABLE_END = '<!-- limits-table:end -->';
export const LIMITS_TABLE_PAGE = 'docs/security.md';

const n = (value: number): string => value.toLocaleString('en-US');
const times = (count: number): string => (count === 1 ? 'one' : n(count));

/** One row per limit: its name, its value, what is counted. */
export function limitsTable(): string {
  const l = OPERATION_LIMITS;
  const rows: [string, string, string][] = [
    ['tokens', n(l.maxTokens), 'lexical tokens of the document, while parsing: a larger document is never built (graphql-js `maxTokens`)'],
    ['depth', n(l.maxDepth), 'nesting of selections (`week → days → tasks → category` is 4)'],
    ['aliases', n(l.maxAliases), 'aliased fields anywhere (`__typename` excepted)'],
    ['root fields', n(l.maxRootFields), 'fields at the root of the operation, aliases included'],
    ['directives', n(l.maxDirectives), 'directives anywhere'],
    [
      'cost',
      n(l.maxCost),
      `estimated values in the answer: each field 1, a page (a field taking \`limit\`) times its page size (the \`limit\` asked for, ${DEFAULT_PAGE_SIZE} by default, ${MAX_PAGE_SIZE} at most), any other list times its bound (see "Caps on lists"), an introspection list times ${INTROSPECTION_LIST_ESTIMATE}`,
    ],
    ['introspection', `${times(l.maxSchemaIntrospections)} \`__schema\` per operation`, 'introspection stays open (tools download the schema), and its cost counts like any read'],
  ];
  return [LIMITS_TABLE_START, '| limit | value | counted |', '|---|---|---|', ...rows.map((row) => `| ${row.join(' | ')} |`), LIMITS_TABLE_END].join('\n');
}

/** The page's text with its limits table replaced by the current one. */
export function withLimitsTable(page: string): string {
  const start = page.indexOf(LIMITS_TABLE_START);
  const end = page.indexOf(LIMITS_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${LIMITS_TABLE_PAGE} has no ${LIMITS_TABLE_START} … ${LIMITS_TABLE_END} block`);
  return page.slice(0, start) + limitsTable() + page.slice(end + LIMITS_TABLE_END.length);
}
