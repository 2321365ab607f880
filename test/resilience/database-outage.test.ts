import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { signUp } from '../support/http-client.js';
import { sql } from '../support/db.js';
import {
  createTask,
  createTestPki,
  createWebhook,
  eventually,
  freshDatabase,
  Receiver,
  serviceEnv,
  setPlan,
  startService,
  tempDir,
  type TestPki,
} from '../../src/webhooks/webhooks.test-helpers.js';

/**
 * The database goes away under a running service (its connections killed, new ones refused) and comes
 * back: the process lives, answers cleanly meanwhile, and picks up requests, jobs and webhook retries
 * afterwards without a restart.
 */
let pki: TestPki;
let receiver: Receiver;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  pki = await createTestPki();
  receiver = await Receiver.start(pki);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await receiver?.close();
});

/** Runs `work` on the server's maintenance database (not the service's own, which refuses connections during the outage). */
async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('dbServerUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const terminateAll = (client: pg.Client, name: string) =>
  client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);

/** What a crashed process printed besides its JSON log lines (the uncaught error). */
const crashOutput = (output: string[]) => output.filter((line) => !line.startsWith('{')).slice(0, 12).join('\n');

/** One request with a deadline: a hang shows as a status of -1. */
async function timedGet(url: string, cookie: string | undefined, timeoutMs: number): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  try {
    const res = await fetch(url, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the assertion below says so
    }
    return { status: res.status, body, ms: Date.now() - started };
  } catch (error) {
    return { status: -1, body: String(error), ms: Date.now() - started };
  }
}

describe('the database goes away and comes back', () => {
  it('keeps the process alive, answers 500/503 in the envelope meanwhile, and resumes requests, jobs and webhook retries', async () => {
    const db = await freshDatabase();
    const data = await tempDir();
    cleanups.push(() => db.drop(), () => data.remove());
    const dbName = new URL(db.url).pathname.slice(1);
    cleanups.push(() => admin((c) => c.query(`alter database "${dbName}" allow_connections true`)));
    const service = await startService(serviceEnv(pki, db.url, data.path, { WEBHOOK_BACKOFF_UNIT_MS: '2500' }));
    cleanups.push(() => service.kill());
    const user = await signUp(service.url);
    await setPlan(db.url, user.id, 'pro');
    // The first attempt fails, so a retry (an Agenda job) is queued and comes due during the outage.
    const path = receiver.endpoint((_req, count) => (count === 1 ? { status: 503, body: 'not yet' } : { status: 200, body: 'ok' }));
    const hook = await createWebhook(user.client, receiver.url + path, ['task_created']);
    await createTask(user.client, 'Before the outage');
    await receiver.waitFor(path, 1);

    // Light load throughout: one authenticated read after another.
    const results: { status: number; body: any; ms: number; phase: string }[] = [];
    let phase = 'before';
    let loading = true;
    const load = (async () => {
      while (loading) {
        const r = await timedGet(`${service.url}/api/v1/tasks`, user.client.cookie, 15_000);
        results.push({ ...r, phase });
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The outage: no new connections, and every existing one killed, again and again for a while.
    phase = 'outage';
    await admin(async (client) => {
      await client.query(`alter database "${dbName}" allow_connections false`);
      const until = Date.now() + 4000;
      while (Date.now() < until) {
        await terminateAll(client, dbName);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    const readyDuring = await timedGet(`${service.url}/readyz`, undefined, 15_000);
    const healthDuring = await timedGet(`${service.url}/healthz`, undefined, 15_000);
    expect(service.child.exitCode, crashOutput(service.output)).toBeNull();
    phase = 'recovering';
    await admin((client) => client.query(`alter database "${dbName}" allow_connections true`));

    expect(readyDuring.status).toBe(503);
    expect(readyDuring.body).toMatchObject({ ok: false, error: { code: expect.any(String) } });
    expect(healthDuring.status).toBe(200);

    // Back: ready again, and requests succeed, without a restart.
    await eventually(
      () => timedGet(`${service.url}/readyz`, undefined, 15_000),
      (r) => r.status === 200,
      30_000,
    );
    await eventually(
      () => timedGet(`${service.url}/api/v1/tasks`, user.client.cookie, 15_000),
      (r) => r.status === 200,
      30_000,
    );
    phase = 'after';
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await load;

    // Every answer came in time; during the outage each one failed cleanly, in the envelope.
    expect(results.filter((r) => r.status === -1)).toEqual([]);
    const outage = results.filter((r) => r.phase === 'outage');
    expect(outage.length).toBeGreaterThan(0);
    for (const r of outage) {
      if (r.status === 200) continue; // answered before its connection was killed
      expect([500, 503]).toContain(r.status);
      expect(r.body).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect(outage.some((r) => r.status !== 200)).toBe(true);
    expect(results.filter((r) => r.phase === 'after').every((r) => r.status === 200)).toBe(true);

    // The retry queued before the outage is made after it (Agenda polls again) …
    const [first, second] = await receiver.waitFor(path, 2, 30_000);
    expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
    // … and an event written after the outage is dispatched and delivered (the outbox listener is back).
    await createTask(user.client, 'After the outage');
    await receiver.waitFor(path, 3, 30_000);
    await eventually(
      () => sql(db.url, `select status from webhook_deliveries where webhook_id = $1 order by created_at`, [hook.id]),
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'success'),
      30_000,
    );
    // The outbox LISTEN connection itself came back (not only the fallback poll).
    await eventually(
      async () => service.output.some((line) => line.includes('webhook listener reconnected')),
      (reconnected) => reconnected,
      30_000,
    );
    expect(service.child.exitCode, crashOutput(service.output)).toBeNull();
    expect(service.output.join('\n')).not.toContain("Unhandled 'error' event");
    expect(await service.stop()).toBe(0);
  }, 180_000);
});
