import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/http-client.js';
import { sql } from '../support/db.js';
import { createReminder, Receiver, makeDue, setPushUrl, taskOn, tomorrowUtc } from '../../src/reminders/reminders.test-helpers.js';

/**
 * A push service goes away under traffic and comes back (issue 34, item 3; docs/operations.md →
 * Dependencies): the push URL's real HTTP receiver is closed and started again on its port. The engine
 * is driven by scanOnce() and the retry made due in the database, never slept through.
 */
describe('a push service goes away and comes back', () => {
  let receiver: Receiver;
  let port: number;
  let app: TestApp;

  beforeAll(async () => {
    receiver = await Receiver.listen({});
    port = Number(new URL(receiver.url).port);
    app = await startTestApp({ REMINDER_SCAN_INTERVAL_MS: '3600000', REMINDER_ALLOW_PRIVATE_URLS: 'true', REMINDER_SEND_TIMEOUT_MS: '2000' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const push = async () => (await (await fetch(`${app.url}/readyz`)).json()).data.dependencies.push;
  const deliveryOf = async (reminderId: string) => (await sql(app.databaseUrl, 'select status, attempts, error from reminder_deliveries where reminder_id = $1', [reminderId]))[0];
  const scan = async () => {
    const engine = app.server.deps.reminders;
    await engine.scanOnce();
    await engine.idle();
  };

  it('defers the delivery, reports push degraded in /readyz, and delivers it once when the service is back', async () => {
    const anna = await signUp(app.url);
    const path = receiver.endpoint();
    await setPushUrl(anna.client, receiver.url + path);
    const task = await taskOn(anna.client, tomorrowUtc(2), 'Water the plants');
    const reminder = await createReminder(anna.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '09:00' });
    expect(await push()).toEqual({ state: 'up', required: false });

    // The outage: the send finds nobody, is kept for a retry, and /readyz says when it failed.
    await receiver.close();
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    expect(await deliveryOf(reminder.id)).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringContaining('ECONNREFUSED') });
    const degraded = await push();
    expect(degraded).toEqual({ state: 'degraded', required: false, lastFailureAt: expect.any(String) });
    // Push is optional: the instance stays ready and everything else answers.
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    expect((await anna.client.get('/api/v1/tasks')).status).toBe(200);

    // Back on the same port: the retry (made due now) delivers it once; /readyz says up again.
    receiver = await Receiver.listen({ port });
    await sql(app.databaseUrl, 'update reminder_deliveries set next_attempt_at = now() where reminder_id = $1', [reminder.id]);
    await scan();
    await scan(); // nothing left to send a second time
    expect(receiver.at(path)).toHaveLength(1);
    expect(receiver.at(path)[0]!.rawBody.toString()).toContain('Water the plants');
    expect(await deliveryOf(reminder.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await push()).toEqual({ state: 'up', required: false, lastSuccessAt: expect.any(String), lastFailureAt: degraded.lastFailureAt });
  }, 60_000);
});
