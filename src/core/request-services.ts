import type { EntityManager } from '@mikro-orm/postgresql';
import { createParameterDecorator } from 'type-graphql';
import type { AppContext } from './context.js';

/**
 * A domain service as a resolver makes it for a request: on the request's entity manager, or through
 * the class's own `forRequest(ctx)` when it needs more of the app (the mailer, the files runtime).
 */
export interface RequestService<T> {
  new (em: EntityManager, ...rest: never[]): T;
  forRequest?(ctx: AppContext): T | Promise<T>;
}

/** The one place a resolver's services are made: `forRequest(ctx)` when the class has it, else `new Service(ctx.em)`. */
export function serviceFor<T>(ctx: AppContext, service: RequestService<T>): T | Promise<T> {
  return service.forRequest ? service.forRequest(ctx) : new service(ctx.em);
}

/**
 * The service as a resolver parameter (`@Service(TaskService) tasks: TaskService`), made for this
 * request (serviceFor), after the arguments are read.
 */
export function Service<T>(service: RequestService<T>) {
  return createParameterDecorator<AppContext>(({ context }) => serviceFor(context, service));
}
