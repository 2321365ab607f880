import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase, dropDatabase } from '../core/database/provision.js';
import type { HttpClient } from '../../test/support/http-client.js';
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
