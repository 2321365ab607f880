import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { LIST_BOUNDS } from '../list-bounds.js';
import { resolvers } from '../resolvers.js';
import { countAnswerItems } from './answer-size.js';
import { applyListBounds } from './list-bounds.js';
import { rejectNulText } from './reject-nul-text.js';
import { validateArgs } from './validate-args.js';

/** The one schema: Apollo serves it at /graphql and Sofa derives the REST routes from it. */
export async function buildAppSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    validateFn: validateArgs,
    emitSchemaFile: false,
  });
  return rejectNulText(countAnswerItems(applyListBounds(schema, LIST_BOUNDS)));
}
