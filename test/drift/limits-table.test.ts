import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LIMITS_TABLE_PAGE, withLimitsTable } from '../../src/graphql/operation-limits-table.js';

it("the security page's limits on operations (docs/security.md) are the executor's own (npm run generate rewrites them)", () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', LIMITS_TABLE_PAGE), 'utf8');
  expect(page).toBe(withLimitsTable(page));
});
