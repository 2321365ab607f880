import type { EntityManager } from '@mikro-orm/postgresql';
import { createParameterDecorator } from 'type-graphql';
import type { AppContext, AppDeps } from './context.js';

/**
 * What a service is made from: the app's parts and the entity manager of one unit of work (a request's,
 * an assistant tool call's). A request's AppContext is one; so is the connector's ToolContext.
 */
export interface ServiceScope {
  deps: AppDeps;
  em: EntityManager;
}

/**
 * A domain service as a caller makes it: on the scope's entity manager, or through the class's own
 * `forRequest(scope)` when it needs more of the app (the mailer, the files runtime). `Scope` is what
 * `forRequest` needs: a service that reads the HTTP request (the sign-in services) takes an AppContext,
 * and so cannot be made where there is none.
 */
export interface RequestService<T, Scope extends ServiceScope = ServiceScope> {
  new (em: EntityManager, ...rest: never[]): T;
  // A property, not a method: its parameter is then checked strictly (a service that needs an
  // AppContext is refused for a bare ServiceScope).
  forRequest?: (scope: Scope) => T;
}

/** The one place services are made: `forRequest(scope)` when the class has it, else `new Service(scope.em)`. */
export function serviceFor<T, Scope extends ServiceScope>(scope: Scope, service: RequestService<T, Scope>): T {
  return service.forRequest ? service.forRequest(scope) : new service(scope.em);
}

/**
 * The service as a resolver parameter (`@Service(TaskService) tasks: TaskService`), made for this
 * request (serviceFor), after the arguments are read.
 */
export function Service<T>(service: RequestService<T, AppContext>) {
  return createParameterDecorator<AppContext>(({ context }) => serviceFor(context, service));
}
