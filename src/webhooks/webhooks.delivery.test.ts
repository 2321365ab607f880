import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import type { WebhookEngine } from './webhook-engine.js';
import { createTask, createWebhook, eventually, Receiver, setPlan } from './webhooks.test-helpers.js';

/**
 * Deliveries end to end: the service in this process POSTs to a real HTTPS receiver on 127.0.0.1 (this
 * worker trusts the run's test CA: test/support/test-ca.ts). Receiver timeout 1000 ms. Retries are not
 * waited for: the backoff unit is a minute and a test moves the engine's clock (`engine.now`) to a
 * retry's due time and asks for the attempts due (`attemptDue`), as the job would when its time came.
 */
const UNIT = 60_000;
let receiver: Receiver;
let app: TestApp;
let engine: WebhookEngine;
let alice: HttpClient;

beforeAll(async () => {
  receiver = await Receiver.start(inject('testPki'));
  app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_BACKOFF_UNIT_MS: String(UNIT), WEBHOOK_TIMEOUT_MS: '1000' });
  engine = app.server.deps.webhooks;
  const signed = await signUp(app.url);
  alice = signed.client;
  await setPlan(app.databaseUrl, signed.id, 'pro');
});
afterEach(() => {
  engine.now = () => new Date();
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

/** The engine's clock at `at`, and the attempts due by then made and recorded. */
async function attemptDueAt(at: Date): Promise<void> {
  engine.now = () => at;
  await engine.attemptDue();
}

async function deliveryRow(webhookId: string): Promise<Record<string, unknown>> {
  const [row] = await sql(app.databaseUrl, 'select status, attempts, next_attempt_at from webhook_deliveries where webhook_id = $1', [webhookId]);
  return row!;
}

async function recordedAttempts(webhookId: string): Promise<number> {
  const [row] = await sql(app.databaseUrl, 'select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.webhook_delivery_id where d.webhook_id = $1', [webhookId]);
  return row!.n as number;
}

/** `create` writes the event; its first attempt goes at once, at the instant answered on the engine's clock, and is recorded. */
async function firstAttempt(webhookId: string, create: () => Promise<unknown>): Promise<Date> {
  // Ahead of the real clock, so the delivery (due when written) is due on it however slow the write.
  const start = new Date(Date.now() + 60_000);
  engine.now = () => start;
  await create();
  await eventually(() => recordedAttempts(webhookId), (n) => n === 1);
  return start;
}

async function deliveries(client: HttpClient, webhookId: string, query = ''): Promise<any> {
  const res = await client.get(`/api/v1/webhooks/${webhookId}/deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('a delivery', () => {
  it('POSTs the envelope with the four headers, signed over the exact raw body', async () => {
    const path = receiver.endpoint();
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43,}$/);
    const task = await createTask(alice, 'Signed delivery');
    const [req] = await receiver.waitFor(path, 1);

    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-svc-event']).toBe('task_created');
    const expected = `sha256=${createHmac('sha256', hook.secret).update(req!.rawBody).digest('hex')}`;
    expect(req!.headers['x-svc-signature']).toBe(expected);
    // A signature made with another secret, or over other bytes, does not match.
    expect(createHmac('sha256', 'whsec_other').update(req!.rawBody).digest('hex')).not.toBe(expected.slice(7));

    const body = JSON.parse(req!.rawBody.toString('utf8'));
    expect(Object.keys(body).sort()).toEqual(['data', 'event', 'timestamp']);
    expect(body.event).toBe('task_created');
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    // The task's createdAt is GraphQL's to answer (REST answers the spec's task fields).
    const { createdAt } = (await alice.graphql(`{ task(taskId: "${task.id}") { createdAt } }`)).body.data.task;
    expect(body.data).toEqual({ taskId: task.id, title: 'Signed delivery', createdAt });

    const page = await eventually(() => deliveries(alice, hook.id), (b) => b.data[0]?.status === 'success');
    const delivery = page.data[0];
    expect(req!.headers['x-svc-delivery-id']).toBe(delivery.deliveryId);
    expect(delivery).toMatchObject({ event: 'task_created', status: 'success', attempts: 1, responseStatusCode: 200, responseBody: 'ok' });
    expect(delivery.payload).toBe(req!.rawBody.toString('utf8'));
  });

  it('retries a 5xx exactly up to 5 attempts, 1, 2, 4 and 8 units apart, with the same delivery id', async () => {
    const path = receiver.endpoint(() => ({ status: 503, body: 'try later' }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    let last = await firstAttempt(hook.id, () => createTask(alice, 'Always failing'));
    expect(receiver.at(path)).toHaveLength(1);
    for (const [i, units] of [1, 2, 4, 8].entries()) {
      const due = new Date(last.getTime() + units * UNIT);
      expect(await deliveryRow(hook.id)).toEqual({ status: 'pending', attempts: i + 1, next_attempt_at: due });
      // Not a millisecond early; at its time, once.
      await attemptDueAt(new Date(due.getTime() - 1));
      expect(receiver.at(path)).toHaveLength(i + 1);
      await attemptDueAt(due);
      await attemptDueAt(due);
      expect(receiver.at(path)).toHaveLength(i + 2);
      last = due;
    }
    const requests = receiver.at(path);
    const ids = new Set(requests.map((r) => r.headers['x-svc-delivery-id']));
    expect(ids.size).toBe(1);
    expect(new Set(requests.map((r) => r.rawBody.toString('hex'))).size).toBe(1);
    const page = await deliveries(alice, hook.id);
    expect(page.data[0]).toMatchObject({ status: 'failed', attempts: 5, responseStatusCode: 503, responseBody: 'try later', nextAttemptAt: null });
    // No sixth attempt, however late.
    await attemptDueAt(new Date(last.getTime() + 100 * UNIT));
    expect(receiver.at(path)).toHaveLength(5);
    // The history has every attempt.
    const history = await alice.graphql(
      `query($id: UUID!) { webhookDeliveries(webhookId: $id) { items { attemptHistory { attempt responseStatusCode responseBody } } } }`,
      { id: hook.id },
    );
    expect(history.body.data.webhookDeliveries.items[0].attemptHistory).toEqual(
      [1, 2, 3, 4, 5].map((attempt) => ({ attempt, responseStatusCode: 503, responseBody: 'try later' })),
    );
  });

  it('does not retry a 4xx', async () => {
    const path = receiver.endpoint(() => ({ status: 401, body: 'who are you' }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    await createTask(alice, 'Refused');
    await receiver.waitFor(path, 1);
    const page = await eventually(() => deliveries(alice, hook.id), (b) => b.data[0]?.status === 'failed');
    expect(page.data[0]).toMatchObject({ attempts: 1, responseStatusCode: 401, responseBody: 'who are you', nextAttemptAt: null });
    // Not retried, however late.
    await attemptDueAt(new Date(Date.now() + 100 * UNIT));
    expect(receiver.at(path)).toHaveLength(1);
  });

  it('retries after a timeout and then succeeds', async () => {
    const path = receiver.endpoint((_req, count) => (count === 1 ? { status: 200, body: 'too late', delayMs: 2500 } : { status: 202, body: 'accepted' }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    // The first attempt gives up after the receiver timeout (1000 ms); the retry is due a unit later.
    const start = await firstAttempt(hook.id, () => createTask(alice, 'Slow receiver'));
    const due = new Date(start.getTime() + UNIT);
    expect(await deliveryRow(hook.id)).toEqual({ status: 'pending', attempts: 1, next_attempt_at: due });
    await attemptDueAt(new Date(due.getTime() - 1));
    expect(receiver.at(path)).toHaveLength(1);
    await attemptDueAt(due);
    const requests = receiver.at(path);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['x-svc-delivery-id']).toBe(requests[0]!.headers['x-svc-delivery-id']);
    const page = await eventually(() => deliveries(alice, hook.id), (b) => b.data[0]?.status === 'success');
    expect(page.data[0]).toMatchObject({ attempts: 2, responseStatusCode: 202, responseBody: 'accepted' });
    const history = await alice.graphql(
      `query($id: UUID!) { webhookDeliveries(webhookId: $id) { items { attemptHistory { attempt responseStatusCode error } } } }`,
      { id: hook.id },
    );
    const [first, second] = history.body.data.webhookDeliveries.items[0].attemptHistory;
    expect(first).toMatchObject({ attempt: 1, responseStatusCode: null });
    expect(first.error).toMatch(/timed out after 1000 ms/);
    expect(second).toMatchObject({ attempt: 2, responseStatusCode: 202, error: null });
  });

  it('keeps 1000 characters of a long response body', async () => {
    const long = 'é'.repeat(1500) + 'tail';
    const path = receiver.endpoint(() => ({ status: 422, body: long }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    await createTask(alice, 'Verbose receiver');
    const page = await eventually(() => deliveries(alice, hook.id), (b) => b.data[0]?.status === 'failed');
    expect(page.data[0].responseBody).toBe('é'.repeat(1000));
    const [row] = await sql(app.databaseUrl, 'select char_length(response_body) as n from webhook_attempts where webhook_delivery_id = $1', [page.data[0].id]);
    expect(row!.n).toBe(1000);
  });
});

describe('a paused webhook', () => {
  it('gets no delivery for events while paused, and again after it is resumed', async () => {
    const path = receiver.endpoint();
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    expect((await alice.put(`/api/v1/webhooks/${hook.id}`, { active: false })).body.data.active).toBe(false);
    await createTask(alice, 'While paused');
    // Its event dispatched (deliveries are made in the transaction that marks it), and none made.
    await eventually(() => sql(app.databaseUrl, 'select count(*)::int as n from event_outbox where dispatched_at is null'), (rows) => rows[0]!.n === 0);
    expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveries(alice, hook.id)).meta.total).toBe(0);

    await alice.put(`/api/v1/webhooks/${hook.id}`, { active: true });
    await createTask(alice, 'Resumed');
    const [req] = await receiver.waitFor(path, 1);
    expect(JSON.parse(req!.rawBody.toString()).data.title).toBe('Resumed');
  });

  it('does not fire its pending retries', async () => {
    // The first attempt's failure is held until the webhook is paused, so its retry (due one unit later)
    // cannot fire before the pause, however slow the machine.
    let paused!: () => void;
    const pausedNow = new Promise<void>((resolve) => (paused = resolve));
    const path = receiver.endpoint(() => ({ status: 500, body: 'down', until: pausedNow }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    await createTask(alice, 'Retry then pause');
    await receiver.waitFor(path, 1);
    expect((await alice.put(`/api/v1/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    paused();
    await eventually(() => recordedAttempts(hook.id), (n) => n === 1);
    // However late, the retry does not go, and the delivery fails saying why.
    await attemptDueAt(new Date(Date.now() + 100 * UNIT));
    expect(receiver.at(path)).toHaveLength(1);
    const page = await deliveries(alice, hook.id);
    expect(page.data[0]).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(page.data[0].lastError).toMatch(/paused/i);
  });
});

