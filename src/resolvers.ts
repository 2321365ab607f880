import type { NonEmptyArray } from 'type-graphql';
import { AuthResolver } from './accounts/auth.resolver.js';

/** Every GraphQL resolver class; a new domain module adds its resolvers here. */
export const resolvers: NonEmptyArray<Function> = [AuthResolver];
