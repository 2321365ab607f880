import { MikroORM, ReflectMetadataProvider, type Options } from '@mikro-orm/postgresql';

export type Orm = MikroORM;

/**
 * Tables the ORM does not own: Agenda keeps its jobs here (see stack notes); the people's data versions
 * are written by triggers only (data-version.ts), the change feed by raw statements (change-feed.ts), the
 * trash's copied rows and pending storage deletions too (their foreign keys are deferred: docs/trash.md).
 */
const foreignTables = ['agenda_jobs', 'agenda_logs', 'lp_data_versions', 'lp_change_feed', 'lp_change_feed_horizons', 'trash_rows', 'trash_links', 'trash_storage_releases'];

/** What the ORM is handed: the entity classes (src/app/entities.ts), which core does not name. */
export type OrmSettings = Partial<Options> & Required<Pick<Options, 'entities'>>;

export function ormOptions(clientUrl: string, settings: OrmSettings): Options {
  return {
    clientUrl,
    metadataProvider: ReflectMetadataProvider,
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
      // migrationsList: set by loadMigrator, which loads the migrations only when they are to run.
      fileName: (timestamp, name) => `Migration${timestamp}${name ? '_' + name : ''}`,
    },
    schemaGenerator: { skipTables: foreignTables },
    ...settings,
  };
}

export async function connectOrm(clientUrl: string, settings: OrmSettings): Promise<Orm> {
  return MikroORM.init(ormOptions(clientUrl, settings));
}

