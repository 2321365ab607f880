import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp } from '../support/http-client.js';
import { weekDayIds } from '../support/fixtures.js';
import { liveClient, type LiveClient } from '../support/live-client.js';

/**
 * Redis goes away under traffic and comes back (issue 34, item 3). A Redis of the test's own (never the
 * machine's shared one on 6379) is killed and restarted on the same port. Needs the redis-server
 * binary, as the other Redis tests need a Redis.
 */
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const MINE = `subscription { myChanges { entity id kind committedAt } }`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A redis-server child on `port`, resolved once it accepts commands. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: 50 } });
  probe.on('error', () => undefined);
  await probe.connect();
  await probe.ping();
  await probe.quit();
  return child;
}

async function stopRedis(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasRedisServer)('Redis goes away under traffic and comes back', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let app: TestApp;
  let socket: LiveClient | undefined;
  const logs: { msg?: string; level?: number }[] = [];

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    const logger = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });
    app = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_AUTH_MAX: '6' }, { logger });
  }, 60_000);
  afterAll(async () => {
    await socket?.dispose();
    await app?.close();
    await stopRedis(redis);
  });

  it('keeps sign-in, REST, GraphQL, sockets and limits working on this instance, says so in /readyz, and recovers when it returns', async () => {
    const anna = await signUp(app.url);
    const days = await weekDayIds(anna.client, '2026-11-23');
    socket = liveClient(app.url, anna.client.cookie);
    const feed = socket.follow(MINE);
    await feed.waitFor(() => true);
    const ready = await fetch(`${app.url}/readyz`);
    expect(await ready.json()).toEqual({ ok: true, data: { status: 'ready', dependencies: { database: { state: 'up', required: true }, jobs: { state: 'up', required: true }, redis: { state: 'up', required: false }, push: { state: 'up', required: false } } } });

    // The outage.
    await stopRedis(redis);
    const during = await until(
      async () => (await fetch(`${app.url}/readyz`)).json(),
      (body) => body.data?.dependencies?.redis?.state === 'down',
      'readyz to report redis down',
    );
    expect(during).toMatchObject({ ok: true, data: { status: 'ready', dependencies: { database: { state: 'up' }, redis: { state: 'down', required: false } } } });

    // Sign-in, REST and GraphQL answer (they answered 500 after 5 s before the fallback).
    const signedIn = new HttpClient(app.url);
    expect((await signedIn.post('/api/v1/auth/login', { email: anna.email, password: anna.password })).status).toBe(200);
    expect((await anna.client.get('/api/v1/tasks')).status).toBe(200);
    const gql = await anna.client.post('/graphql', { query: '{ me { id } }' });
    expect(gql.status).toBe(200);
    expect(gql.body.data.me.id).toBe(anna.id);
    // Live updates reach this instance's sockets; a new socket opens.
    const before = feed.results.length;
    expect((await anna.client.post(`/api/v1/checklist/${days[0]}/toggle/GYM`, {})).status).toBe(200);
    await feed.waitFor((r) => feed.results.indexOf(r) >= before && (r.data?.myChanges ?? []).some((c: { entity: string }) => c.entity === 'ChecklistItem'), 5000);
    const second = liveClient(app.url, signedIn.cookie);
    try {
      await second.follow(MINE).waitFor(() => true, 5000);
    } finally {
      await second.dispose();
    }
    // Limits still hold, counted in this instance's memory: wrong passwords run into 429.
    const guesser = new HttpClient(app.url);
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i++) statuses.push((await guesser.post('/api/v1/auth/login', { email: anna.email, password: 'wrong password!' })).status);
    expect(statuses).toContain(429);
    expect(logs.some((l) => l.level === 40 && l.msg?.startsWith('rate limit counters unavailable'))).toBe(true);

    // Back: /readyz says so, every subscription reads again ("*"), counters are shared in Redis again.
    const gapFrom = feed.results.length;
    redis = await startRedis(port);
    await until(
      async () => (await fetch(`${app.url}/readyz`)).json(),
      (body) => body.data?.dependencies?.redis?.state === 'up',
      'readyz to report redis up',
    );
    await feed.waitFor((r) => feed.results.indexOf(r) >= gapFrom && (r.data?.myChanges ?? []).some((c: { entity: string }) => c.entity === '*'), 10_000);
    const probe = createClient({ url: `redis://127.0.0.1:${port}` });
    await probe.connect();
    try {
      await until(
        async () => {
          await anna.client.get('/api/v1/tasks');
          return probe.keys('rl:session:*');
        },
        (keys) => keys.length > 0,
        'the session counter back in Redis',
      );
    } finally {
      await probe.quit();
    }
    expect(logs.some((l) => l.msg === 'rate limit counters shared again')).toBe(true);
  }, 120_000);
});
