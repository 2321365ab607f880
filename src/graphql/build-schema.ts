import { buildSchema, type AuthChecker, type NonEmptyArray, type PubSub } from 'type-graphql';
import { assertEveryOperationDeclaresAccess } from '../core/authorization.js';
import type { AppContext } from '../core/context.js';
import type { GraphQLSchema } from 'graphql';
import { countAnswerItems } from './answer-size.js';
import { applyListBounds, type ListBounds } from './list-bounds.js';
import { rejectNulText } from './reject-nul-text.js';
import { thinFieldResolvers } from './thin-field-resolvers.js';
import { validateArgs } from './validate-args.js';

export interface SchemaParts {
  resolvers: NonEmptyArray<Function>;
  /** The bound of every list field (src/app/list-bounds.ts). */
  listBounds: ListBounds;
  /** The check of `@Authorized` (src/accounts/auth-checker.ts); every root operation must declare one. */
  authChecker: AuthChecker<AppContext, string>;
}

/**
 * Every subscription declares its own `subscribe` (core/live/live-ticks.ts), fed by committed changes;
 * TypeGraphQL still asks for a topic-based PubSub once a schema has subscriptions. This one refuses use.
 */
const NO_TOPICS: PubSub = {
  publish() {
    throw new Error('subscriptions are fed by core/live, not by topics');
  },
  subscribe() {
    throw new Error('subscriptions are fed by core/live, not by topics');
  },
};

/** The one schema from the resolvers it is handed: Apollo serves it at /graphql and Sofa derives the REST routes from it. */
export async function buildGraphQLSchema({ resolvers, listBounds, authChecker }: SchemaParts): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    validateFn: validateArgs,
    authChecker,
    emitSchemaFile: false,
    pubSub: NO_TOPICS,
  });
  assertEveryOperationDeclaresAccess(resolvers);
  return rejectNulText(countAnswerItems(applyListBounds(thinFieldResolvers(schema, resolvers), listBounds)));
}
