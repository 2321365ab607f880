import { createParameterDecorator, getMetadataStorage } from 'type-graphql';
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
export function CurrentUserId(): ParamDecorator {
  return needingSession(createParameterDecorator<AppContext>(({ context }) => requireAuth(context).user.id));
}

/** The signed-in user as a resolver parameter (`@CurrentUser() user: User`); as CurrentUserId. */
export function CurrentUser(): ParamDecorator {
  return needingSession(createParameterDecorator<AppContext>(({ context }) => requireAuth(context).user));
}

/** The signed-in session (user and session id) as a resolver parameter; as CurrentUserId. */
export function CurrentSession(): ParamDecorator {
  return needingSession(createParameterDecorator<AppContext>(({ context }) => requireAuth(context)));
}

/** Resolver methods (by class, then method name) that take the signed-in user or session. */
const sessionMethods = new WeakMap<object, Set<string | symbol>>();

type ParamDecorator = (target: object, key: string | symbol, index: number) => void;

function needingSession(decorator: ParamDecorator): ParamDecorator {
  return (target, key, index) => {
    const methods = sessionMethods.get(target) ?? new Set();
    methods.add(key);
    sessionMethods.set(target, methods);
    decorator(target, key, index);
  };
}

/**
 * Whether the root operation `field` (a Query or Mutation) needs a session: its resolver takes the
 * signed-in user or session. The REST documents read it (no hand list of the anonymous operations).
 */
export function operationNeedsSession(field: string): boolean {
  const storage = getMetadataStorage();
  const resolver = [...storage.queries, ...storage.mutations].find((r) => r.schemaName === field);
  return Boolean(resolver && sessionMethods.get(resolver.target.prototype)?.has(resolver.methodName));
}
