import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { keyHolder } from '../public-api/public-api.test-helpers.js';
import { createWebhook } from './webhooks.test-helpers.js';

/**
 * The outbox trigger wakes the dispatcher only for events an active endpoint subscribes to (issue 18):
 * a user without webhooks costs no dispatch round per write, and the poll still marks those events.
 */
let app: TestApp;
let listener: pg.Client;
const notifications: number[] = [];
let waiter: (() => void) | undefined;

beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  listener = new pg.Client({ connectionString: app.databaseUrl });
  await listener.connect();
  listener.on('notification', () => {
    notifications.push(Date.now());
    waiter?.();
  });
  await listener.query('LISTEN lp_event_outbox');
});
afterAll(async () => {
  await listener?.end();
  await app?.close();
});

function nextNotification(): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no notification within 10 s')), 10_000);
    waiter = () => {
      clearTimeout(timer);
      waiter = undefined;
      resolve();
    };
  });
}

describe('the outbox notification', () => {
  it('is sent for an event with a subscribed active endpoint and not for one nobody subscribes to; the poll marks the latter', async () => {
    const quiet = await keyHolder(app);
    const subscriber = await keyHolder(app);
    await createWebhook(subscriber.client, 'https://127.0.0.1:9/hook', ['water_logged']);
    // A paused endpoint subscribed to the event does not count.
    const paused = await keyHolder(app);
    const hook = await createWebhook(paused.client, 'https://127.0.0.1:9/hook', ['water_logged']);
    expect((await paused.client.put(`/api/v1/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    notifications.length = 0;

    const unsubscribed = await quiet.api.post('/water', { volume: 250 });
    expect(unsubscribed.status, unsubscribed.text).toBe(200);
    expect((await paused.api.post('/water', { volume: 250 })).status).toBe(200);
    // Notifications reach the one listener in commit order: the subscriber's is the first to arrive.
    const notified = nextNotification();
    const subscribed = await subscriber.api.post('/water', { volume: 300 });
    expect(subscribed.status, subscribed.text).toBe(200);
    await notified;
    expect(notifications).toHaveLength(1);

    // The subscriber's event became a delivery; the others are marked dispatched by the poll, with none.
    await expect
      .poll(async () => (await sql(app.databaseUrl, `select count(*)::int as n from event_outbox where dispatched_at is null and user_id = any($1)`, [[quiet.id, paused.id, subscriber.id]]))[0]!.n, { timeout: 15_000 })
      .toBe(0);
    const deliveries = await sql(app.databaseUrl, `select user_id, event from webhook_deliveries where user_id = any($1)`, [[quiet.id, paused.id, subscriber.id]]);
    expect(deliveries).toEqual([{ user_id: subscriber.id, event: 'water_logged' }]);
  }, 30_000);
});
