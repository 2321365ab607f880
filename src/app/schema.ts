import type { GraphQLSchema } from 'graphql';
import { authChecker } from '../accounts/auth-checker.js';
import { buildGraphQLSchema } from '../graphql/build-schema.js';
import { LIST_BOUNDS } from './list-bounds.js';
import { resolvers } from './resolvers.js';
import { withUndoOffers } from '../undo/undo-offers.js';

/** The service's schema: every domain's resolvers, every list's bound, the check of `@Authorized`. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  // Registered writes offer an undo token (docs/undo.md), on every surface built on this schema.
  return buildGraphQLSchema({ resolvers, listBounds: LIST_BOUNDS, authChecker }).then(withUndoOffers);
}
