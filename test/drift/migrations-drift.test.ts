import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('migrations', () => {
  it('bring the database to exactly what the entities describe', async () => {
    const sql = (await app.server.orm.schema.getUpdateSchemaSQL({ wrap: false })).trim();
    expect(
      sql,
      `The entities differ from the migrations: run \`npm run migration:create\` and commit the new migration.\nPending changes:\n${sql}`,
    ).toBe('');
  });
});
