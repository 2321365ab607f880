import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Task } from '../tasks/task.entity.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { eventually, liveClient } from '../../test/support/live-client.js';

/**
 * Issue 34, item 1: subscription events go through the one executor and its answer ceiling. The
 * socket's ceiling is LIVE_MAX_BUFFERED_BYTES (what a socket may hold unsent), scaled down here to
 * 8 KB so that a few tasks stand for the 1,400 of the audit.
 */
const BUDGET = 8 * 1024;
const MONDAY = '2026-11-23';
const MINE = 'subscription { myChanges { entity id kind committedAt } }';

/** The audit's document: one description fetched under 14 aliases, for every task of the week. */
const ALIASED_WEEK = `subscription ($s: LocalDate!) { weekChanged(startDate: $s) { days { tasks { ${Array.from({ length: 14 }, (_, i) => `d${i}: description`).join(' ')} } } } }`;

describe('live updates within the answer ceiling (LIVE_MAX_BUFFERED_BYTES = 8 KB)', () => {
  let app: TestApp;
  let anna: { client: HttpClient; id: string };

  beforeAll(async () => {
    app = await startTestApp({ LIVE_MAX_BUFFERED_BYTES: String(BUDGET), LIVE_KEEPALIVE_MS: '200' });
    anna = await signUp(app.url);
    const [dayId] = await weekDayIds(anna.client, MONDAY);
    // Three tasks of 1,000 characters: 14 aliases make a 42 KB answer from 3 KB of text.
    for (let i = 0; i < 3; i++) {
      const res = await anna.client.post('/api/v1/tasks', { title: `Long ${i}`, timebox: 30, dayId, description: `${i}`.repeat(1000) });
      expect(res.status, res.text).toBe(201);
    }
  });
  afterAll(async () => app?.close());

  it('an aliased weekChanged over long descriptions gets an error event instead of the frame, and the socket stays usable', async () => {
    const socket = liveClient(app.url, anna.client.cookie);
    try {
      // A subscription running beside it, which must go on (and keeps the lazy client's socket open).
      const mine = socket.follow(MINE);
      await mine.waitFor((r) => Array.isArray(r.data?.myChanges));
      const week = socket.follow(ALIASED_WEEK, { s: MONDAY });
      const refused = await week.waitFor(() => true, 5000);
      expect(refused.data ?? null).toBeNull();
      expect(refused.errors).toHaveLength(1);
      expect(refused.errors![0]).toMatchObject({ message: expect.stringMatching(/^Answer size limit of 8 KB exceeded/), extensions: { code: 'VALIDATION_ERROR', status: 400 } });
      // No frame carried the answer: every message is far under the ceiling.
      expect(Math.max(...socket.frameBytes)).toBeLessThan(BUDGET);
      // The socket was never closed, and the subscription beside it still hears a change.
      expect(socket.closes).toEqual([]);
      expect((await anna.client.post('/api/v1/tasks', { title: 'Short', timebox: 10 })).status).toBe(201);
      await mine.waitFor((r) => r.data?.myChanges?.some((c: any) => c.entity === 'Task' && c.kind === 'created'));
      // One alias fits: the ceiling refuses only what is over it.
      const plain = socket.follow(`subscription ($s: LocalDate!) { weekChanged(startDate: $s) { days { tasks { description } } } }`, { s: MONDAY });
      const answered = await plain.waitFor(() => true, 5000);
      expect(answered.errors).toBeUndefined();
      expect(answered.data.weekChanged.days.flatMap((d: any) => d.tasks).filter((t: any) => t.description)).toHaveLength(3);
      expect(socket.closes).toEqual([]);
    } finally {
      await socket.dispose();
    }
  });

  it('the event stream runs the same executor: a batch of changes over the ceiling is one error event, and the stream goes on', async () => {
    const controller = new AbortController();
    const res = await fetch(`${app.url}/api/v1/events/stream`, { headers: { cookie: anna.client.cookie! }, signal: controller.signal });
    expect(res.status).toBe(200);
    let text = '';
    const reader = res.body!.getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    try {
      await eventually(() => (text.includes(': live') ? true : undefined), 3000, 'the stream to open');
      // 120 tasks in one transaction: one event of 120 changes, about 15 KB as the executor measures it.
      await app.server.orm.em.fork().transactional(async (em) => {
        for (let i = 0; i < 120; i++) em.create(Task, { userId: anna.id, title: `Batch ${i}`, timebox: 10 } as never);
        await em.flush();
      });
      const error = await eventually(() => text.split('\n\n').find((e) => e.startsWith('event: error')), 3000, 'the error event');
      expect(JSON.parse(error.slice('event: error\ndata: '.length))).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^Answer size limit of 8 KB exceeded/) });
      // The refused event's changes were not written (later parts of the batch may come as their own,
      // smaller events: NOTIFY cuts a batch under 8,000 bytes).
      const events = text.split('\n\n');
      const firstChange = events.findIndex((e) => e.startsWith('event: change'));
      expect(firstChange === -1 || firstChange > events.indexOf(error)).toBe(true);
      expect(text.split('event: change').length - 1).toBeLessThan(120);
      const before = text.length;
      // A small change afterwards arrives as usual.
      const after = await app.server.orm.em.fork().transactional(async (em) => {
        const task = em.create(Task, { userId: anna.id, title: 'After', timebox: 10 } as never);
        await em.flush();
        return task as Task;
      });
      const change = await eventually(() => text.slice(before).split('\n\n').find((e) => e.includes(after.id)), 3000, 'the change event');
      expect(JSON.parse(change.slice(change.indexOf('data: ') + 'data: '.length))).toEqual({ entity: 'Task', id: after.id, kind: 'created', committedAt: expect.any(String), cursor: expect.stringMatching(/^\d+$/) });
    } finally {
      controller.abort();
    }
  });
});
