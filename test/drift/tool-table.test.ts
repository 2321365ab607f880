import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TOOL_TABLE_PAGE, withToolTable } from '../../src/connector/mcp/tools/tool-table.js';

it("the connector page's tool table (docs/connector.md) is the tools' own (npm run generate rewrites it)", () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', TOOL_TABLE_PAGE), 'utf8');
  expect(page).toBe(withToolTable(page));
});
