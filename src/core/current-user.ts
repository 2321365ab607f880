import { createParameterDecorator } from 'type-graphql';
import type { AppContext, Authenticated } from './context.js';
import { UnauthorizedError } from './errors.js';

export function requireAuth(ctx: AppContext): Authenticated {
  if (!ctx.auth) throw new UnauthorizedError();
  return ctx.auth;
}


/**
 * The signed-in user's id as a resolver parameter (`@CurrentUserId() userId: string`). Whether the
 * operation needs a session is declared with `@Authorized` (src/core/authorization.ts) and checked before
 * the resolver runs; this only reads it (and still refuses when there is none).
 */
export function CurrentUserId() {
  return createParameterDecorator<AppContext>(({ context }) => requireAuth(context).user.id);
}

/** The signed-in user as a resolver parameter (`@CurrentUser() user: User`); as CurrentUserId. */
export function CurrentUser() {
  return createParameterDecorator<AppContext>(({ context }) => requireAuth(context).user);
}

/** The signed-in session (user and session id) as a resolver parameter; as CurrentUserId. */
export function CurrentSession() {
  return createParameterDecorator<AppContext>(({ context }) => requireAuth(context));
}
