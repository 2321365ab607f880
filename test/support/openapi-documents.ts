import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createDatabase, dropDatabase } from '../../src/core/database/provision.js';
import { startServer } from '../../src/app/server.js';
import { CONTRACT_SURFACES } from './openapi-contract.js';


/** Starts the service once on a clone of the template and writes the documents it serves into `dir`. */
export async function writeServedDocuments(serverUrl: string, template: string, dir: string): Promise<void> {
  const name = `lp_doc_${process.pid}_${Date.now()}`;
  const databaseUrl = await createDatabase(serverUrl, name, template);
  const dataDir = await mkdtemp(join(tmpdir(), 'lp-test-data-'));
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, FILE_UPLOAD_DIR: join(dataDir, 'uploads'), LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
  const server = await startServer(config, { logger: createLogger(config.logLevel) });
  try {
    for (const surface of CONTRACT_SURFACES) {
      const response = await fetch(server.url + surface.documentPath);
      if (!response.ok) throw new Error(`${surface.documentPath} answered ${response.status}`);
      await writeFile(join(dir, surface.file), await response.text());
    }
  } finally {
    await server.close();
    await dropDatabase(serverUrl, name);
    await rm(dataDir, { recursive: true, force: true });
  }
}
