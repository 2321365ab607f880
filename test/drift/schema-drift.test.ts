import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, renderSchema } from '../../scripts/emit-schema.js';
import { firstDifference } from './first-difference.js';

describe('schema/schema.graphql', () => {
  it('matches the schema built from the resolvers', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
    const built = await renderSchema();
    if (committed !== built) {
      expect.fail(
        `schema/schema.graphql is out of date with the resolvers: run \`npm run generate\` and commit the result.\n${firstDifference(committed, built)}`,
      );
    }
  });
});
