import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../resolvers.js';

/** The one schema: Apollo serves it at /graphql and Sofa derives the REST routes from it. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    validate: { forbidUnknownValues: false },
    emitSchemaFile: false,
  });
}
