import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SOURCE, SETTINGS_TABLE, settingsOf, withSettingsTable } from '../../scripts/settings-table.js';

const root = join(import.meta.dirname, '..', '..');
const config = readFileSync(join(root, CONFIG_SOURCE), 'utf8');

describe('the settings table of docs/operations.md (npm run generate rewrites it from src/core/config.ts)', () => {
  it('is the one config.ts gives', () => {
    const page = readFileSync(join(root, SETTINGS_TABLE.page), 'utf8');
    expect(page).toBe(withSettingsTable(page, config));
  });

  it('gives every setting a meaning: a doc comment in config.ts that starts with its name (`/** NAME: meaning */`)', () => {
    const settings = settingsOf(config);
    expect(settings.length).toBeGreaterThan(50);
    expect(settings.filter((setting) => !setting.meaning).map((setting) => setting.name)).toEqual([]);
  });

  it('reads a setting however config.ts reads it: a reader, `env.NAME`, a fallback, a default computed from another setting', () => {
    const source = `
      interface Example {
        /** PORT: the port. */ port: number;
        /** RETRIES_MAX / RETRY_MS (default twice the port): retries. */ retries: number;
      }
      function load(env: Env) {
        const port = readInt(env, 'PORT', 3_000, 1);
        const mode = readEnum(env, 'MODE', ['a', 'b'] as const, 'b');
        const dir = env.SOME_DIR?.trim() || './x';
        const url = readUrl(env, 'SOME_URL', ['https:']) ?? \`http://localhost:\${port}\`;
        const wait = readSomethingNew(env, 'RETRY_MS', port * 2);
        const later = readInt(env, 'LATER_MS', port + 1_000, 1);
        const secret = env.SOME_SECRET || undefined;
      }`;
    expect(settingsOf(source)).toEqual([
      { name: 'LATER_MS', default: '`$PORT + 1000`', accepts: 'whole number ≥ 1', meaning: '' },
      { name: 'MODE', default: '`b`', accepts: '`a`, `b`', meaning: '' },
      { name: 'PORT', default: '`3000`', accepts: 'whole number ≥ 1', meaning: 'the port.' },
      { name: 'RETRY_MS', default: 'twice the port', accepts: '', meaning: 'retries.' },
      { name: 'SOME_DIR', default: '`./x`', accepts: 'text', meaning: '' },
      { name: 'SOME_SECRET', default: 'unset', accepts: 'text', meaning: '' },
      { name: 'SOME_URL', default: '`http://localhost:$PORT`', accepts: '`https:` URL', meaning: '' },
    ]);
  });
});
