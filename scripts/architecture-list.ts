/**
 * Rewrites the README's architecture list from the layer table (scripts/layer-table.ts).
 * test/drift/layers.test.ts fails when the checked-in list differs.
 * Usage: npm run generate (or tsx scripts/architecture-list.ts)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { withArchitectureList } from './layer-table.js';

const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', withArchitectureList(readme));
console.log('wrote the architecture list of README.md');
