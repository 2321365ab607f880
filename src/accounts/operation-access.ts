import type { ResolverData } from 'type-graphql';
import { operationRoles } from '../core/authorization.js';
import type { AppContext } from '../core/context.js';
import { authChecker } from './auth-checker.js';

/**
 * The check `@Authorized` runs before a resolver (auth-checker.ts), for an edge to run before it reads
 * an operation's input: the REST surfaces before the body, /graphql before the variables. Without it an
 * anonymous `{}` was refused 400 for a missing field on routes that need a session (issue 34, item 11).
 * Throws the checker's own error (401 UNAUTHORIZED, 403 SUBSCRIPTION_REQUIRED); `operation` is the root
 * field's name.
 */
export function checkOperationAccess(context: AppContext, operation: string): void {
  const roles = operationRoles(operation);
  // Every root operation declares its roles (the schema refuses to build otherwise).
  if (roles) void authChecker({ context } as ResolverData<AppContext>, [...roles]);
}
