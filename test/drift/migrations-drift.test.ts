import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationsList, migrationNames } from '../../src/migrations/index.js';
import { sharedTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

describe('migrations', () => {
  it('bring the database to exactly what the entities describe', async () => {
    const sql = (await app.server.orm.schema.getUpdateSchemaSQL({ wrap: false })).trim();
    expect(
      sql,
      `The entities differ from the migrations: run \`npm run migration:create\` and commit the new migration.\nPending changes:\n${sql}`,
    ).toBe('');
  });

  it('are all named in src/migrations/index.ts, in order, in both lists (a start compares the names to decide whether to migrate)', async () => {
    const files = (await readdir(join(import.meta.dirname, '../../src/migrations'))).filter((f) => /^Migration\w+\.ts$/.test(f)).map((f) => f.slice(0, -3)).sort();
    expect(migrationNames, 'run `npm run migration:create` to write the index again').toEqual(files);
    expect((await loadMigrationsList()).map((m) => m.name)).toEqual(files);
  });
});
