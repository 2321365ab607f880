import { request, Agent } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/http-client.js';
import { startServiceProcess } from '../support/service-process.js';
import { freshDatabase, tempDir } from '../../src/webhooks/webhooks.test-helpers.js';

/**
 * SIGTERM under keep-alive load: every request the server received is answered (in flight or arriving
 * on an open connection during the drain), none is cut off by a reset, and the process exits 0.
 */
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

type Outcome = { kind: 'answered'; status: number } | { kind: 'refused' } | { kind: 'failed'; error: string };

/** One GET on a keep-alive agent; a refused connection (the server no longer listens) is told apart from a request cut off. */
function get(agent: Agent, url: URL, cookie: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { cookie } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode! }));
      res.on('error', (error) => resolve({ kind: 'failed', error: String(error) }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // ECONNREFUSED: a new connection after the listener closed; nothing was sent, nothing lost.
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else resolve({ kind: 'failed', error: `${error.code ?? ''} ${error.message}` });
    });
    req.end();
  });
}

describe('SIGTERM', () => {
  it('answers every request under 32-connection keep-alive load and exits 0', async () => {
    const db = await freshDatabase();
    const data = await tempDir();
    cleanups.push(() => db.drop(), () => data.remove());
    const service = await startServiceProcess({
      DATABASE_URL: db.url,
      DATA_DIR: data.path,
      JWT_SECRET: 'shutdown-tests-jwt-secret-0123456789abcdef',
      DISABLE_RATE_LIMIT: 'true',
      // The drain under test, at its default (the test services' is 0).
      SHUTDOWN_DRAIN_MS: '1000',
    });
    cleanups.push(() => service.kill());
    const user = await signUp(service.url);
    const url = new URL('/api/v1/tasks', service.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    cleanups.push(async () => agent.destroy());

    const outcomes: Outcome[] = [];
    let signalled = false;
    let giveUpAt = Infinity;
    // 32 clients, each sending its next request as soon as the last is answered, until the server refuses
    // (or, should it keep serving its open connections, for 15 s after the signal).
    const workers = Array.from({ length: 32 }, async () => {
      for (;;) {
        const outcome = await get(agent, url, user.client.cookie!);
        outcomes.push(outcome);
        if (signalled && (outcome.kind !== 'answered' || Date.now() > giveUpAt)) return;
        if (outcome.kind === 'failed' && !signalled) throw new Error(`request failed before SIGTERM: ${outcome.error}`);
      }
    });
    // Warm: the signal comes while every connection is busy with a steady stream.
    const warmBy = Date.now() + 30_000;
    while (outcomes.length < 200 && Date.now() < warmBy) await new Promise((resolve) => setTimeout(resolve, 50));
    const beforeSignal = outcomes.length;
    signalled = true;
    giveUpAt = Date.now() + 15_000;
    const exitCode = service.stop();
    await Promise.all(workers);
    const exited = await Promise.race([exitCode, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);

    const failed = outcomes.filter((o) => o.kind === 'failed');
    expect(failed).toEqual([]);
    const answered = outcomes.filter((o): o is Extract<Outcome, { kind: 'answered' }> => o.kind === 'answered');
    expect(answered.every((o) => o.status === 200)).toBe(true);
    expect(beforeSignal).toBeGreaterThanOrEqual(200);
    // Requests in flight at the signal, or already on their way, were answered.
    expect(answered.length).toBeGreaterThan(beforeSignal);
    expect(exited).toBe(0);
    expect(service.output.join('\n')).toContain('"msg":"stopped"');
  }, 120_000);
});
