import { MikroORM, ReflectMetadataProvider, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../../entities.js';
import { migrationsList } from '../../migrations/index.js';

export type Orm = MikroORM;

/** Tables the ORM does not own: Agenda keeps its jobs here (see stack notes). */
const foreignTables = ['agenda_jobs', 'agenda_logs'];

export function ormOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    clientUrl,
    entities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    discovery: { disableDynamicFileAccess: true },
    forceUtcTimezone: true,
    pool: { min: 0, max: 10 },
    migrations: {
      path: 'src/migrations',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      silent: true,
      allOrNothing: true,
      migrationsList,
      fileName: (timestamp, name) => `Migration${timestamp}${name ? '_' + name : ''}`,
    },
    schemaGenerator: { skipTables: foreignTables },
    ...overrides,
  };
}

export async function connectOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  return MikroORM.init(ormOptions(clientUrl, overrides));
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.getMigrator().up();
}
