import { describe, expect, it } from 'vitest';
import { sessionRoutes } from '../../rest/session-routes.js';
import { AUTH_MUTATIONS } from './auth-operations.js';

describe('the auth mutations', () => {
  it('are exactly the mutations the /auth routes serve, so both limiters (REST and /graphql) count the same ones', () => {
    const served = Object.entries(sessionRoutes)
      .filter(([operation, route]) => operation.startsWith('Mutation.') && route.path.startsWith('/auth/'))
      .map(([operation]) => operation.slice('Mutation.'.length));
    expect([...AUTH_MUTATIONS].sort()).toEqual(served.sort());
  });
});
