import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_PATH, renderClient } from '../../codegen.js';
import { firstDifference } from './first-difference.js';

describe('test/generated/graphql-client.ts', () => {
  it('matches what codegen makes from schema/schema.graphql and test/graphql/*.graphql', async () => {
    const committed = await readFile(CLIENT_PATH, 'utf8').catch(() => '');
    const generated = await renderClient();
    if (committed !== generated) {
      expect.fail(
        'test/generated/graphql-client.ts is out of date with schema/schema.graphql or test/graphql/*.graphql: ' +
          `run \`npm run generate\` and commit the result.\n${firstDifference(committed, generated)}`,
      );
    }
  });
});
