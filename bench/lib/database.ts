import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/core/database/embedded-postgres.js';
import { createDatabase, dropDatabase } from '../../src/core/database/provision.js';
import { connectAppOrm } from '../../src/app/database.js';
import { migrate } from '../../src/migrations/migrator.js';

/** The PostgreSQL server the benchmark runs against: DATABASE_URL's, or an embedded one made for the run. */
export interface BenchDatabaseServer {
  url: string;
  embedded: boolean;
  /** A new database with every migration applied; dropped by `close()` if not before. */
  freshDatabase(label: string): Promise<BenchDatabase>;
  /** Drops what is left and stops the embedded server. */
  close(): Promise<void>;
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function openDatabaseServer(log: (line: string) => void): Promise<BenchDatabaseServer> {
  let embedded: EmbeddedDatabase | null = null;
  let embeddedDir: string | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embeddedDir = await mkdtemp(join(tmpdir(), 'lp-bench-pg-'));
    log(`starting an embedded PostgreSQL in ${embeddedDir}`);
    embedded = await startEmbeddedPostgres(embeddedDir);
    url = embedded.url;
  }
  const serverUrl = url;
  const open = new Set<BenchDatabase>();
  let counter = 0;

  return {
    url: serverUrl,
    embedded: embedded !== null,
    async freshDatabase(label) {
      const name = `lp_bench_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${Date.now()}_${++counter}`;
      const databaseUrl = await createDatabase(serverUrl, name);
      const database: BenchDatabase = {
        name,
        url: databaseUrl,
        async drop() {
          if (!open.delete(database)) return;
          await dropDatabase(serverUrl, name);
        },
      };
      open.add(database);
      const orm = await connectAppOrm(databaseUrl);
      try {
        await migrate(orm);
      } finally {
        await orm.close();
      }
      return database;
    },
    async close() {
      for (const database of [...open]) await database.drop().catch((error) => log(`could not drop ${database.name}: ${error}`));
      if (embedded) await embedded.stop();
      if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
    },
  };
}
