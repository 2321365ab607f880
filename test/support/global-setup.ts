import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/core/database/embedded-postgres.js';
import { createDatabase, dropDatabase } from '../../src/core/database/provision.js';
import { connectAppOrm } from '../../src/app/database.js';
import { migrate } from '../../src/migrations/migrator.js';
import { writeServedDocuments } from './openapi-documents.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dbServerUrl: string;
    dbTemplate: string;
  }
}

/**
 * One PostgreSQL for the run (DATABASE_URL's server, or an embedded one) and a template database
 * with every migration applied; each test app clones it into a database of its own.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | null = null;
  let embeddedDir: string | null = null;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    embeddedDir = await mkdtemp(join(tmpdir(), 'lp-test-pg-'));
    embedded = await startEmbeddedPostgres(embeddedDir);
    serverUrl = embedded.url;
  }
  const template = `lp_tpl_${process.pid}_${Date.now()}`;
  const orm = await connectAppOrm(await createDatabase(serverUrl, template));
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  project.provide('dbServerUrl', serverUrl);
  project.provide('dbTemplate', template);
  // The OpenAPI documents the test client checks every exchange against (test/support/openapi-contract.ts),
  // read once here so that no test's own service (and its rate limits) serves them.
  const documentsDir = await mkdtemp(join(tmpdir(), 'lp-test-openapi-'));
  await writeServedDocuments(serverUrl, template, documentsDir);
  process.env.LP_OPENAPI_DOCUMENTS = documentsDir;
  // The service build that process tests start (builtService in test/support/service-process.ts): made by
  // the first test that needs one, so a run without them builds nothing. Inside the project (gitignored),
  // where it resolves node_modules as dist/ does; a folder per run, so that runs side by side do not
  // rebuild each other's service under it.
  const serviceBuildDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', `.build-test-${process.pid}-${Date.now()}`);
  process.env.LP_SERVICE_BUILD_DIR = join(serviceBuildDir, 'service');

  return async () => {
    await rm(documentsDir, { recursive: true, force: true });
    await rm(serviceBuildDir, { recursive: true, force: true });
    await dropDatabase(serverUrl!, template);
    if (embedded) await embedded.stop();
    if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
  };
}
