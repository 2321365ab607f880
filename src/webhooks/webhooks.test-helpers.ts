import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase, dropDatabase } from '../core/database/provision.js';
import { HttpClient } from '../../test/support/http-client.js';
import { startServiceProcess, type ServiceProcess } from '../../test/support/service-process.js';
import type { TestPki } from './webhooks.test-receiver.js';

export { createTestPki, Receiver, type Received, type Reply, type TestPki } from './webhooks.test-receiver.js';

export { MISSING_ID } from '../../test/support/fixtures.js';

/** A database of its own, cloned from the migrated template (no in-process server attached to it). */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('dbServerUrl');
  const name = `lp_wh_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const url = await createDatabase(serverUrl, name, inject('dbTemplate'));
  return { url, drop: () => dropDatabase(serverUrl, name) };
}

/** The environment a webhook test service runs with: trusts the test CA, reaches 127.0.0.1, short waits. */
export function serviceEnv(pki: TestPki, databaseUrl: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'webhook-tests-jwt-secret-0123456789abcdef',
    NODE_EXTRA_CA_CERTS: pki.caFile,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_BACKOFF_UNIT_MS: '200',
    WEBHOOK_TIMEOUT_MS: '1000',
    DISABLE_RATE_LIMIT: 'true',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  return startServiceProcess(env);
}

export async function tempDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'lp-webhook-data-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * Service processes on a database and data folder of their own, with the environment `env` makes of
 * them. Each piece made (database, folder, process) is added to `cleanups`, which the caller runs.
 */
export async function serviceSandbox(
  cleanups: (() => Promise<unknown>)[],
  env: (databaseUrl: string, dataDir: string) => Record<string, string>,
): Promise<{ db: { url: string }; env: Record<string, string>; start(): Promise<ServiceProcess> }> {
  const db = await freshDatabase();
  const data = await tempDir();
  cleanups.push(() => db.drop(), () => data.remove());
  const vars = env(db.url, data.path);
  const start = async () => {
    const service = await startService(vars);
    cleanups.push(() => service.kill());
    return service;
  };
  return { db, env: vars, start };
}

/** A client on `service` with `client`'s session (the same person on another instance). */
export function sessionOn(service: { url: string }, client: HttpClient): HttpClient {
  const other = new HttpClient(service.url);
  other.cookie = client.cookie;
  return other;
}

export { setPlan } from '../../test/support/db.js';
export { eventually } from '../../test/support/eventually-answers.js';

export async function createWebhook(client: HttpClient, url: string, events: string[]): Promise<any> {
  const res = await client.post('/api/v1/webhooks', { url, events });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function createTask(client: HttpClient, title = 'Write report'): Promise<any> {
  const res = await client.post('/api/v1/tasks', { title, timebox: 30 });
  if (res.status !== 201) throw new Error(`task creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}
