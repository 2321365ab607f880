import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { withToolTable } from '../../src/connector/mcp/tools/tool-table.js';

it("the README's connector tool table is the tools' own (npm run generate rewrites it)", () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  expect(readme).toBe(withToolTable(readme));
});
