/**
 * Rewrites the generated tables of the docs pages, each between its markers:
 * - the connector's tool table (docs/connector.md), from the tools themselves (names, arguments, annotations, scopes);
 * - the limits on operations (docs/security.md), from OPERATION_LIMITS;
 * - the caps on lists (docs/security.md), from the caps' constants;
 * - the settings (docs/operations.md), from src/core/config.ts.
 * A drift test per table fails when the checked-in one differs (test/drift/tool-table, limits-table,
 * caps-table and settings-table). The README's architecture list is scripts/architecture-list.ts's.
 * Usage: npm run generate (or tsx scripts/docs-tables.ts)
 */
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { TOOL_TABLE_PAGE, withToolTable } from '../src/connector/mcp/tools/tool-table.js';
import { LIMITS_TABLE_PAGE, withLimitsTable } from '../src/graphql/operation-limits-table.js';
import { CAPS_TABLE, withCapsTables } from './caps-table.js';
import { SETTINGS_TABLE, withSettingsTable } from './settings-table.js';

for (const [page, rewrite, what] of [
  [TOOL_TABLE_PAGE, withToolTable, 'the tool table'],
  [LIMITS_TABLE_PAGE, withLimitsTable, 'the limits on operations'],
  [CAPS_TABLE.page, withCapsTables, 'the caps on lists'],
  [SETTINGS_TABLE.page, withSettingsTable, 'the settings'],
] as const) {
  await writeFile(page, rewrite(await readFile(page, 'utf8')));
  console.log(`wrote ${what} of ${page}`);
}
