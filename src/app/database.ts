import type { Options } from '@mikro-orm/postgresql';
import { connectOrm, ormOptions, type Orm } from '../core/database/orm.js';
import { entities } from './entities.js';

/** The ORM settings of this service: core's options with every entity of the app. */
export function appOrmOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return ormOptions(clientUrl, { entities, ...overrides });
}

/** Connects the ORM with every entity of the app (the service, its scripts, tests and benchmarks). */
export function connectAppOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  return connectOrm(clientUrl, { entities, ...overrides });
}
