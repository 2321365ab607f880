import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CAPS_TABLE, withCapsTables } from '../../scripts/caps-table.js';

it("the security page's caps on lists (docs/security.md) are the code's constants (npm run generate rewrites them)", () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', CAPS_TABLE.page), 'utf8');
  expect(page).toBe(withCapsTables(page));
});
