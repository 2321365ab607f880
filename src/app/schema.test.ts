import { describe, expect, it } from 'vitest';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema } from './schema.js';

describe('the schema', () => {
  it('reads plain fields of every object type as properties (simpleResolvers), so reads pay no per-field wrapper', async () => {
    await buildAppSchema();
    // Without simpleResolvers TypeGraphQL wraps every field in a middleware runner; nothing here uses
    // field middlewares, and the wrapper took a third of a week read's CPU.
    const wrapped = getMetadataStorage()
      .objectTypes.filter((type) => type.simpleResolvers !== true)
      .map((type) => type.name);
    expect(wrapped).toEqual([]);
  });
});
