/**
 * Rewrites the README's connector tool table from the tools themselves (names, arguments, annotations,
 * scopes). test/drift/tool-table.test.ts fails when the checked-in table differs.
 * Usage: npm run generate (or tsx scripts/tool-table.ts)
 */
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { withToolTable } from '../src/connector/mcp/tools/tool-table.js';

const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', withToolTable(readme));
console.log('wrote the tool table of README.md');