describe('the history', () => {
  it('lists deliveries newest first with status and event filters, pages, and per-webhook stats', async () => {
    // task_completed is refused by the receiver (400), task_created accepted.
    const path = receiver.endpoint((req) => (JSON.parse(req.rawBody.toString()).event === 'task_completed' ? { status: 400, body: 'no' } : { status: 200 }));
    const hook = await createWebhook(alice, receiver.url + path, ['task_created', 'task_completed']);
    const tasks = [];
    for (const title of ['one', 'two', 'three']) tasks.push(await createTask(alice, title));
    await alice.patch(`/api/v1/tasks/${tasks[0].id}`, { status: 'done' });
    await receiver.waitFor(path, 4);
    await eventually(() => deliveries(alice, hook.id), (b) => b.data.length === 4 && b.data.every((d: any) => d.status !== 'pending'));

    const all = await deliveries(alice, hook.id);
    expect(all.meta).toEqual({ page: 1, limit: 50, total: 4 });
    expect(all.data[0].event).toBe('task_completed');
    expect((await deliveries(alice, hook.id, '?event=task_completed')).data.map((d: any) => d.status)).toEqual(['failed']);
    const ok = await deliveries(alice, hook.id, '?status=success');
    expect(ok.meta.total).toBe(3);
    expect(ok.data.every((d: any) => d.event === 'task_created')).toBe(true);
    expect((await deliveries(alice, hook.id, '?status=failed&event=task_created')).meta.total).toBe(0);
    const page2 = await deliveries(alice, hook.id, '?limit=3&page=2');
    expect(page2.meta).toEqual({ page: 2, limit: 3, total: 4 });
    expect(page2.data).toHaveLength(1);
    expect(page2.data[0].id).toBe(all.data[3].id);
    expect((await alice.get(`/api/v1/webhooks/${hook.id}/deliveries?status=lost`)).status).toBe(400);

    const list = await alice.get('/api/v1/webhooks');
    const mine = list.body.data.find((w: any) => w.id === hook.id);
    expect(mine.stats).toEqual({ total: 4, success: 3, failed: 1, pending: 0 });
    expect(mine).not.toHaveProperty('secret');
    expect(mine.secretPrefix).toBe(hook.secret.slice(0, mine.secretPrefix.length));
  });
});

