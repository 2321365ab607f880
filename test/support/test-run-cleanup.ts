import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dropDatabase } from '../../src/core/database/provision.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prefix of this run's test app databases (other runs may share the PostgreSQL server). */
    testDatabasePrefix: string;
    /** Folder holding this run's test app data folders. */
    testDataRoot: string;
  }
}

/**
 * What a test app leaves when nobody closes it (a worker's shared app dies with its process): after the
 * run, drops this run's test databases and removes their data folders. Runs after global-setup.ts.
 */
export default async function setup(project: TestProject) {
  const serverUrl = project.getProvidedContext().dbServerUrl;
  const prefix = `lp_t_${process.pid.toString(36)}${Date.now().toString(36)}_`;
  const dataRoot = await mkdtemp(join(tmpdir(), 'lp-test-apps-'));
  project.provide('testDatabasePrefix', prefix);
  project.provide('testDataRoot', dataRoot);

  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      // `_` matches any character in LIKE: compare the prefix itself.
      const { rows } = await client.query<{ datname: string }>('select datname from pg_database where left(datname, $1) = $2', [prefix.length, prefix]);
      for (const { datname } of rows) await dropDatabase(serverUrl, datname);
    } finally {
      await client.end();
    }
    await rm(dataRoot, { recursive: true, force: true });
  };
}
