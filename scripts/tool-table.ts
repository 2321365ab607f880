/**
 * Rewrites the generated tables of the docs pages: the connector's tool table (docs/connector.md) from the
 * tools themselves (names, arguments, annotations, scopes), and the limits on operations (docs/security.md)
 * from OPERATION_LIMITS. test/drift/tool-table.test.ts and test/drift/limits-table.test.ts fail when a
 * checked-in table differs.
 * Usage: npm run generate (or tsx scripts/tool-table.ts)
 */
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { TOOL_TABLE_PAGE, withToolTable } from '../src/connector/mcp/tools/tool-table.js';
import { LIMITS_TABLE_PAGE, withLimitsTable } from '../src/graphql/operation-limits-table.js';

for (const [page, rewrite, what] of [
  [TOOL_TABLE_PAGE, withToolTable, 'the tool table'],
  [LIMITS_TABLE_PAGE, withLimitsTable, 'the limits on operations'],
] as const) {
  await writeFile(page, rewrite(await readFile(page, 'utf8')));
  console.log(`wrote ${what} of ${page}`);
}
