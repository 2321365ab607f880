import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** Every environment variable src/core/config.ts reads: `env.NAME`, and the name given to a reader (`readInt(env, 'NAME', …)`). */
function settingsRead(): string[] {
  const source = readFileSync(join(root, 'src', 'core', 'config.ts'), 'utf8');
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(match[1]!);
  for (const match of source.matchAll(/\(env,\s*'([A-Z][A-Z0-9_]+)'/g)) names.add(match[1]!);
  return [...names].sort();
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
