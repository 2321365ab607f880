import { createParameterDecorator } from 'type-graphql';
import type { AppContext, Authenticated } from './context.js';
import { UnauthorizedError } from './errors.js';

export function requireAuth(ctx: AppContext): Authenticated {
  if (!ctx.auth) throw new UnauthorizedError();
  return ctx.auth;
}


/**
 * The signed-in user's id as a resolver parameter (`@CurrentUserId() userId: string`): an operation
 * taking it needs a session, and answers UNAUTHORIZED without one. Resolved after the arguments, so a
 * malformed argument is still refused first, as before.
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
