import { Authorized, getMetadataStorage } from 'type-graphql';

/**
 * Who may run an operation is declared on its resolver with TypeGraphQL's `@Authorized(...roles)`:
 * `@Authorized()` on the class means "signed in", a method may narrow or widen it. The roles here are the
 * generic ones; a plan feature is a role too (src/accounts/subscription.ts `PlanGated`). The check itself
 * is the `authChecker` the schema is built with (src/accounts/auth-checker.ts).
 */
export const ANONYMOUS = 'anonymous';
/** Signed in with the session cookie or calling with an API key (the Public API's operations). */
export const API_CALLER = 'api-caller';

/** Opts an operation of a signed-in class out: anyone may call it (signing up, in, tokens sent by mail). */
export function Anonymous(): MethodDecorator & ClassDecorator {
  return Authorized(ANONYMOUS);
}

/** The roles the root operation `field` declares, or undefined when it declares none. */
export function operationRoles(field: string): readonly string[] | undefined {
  const storage = getMetadataStorage();
  const resolver = [...storage.queries, ...storage.mutations].find((r) => r.schemaName === field);
  return resolver?.roles;
}

/** Whether the root operation `field` needs the session cookie (the REST documents read it). */
export function operationNeedsSession(field: string): boolean {
  const roles = operationRoles(field);
  return roles !== undefined && !roles.includes(ANONYMOUS) && !roles.includes(API_CALLER);
}

/** The plan features the root operation `field` needs: its roles that are not the generic ones. */
export function operationPlanFeatures(field: string): string[] {
  return (operationRoles(field) ?? []).filter((role) => role !== ANONYMOUS && role !== API_CALLER);
}

/**
 * Refuses a schema in which a root operation declares no access: without `@Authorized` TypeGraphQL runs
 * no check at all, so an operation added to a class that forgot it would be open to anyone.
 */
export function assertEveryOperationDeclaresAccess(resolvers: readonly Function[]): void {
  const storage = getMetadataStorage();
  const open = [...storage.queries, ...storage.mutations]
    .filter((r) => resolvers.includes(r.target) && r.roles === undefined).map((r) => `${r.target.name}.${r.methodName}`);
  if (open.length) throw new Error(`Operations without @Authorized (add it to the class, or @Anonymous() to the method): ${open.join(', ')}`);
}
