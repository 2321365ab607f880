import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CONFIG_SOURCE, settingsOf } from '../../scripts/settings-table.js';

const root = join(import.meta.dirname, '..', '..');

/** Every environment variable src/core/config.ts reads, as the settings table of docs/operations.md finds them. */
function settingsRead(): string[] {
  return settingsOf(readFileSync(join(root, CONFIG_SOURCE), 'utf8')).map((setting) => setting.name);
}

it("every setting the service reads is named in the README's Configuration section", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration\n');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names = settingsRead();
  expect(names.length).toBeGreaterThan(50);
  expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(section))).toEqual([]);
});
