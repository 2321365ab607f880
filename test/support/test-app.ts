import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { createDatabase, dropDatabase } from '../../src/core/database/provision.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { HttpClient } from './http-client.js';

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
  const name = `lp_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const databaseUrl = await createDatabase(serverUrl, name, inject('dbTemplate'));
  const dataDir = await mkdtemp(join(tmpdir(), 'lp-test-data-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    FILE_UPLOAD_DIR: join(dataDir, 'uploads'),
    LOG_LEVEL: 'silent',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const server = await startServer(config, { logger: options.logger ?? createLogger(config.logLevel) });
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
