import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp } from '../support/http-client.js';
import { sql } from '../support/db.js';
import { createReminder, eventually, makeDue, startSmtp, taskOn, tomorrowUtc, verifyEmail } from '../../src/reminders/reminders.test-helpers.js';

/**
 * The mail server goes away under traffic and comes back (issue 34, item 3; docs/operations.md →
 * Dependencies). A real SMTP server (smtp-server) is closed and started again on its port; the reminder
 * engine is driven by scanOnce() (its own loop waits an hour) and a retry is made due in the database,
 * never slept through.
 */
type Mailbox = Awaited<ReturnType<typeof startSmtp>>;

describe('the SMTP server goes away and comes back', () => {
  let mailbox: Mailbox;
  let port: number;
  let app: TestApp;

  beforeAll(async () => {
    mailbox = await startSmtp();
    port = Number(new URL(mailbox.url).port);
    // READYZ_PROBE_CACHE_MS 0: /readyz asks the server each time, so the outage shows at once (no 5 s reuse waited out).
    app = await startTestApp({ SMTP_URL: mailbox.url, REMINDER_SCAN_INTERVAL_MS: '3600000', READYZ_PROBE_CACHE_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await mailbox?.close();
  });

  const readyz = async () => (await fetch(`${app.url}/readyz`)).json();
  const smtpState = (state: string) => (body: any) => body.data?.dependencies?.smtp?.state === state;
  const deliveryOf = async (reminderId: string) => (await sql(app.databaseUrl, 'select status, attempts, error from reminder_deliveries where reminder_id = $1', [reminderId]))[0];
  const scan = async () => {
    const engine = app.server.deps.reminders;
    await engine.scanOnce();
    await engine.idle();
  };

  it('keeps answering, says so in /readyz, and sends the deferred reminder mail once when it is back', async () => {
    const anna = await signUp(app.url);
    await verifyEmail(app.databaseUrl, anna.id);
    const task = await taskOn(anna.client, tomorrowUtc(2), 'Call the notary');
    const reminder = await createReminder(anna.client, { kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '09:00' });
    expect(await readyz()).toMatchObject({ ok: true, data: { status: 'ready', dependencies: { smtp: { state: 'up', required: false } } } });

    // The outage.
    await mailbox.close();
    const during = await eventually(readyz, smtpState('down'));
    expect(during).toMatchObject({ ok: true, data: { status: 'ready', dependencies: { database: { state: 'up' }, smtp: { state: 'down', required: false } } } });
    // A reset request answers as documented (the mail goes after the answer; that one is lost, logged).
    const anonymous = new HttpClient(app.url);
    expect((await anonymous.post('/api/v1/auth/request-password-reset', { email: anna.email })).status).toBe(200);
    await app.server.deps.background.idle();
    // Everything else works; a reminder mail that cannot go is kept for a retry, not lost.
    expect((await anna.client.get('/api/v1/tasks')).status).toBe(200);
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    expect(await deliveryOf(reminder.id)).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringContaining('mail not sent') });

    // Back on the same port: /readyz says so, the retry (made due now) sends the mail once.
    mailbox = await startSmtp(port);
    await eventually(readyz, smtpState('up'));
    await sql(app.databaseUrl, 'update reminder_deliveries set next_attempt_at = now() where reminder_id = $1', [reminder.id]);
    await scan();
    await scan(); // nothing left to send a second time
    const reminderMails = mailbox.mails.filter((m) => m.to.includes(anna.email) && m.raw.includes('Call the notary'));
    expect(reminderMails).toHaveLength(1);
    expect(await deliveryOf(reminder.id)).toMatchObject({ status: 'sent', attempts: 2 });
    // The next account mail goes too.
    expect((await anonymous.post('/api/v1/auth/request-password-reset', { email: anna.email })).status).toBe(200);
    await app.server.deps.background.idle();
    expect(mailbox.mails.filter((m) => m.to.includes(anna.email) && /reset/i.test(m.raw))).toHaveLength(1);
  }, 60_000);
});