describe('POST /webhooks/:webhookId/test', () => {
  it('sends dummy data when the webhook subscribes to `test`, and answers what happened', async () => {
    const path = receiver.endpoint();
    const hook = await createWebhook(alice, receiver.url + path, ['test', 'task_created']);
    const res = await alice.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sent: true, event: 'test', delivery: { status: 'success', attempts: 1, responseStatusCode: 200 } });
    const [req] = receiver.at(path);
    const body = JSON.parse(req!.rawBody.toString());
    expect(body.event).toBe('test');
    expect(Object.keys(body.data).sort()).toEqual(['message', 'timestamp']);
    expect(req!.headers['x-svc-event']).toBe('test');
    expect(req!.headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', hook.secret).update(req!.rawBody).digest('hex')}`);

    const named = await alice.post(`/api/v1/webhooks/${hook.id}/test`, { event: 'task_created' });
    expect(named.body.data).toMatchObject({ sent: true, event: 'task_created' });
    expect(receiver.at(path)[1]!.headers['x-svc-event']).toBe('task_created');
    expect((await deliveries(alice, hook.id, '?event=test')).meta.total).toBe(1);
  });

  it('sends nothing when the event is not subscribed or the webhook is paused', async () => {
    const path = receiver.endpoint();
    const hook = await createWebhook(alice, receiver.url + path, ['task_created']);
    const res = await alice.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sent: false, event: 'test', delivery: null });
    const other = await alice.post(`/api/v1/webhooks/${hook.id}/test`, { event: 'task_completed' });
    expect(other.body.data).toMatchObject({ sent: false, event: 'task_completed' });
    await alice.put(`/api/v1/webhooks/${hook.id}`, { active: false });
    const paused = await alice.post(`/api/v1/webhooks/${hook.id}/test`, { event: 'task_created' });
    expect(paused.body.data).toMatchObject({ sent: false, delivery: null });
    expect(paused.body.data.message).toMatch(/paused/);
    const unknown = await alice.post(`/api/v1/webhooks/${hook.id}/test`, { event: 'task_exploded' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveries(alice, hook.id)).meta.total).toBe(0);
  });

  it('reports a failing receiver', async () => {
    const path = receiver.endpoint(() => ({ status: 404, body: 'nope' }));
    const hook = await createWebhook(alice, receiver.url + path, ['test']);
    const res = await alice.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(res.body.data).toMatchObject({ sent: true, delivery: { status: 'failed', responseStatusCode: 404, responseBody: 'nope' } });
    expect(res.body.data.message).toMatch(/404/);
  });
});

describe('deleting a webhook', () => {
  it('removes it with its whole history', async () => {
    const path = receiver.endpoint();
    const hook = await createWebhook(alice, receiver.url + path, ['test']);
    await alice.post(`/api/v1/webhooks/${hook.id}/test`);
    const res = await alice.delete(`/api/v1/webhooks/${hook.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: hook.id, message: 'Webhook deleted' });
    expect((await alice.get(`/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
    const [row] = await sql(app.databaseUrl, 'select (select count(*) from webhook_deliveries where webhook_id = $1)::int as d, (select count(*) from webhook_attempts a join webhook_deliveries d on d.id = a.webhook_delivery_id where d.webhook_id = $1)::int as a', [hook.id]);
    expect(row).toEqual({ d: 0, a: 0 });
    const [left] = await sql(app.databaseUrl, 'select count(*)::int as n from webhook_attempts');
    expect(left!.n).toBeGreaterThan(0);
  });
});
