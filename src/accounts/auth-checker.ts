import type { AuthCheckerFn } from 'type-graphql';
import { ANONYMOUS, API_CALLER } from '../core/authorization.js';
import type { AppContext } from '../core/context.js';
import { requireAuth } from '../core/current-user.js';
import { UnauthorizedError } from '../core/errors.js';
import { isPlanFeature, requireFeature } from './subscription.js';

/**
 * TypeGraphQL's check of `@Authorized(...roles)` (src/core/authorization.ts), run before the resolver:
 * no role means signed in; `anonymous` lets anyone in; `api-caller` takes a session or an API key; a plan
 * feature needs a session whose plan includes it (403 SUBSCRIPTION_REQUIRED). It answers with the
 * service's own errors, so 401 and 403 keep their envelope.
 */
export const authChecker: AuthCheckerFn<AppContext, string> = ({ context }, roles) => {
  if (roles.includes(ANONYMOUS)) return true;
  if (roles.includes(API_CALLER)) {
    if (context.apiKey || context.auth) return true;
    throw new UnauthorizedError();
  }
  const { user } = requireAuth(context);
  for (const role of roles) {
    if (!isPlanFeature(role)) throw new Error(`Unknown role "${role}" in @Authorized`);
    requireFeature(user, role);
  }
  return true;
};
