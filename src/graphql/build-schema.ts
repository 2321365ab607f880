import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../resolvers.js';
import { rejectNulText } from './reject-nul-text.js';
import { validateArgs } from './validate-args.js';

/** The one schema: Apollo serves it at /graphql and Sofa derives the REST routes from it. */
export async function buildAppSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    validateFn: validateArgs,
    emitSchemaFile: false,
  });
  return rejectNulText(schema);
}
