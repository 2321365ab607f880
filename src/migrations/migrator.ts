import type { Migrator } from '@mikro-orm/migrations';
import type { Orm } from '../core/database/orm.js';
import { loadMigrationsList, migrationNames } from './index.js';

/** Table where the migrator records what ran (MikroORM's default). */
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * The ORM's migrator. `@mikro-orm/migrations` (umzug and its dependencies) and the migrations, which
 * extend its `Migration`, are loaded only here: a start with nothing to migrate does not load them
 * (issue 18, like sharp and the AWS SDK in src/files).
 */
export async function loadMigrator(orm: Orm): Promise<Migrator> {
  const { Migrator } = await import('@mikro-orm/migrations');
  if (!orm.config.getExtension('@mikro-orm/migrator')) {
    // The migrator reads the list when it is made (by getMigrator below).
    orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList: await loadMigrationsList() });
    Migrator.register(orm);
  }
  return orm.getMigrator() as Migrator;
}

/** Migrations of the list not recorded as run (all of them when the table does not exist yet). */
async function pendingMigrations(orm: Orm): Promise<string[]> {
  const connection = orm.em.getConnection();
  const [exists] = await connection.execute<{ name: string | null }[]>(`select to_regclass('${MIGRATIONS_TABLE}')::text as name`);
  if (!exists?.name) return migrationNames;
  const ran = new Set((await connection.execute<{ name: string }[]>(`select name from ${MIGRATIONS_TABLE}`)).map((r) => r.name.replace(/\.[jt]s$/, '')));
  return migrationNames.filter((name) => !ran.has(name));
}

/** Runs the pending migrations; when none is pending, two reads and the migrator is never loaded. */
export async function migrate(orm: Orm): Promise<void> {
  if (!(await pendingMigrations(orm)).length) return;
  await (await loadMigrator(orm)).up();
}
