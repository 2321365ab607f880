import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { createDatabase, dropDatabase } from '../../src/core/database/provision.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { HttpClient } from './http-client.js';
import { restPathRecord } from './rest-path-record.js';

export interface TestApp {
  url: string;
  server: RunningServer;
  dataDir: string;
  databaseUrl: string;
  http: HttpClient;
  close(): Promise<void>;
}

/**
 * The real service on a free port over real HTTP, with a database cloned from the migrated template
 * and a data folder of its own. `env` adds or overrides settings exactly as the environment would;
 * `options.logger` receives the service's logs (a test reading them).
 */
export async function startTestApp(env: Record<string, string> = {}, options: { logger?: Logger } = {}): Promise<TestApp> {
  const serverUrl = inject('dbServerUrl');
  const name = `${inject('testDatabasePrefix')}${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = await createDatabase(serverUrl, name, inject('dbTemplate'));
  const dataDir = await mkdtemp(join(inject('testDataRoot'), 'app-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    FILE_UPLOAD_DIR: join(dataDir, 'uploads'),
    LOG_LEVEL: 'silent',
    // What tests need not wait for: the 1 s drain at every close, argon2id at production cost per sign-up.
    SHUTDOWN_DRAIN_MS: '0',
    PASSWORD_HASH_COST: 'test',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  // Every REST request is answered by the direct path and compared with Sofa's (rest-path-record.ts).
  const server = await startServer(config, { logger: options.logger ?? createLogger(config.logLevel), restPathCheck: restPathRecord });
  return {
    url: server.url,
    server,
    dataDir,
    databaseUrl,
    http: new HttpClient(server.url),
    async close() {
      await server.close();
      await dropDatabase(serverUrl, name);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The per-address limits of the shared app: every test client comes from 127.0.0.1, and the files of a
 * worker together sign up and call far more than one person would. A file that tests a limit starts
 * its own app with it.
 */
const SHARED_APP_ENV = { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' };

let shared: Promise<TestApp> | undefined;

/**
 * One app per worker process for the files that need no settings of their own (each test signs up its
 * own people, so files do not see each other's data): started by the first file that asks, left running
 * for the next files of the api project (which share their worker's modules, `isolate: false`), and gone
 * with the process; the run's clean-up (test-run-cleanup.ts) drops its database. No file closes it, nor
 * changes anything beyond its own people (the service's settings, counts of every row, the whole
 * outbox): such a file starts its own app.
 */
export function sharedTestApp(): Promise<TestApp> {
  shared ??= startTestApp(SHARED_APP_ENV).then(
    (app) => ({
      ...app,
      close: () => Promise.reject(new Error('the shared test app outlives the file: start an app of your own to close it')),
    }),
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}
