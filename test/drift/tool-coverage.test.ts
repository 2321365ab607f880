import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { connectorTools } from '../../src/connector/mcp/tools/index.js';

/** Issue 25: every connector tool is called by a connector test (by name, with the SDK client). */
it('every connector tool is called in a connector test', () => {
  const dir = join(import.meta.dirname, '..', '..', 'src', 'connector');
  const tests = readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
  const uncalled = connectorTools()
    .map((tool) => tool.name)
    .filter((name) => !new RegExp(`(callOk|callError|callTool)\\([^)]*['"\`]${name}['"\`]|name: ['"\`]${name}['"\`]`).test(tests));
  expect(uncalled).toEqual([]);
});
