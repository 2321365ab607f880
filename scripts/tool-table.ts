/**
 * Rewrites the connector page's tool table (docs/connector.md) from the tools themselves (names, arguments,
 * annotations, scopes). test/drift/tool-table.test.ts fails when the checked-in table differs.
 * Usage: npm run generate (or tsx scripts/tool-table.ts)
 */
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { TOOL_TABLE_PAGE, withToolTable } from '../src/connector/mcp/tools/tool-table.js';

const page = await readFile(TOOL_TABLE_PAGE, 'utf8');
await writeFile(TOOL_TABLE_PAGE, withToolTable(page));
console.log(`wrote the tool table of ${TOOL_TABLE_PAGE}`);
