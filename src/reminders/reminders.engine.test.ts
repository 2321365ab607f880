import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { taskAtTimeKind } from './kinds/task-at-time.js';
import { localInstant } from './kinds/local-time.js';
import type { ReminderEngine } from './reminder-engine.js';
import { kindContext } from './reminder-kind.js';
import { quietHoursEnd } from './quiet-hours.js';
import {
  createReminder,
  eventually,
  Receiver,
  makeDue,
  setPushUrl,
  setTimezone,
  startSmtp,
  taskOn,
  tomorrowUtc,
  verifyEmail,
} from './reminders.test-helpers.js';

/**
 * The engine in the service's own process, driven by `scanOnce(now)` (the loop's interval is an hour):
 * a fixed `now` walks a reminder through chosen dates, so daylight-saving changes are met on their
 * days without waiting for them. Channels are real: an HTTP receiver for the push URL, an SMTP server.
 */
/** The rich client's address (issue 34, item 13): reminder links open there, not on the JSON resource. */
const APP_URL = 'https://app.example.com/planner';
let app: TestApp;
let engine: ReminderEngine;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  receiver = await Receiver.listen({});
  smtp = await startSmtp();
  app = await startTestApp({ REMINDER_SCAN_INTERVAL_MS: '3600000', REMINDER_ALLOW_PRIVATE_URLS: 'true', REMINDER_SEND_TIMEOUT_MS: '2000', SMTP_URL: smtp.url, APP_URL: `${APP_URL}/` });
  engine = app.server.deps.reminders;
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await smtp?.close();
});

async function scan(now?: Date): Promise<void> {
  await engine.scanOnce(now);
  await engine.idle();
}

async function deliveriesOf(reminderId: string) {
  return sql(app.databaseUrl, 'select occurrence_key, due_at, status, attempts, error, held_until, sent_at from reminder_deliveries where reminder_id = $1 order by due_at', [reminderId]);
}

async function reminderRow(reminderId: string) {
  const [row] = await sql(app.databaseUrl, 'select next_due_at, next_occurrence_key, active from reminders where id = $1', [reminderId]);
  return row!;
}

/** A daily series (its first task holds the rule), written as the recurring tasks store it. */
async function dailySeries(userId: string, start: string, title: string): Promise<string> {
  const id = randomUUID();
  await sql(
    app.databaseUrl,
    `insert into tasks (id, created_at, updated_at, user_id, title, timebox, status, recurrence, series_id, occurrence_date)
     values ($1, now(), now(), $2, $3, 30, 'todo', 'FREQ=DAILY', $1, $4)`,
    [id, userId, title, start],
  );
  return id;
}

async function user(timezone: string, pushPath?: string): Promise<{ client: HttpClient; id: string; email: string }> {
  const u = await signUp(app.url);
  await setTimezone(u.client, timezone);
  if (pushPath) await setPushUrl(u.client, receiver.url + pushPath);
  return u;
}

describe('daylight-saving time', () => {
  const zones = [
    // Europe/Paris: CET +1 → CEST +2 on 2026-03-29, back on 2026-10-25.
    { zone: 'Europe/Paris', spring: '2026-03-29', autumn: '2026-10-25', winterUtc: '06:00', summerUtc: '05:00' },
    // America/New_York: EST −5 → EDT −4 on 2026-03-08, back on 2026-11-01.
    { zone: 'America/New_York', spring: '2026-03-08', autumn: '2026-11-01', winterUtc: '12:00', summerUtc: '11:00' },
  ];

  for (const { zone, spring, autumn, winterUtc, summerUtc } of zones) {
    it(`keeps a daily 07:00 reminder at 07:00 local in ${zone} across both changes (the kind, day by day for a year)`, async () => {
      const u = await user(zone);
      const seriesId = await dailySeries(u.id, '2026-01-01', 'Stretch');
      const spec = { id: randomUUID(), userId: u.id, kind: 'task_at_time' as const, targetId: seriesId, offsetMinutes: 0, localTime: '07:00' };
      const ctx = kindContext({ deps: app.server.deps, em: app.server.orm.em.fork() }, zone);
      let after = new Date('2026-01-01T00:00:00Z');
      const seen: { key: string; utc: string }[] = [];
      for (let i = 0; i < 365; i++) {
        const next = (await taskAtTimeKind.nextOccurrence(ctx, spec, after))!;
        const local = DateTime.fromJSDate(next.dueAt, { zone });
        expect(local.toFormat('HH:mm'), next.dueAt.toISOString()).toBe('07:00');
        expect(local.toISODate()).toBe(next.key);
        if (seen.length) expect(next.key).toBe(DateTime.fromISO(seen.at(-1)!.key).plus({ days: 1 }).toISODate());
        seen.push({ key: next.key, utc: next.dueAt.toISOString().slice(11, 16) });
        after = next.dueAt;
      }
      const utcOn = (date: string) => seen.find((s) => s.key === date)!.utc;
      const dayBefore = (date: string) => DateTime.fromISO(date).minus({ days: 1 }).toISODate()!;
      expect([utcOn(dayBefore(spring)), utcOn(spring)]).toEqual([winterUtc, summerUtc]);
      expect([utcOn(dayBefore(autumn)), utcOn(autumn)]).toEqual([summerUtc, winterUtc]);
    });

    it(`sends each occurrence once, at 07:00 local, when the scanner walks ${zone}'s changes`, async () => {
      const path = receiver.endpoint();
      const u = await user(zone, path);
      const seriesId = await dailySeries(u.id, '2026-01-01', 'Morning pages');
      const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: seriesId, channel: 'push_url', localTime: '07:00' });
      const walk = async (from: string, days: number) => {
        await sql(app.databaseUrl, 'update reminders set next_due_at = $2, next_occurrence_key = $3 where id = $1', [reminder.id, localInstant(from, '07:00', zone), from]);
        for (let i = 0; i < days; i++) {
          const { next_due_at } = await reminderRow(reminder.id);
          await scan(new Date(next_due_at));
          // The same minute again (a second instance, a restart): nothing new.
          await scan(new Date(next_due_at));
        }
      };
      const twoBefore = (date: string) => DateTime.fromISO(date).minus({ days: 2 }).toISODate()!;
      await walk(twoBefore(spring), 4);
      await walk(twoBefore(autumn), 4);
      const rows = await deliveriesOf(reminder.id);
      expect(rows.map((r) => r.status)).toEqual(Array(8).fill('sent'));
      for (const row of rows) expect(DateTime.fromJSDate(row.due_at, { zone }).toFormat('yyyy-MM-dd HH:mm')).toBe(`${row.occurrence_key} 07:00`);
      const utc = rows.map((r) => (r.due_at as Date).toISOString().slice(11, 16));
      expect(utc).toEqual([winterUtc, winterUtc, summerUtc, summerUtc, summerUtc, summerUtc, winterUtc, winterUtc]);
      // Each occurrence reached the receiver once, named by its key.
      const keys = receiver.at(path).map((r) => r.headers['x-reminder-occurrence']);
      expect(keys).toEqual(rows.map((r) => r.occurrence_key));
      // After the walk the reminder waits for the next day's 07:00.
      const { next_occurrence_key } = await reminderRow(reminder.id);
      expect(next_occurrence_key).toBe(DateTime.fromISO(autumn).plus({ days: 2 }).toISODate());
    });
  }

  it('holds an occurrence in quiet hours until they end, in local time across a change', () => {
    // 22:00-07:00 in Paris; an occurrence at 23:30 on the night the clocks go back ends at 07:00 CET.
    const at = localInstant('2026-10-24', '23:30', 'Europe/Paris');
    expect(quietHoursEnd(at, 'Europe/Paris', '22:00', '07:00')!.toISOString()).toBe('2026-10-25T06:00:00.000Z');
    expect(quietHoursEnd(localInstant('2026-10-25', '06:59', 'Europe/Paris'), 'Europe/Paris', '22:00', '07:00')!.toISOString()).toBe('2026-10-25T06:00:00.000Z');
    expect(quietHoursEnd(localInstant('2026-10-25', '07:00', 'Europe/Paris'), 'Europe/Paris', '22:00', '07:00')).toBeNull();
    expect(quietHoursEnd(localInstant('2026-03-10', '13:00', 'America/New_York'), 'America/New_York', '12:30', '14:00')!.toISOString()).toBe('2026-03-10T18:00:00.000Z');
    expect(quietHoursEnd(at, 'Europe/Paris', null, null)).toBeNull();
  });
});

describe('delivery', () => {
  it('POSTs a due occurrence to the push URL (ntfy style) once, and the one-off reminder has nothing left', async () => {
    const path = receiver.endpoint();
    const u = await user('Europe/Paris', path);
    const date = tomorrowUtc(2);
    const task = await taskOn(u.client, date, 'Call the bank — ☎');
    const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '09:30' });
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    await scan();
    const [req] = await receiver.waitFor(path, 1);
    expect(receiver.at(path)).toHaveLength(1);
    expect(req!.rawBody.toString('utf8')).toContain('Call the bank — ☎ — today at 09:30');
    expect(req!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(String(req!.headers.title))![1]!, 'base64').toString('utf8')).toBe('Call the bank — ☎');
    // A deep link into the rich client (APP_URL, its trailing slash dropped), not the JSON resource.
    expect(req!.headers.click).toBe(`${APP_URL}/tasks/${task.id}`);
    expect(req!.headers['x-reminder-id']).toBe(reminder.id);
    expect(req!.headers['x-reminder-occurrence']).toBe(date);
    const [delivery] = await deliveriesOf(reminder.id);
    expect(delivery).toMatchObject({ occurrence_key: date, status: 'sent', attempts: 1 });
    // Made due early, the occurrence is still ahead by the clock: the reminder waits for it again, under the
    // same key. When that time comes, its delivery exists already: nothing more is sent, nothing is left.
    const again = await reminderRow(reminder.id);
    expect(again).toMatchObject({ next_occurrence_key: date });
    expect((again.next_due_at as Date).toISOString()).toBe(reminder.nextDueAt);
    await scan(new Date(reminder.nextDueAt));
    expect(receiver.at(path)).toHaveLength(1);
    expect(await deliveriesOf(reminder.id)).toHaveLength(1);
    expect(await reminderRow(reminder.id)).toMatchObject({ next_due_at: null, next_occurrence_key: null });
    const listed = await u.client.get(`/api/v1/reminders/${reminder.id}/deliveries`);
    expect(listed.body.data).toEqual([expect.objectContaining({ occurrenceKey: date, status: 'sent', channel: 'push_url', attempts: 1 })]);
    expect((await u.client.get(`/api/v1/reminders/${reminder.id}`)).body.data.nextDueAt).toBeNull();
  });

  it("links a daily reminder to its day in the rich client (APP_URL/days/<date>), whatever the channel's payload", async () => {
    const path = receiver.endpoint();
    const u = await user('Europe/Paris', path);
    const reminder = await createReminder(u.client, { kind: 'morning_brief', channel: 'push_url' });
    const { next_occurrence_key } = await reminderRow(reminder.id);
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    const [req] = await receiver.waitFor(path, 1);
    expect(req!.headers.click).toBe(`${APP_URL}/days/${next_occurrence_key}`);
  });

  it('sends one person at most REMINDER_SENDS_PER_MINUTE (20) a minute over every channel; the rest wait for the next minute, none lost', async () => {
    const path = receiver.endpoint();
    const u = await user('UTC', path);
    const other = await user('UTC', receiver.endpoint());
    const task = await taskOn(u.client, tomorrowUtc(2), 'Stand up');
    const first = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '10:00' });
    // 24 more of the same (as 500 reminders would): 25 occurrences due in one minute.
    await sql(
      app.databaseUrl,
      `insert into reminders (id, created_at, updated_at, user_id, kind, target_id, channel, offset_minutes, local_time, active, next_due_at, next_occurrence_key)
       select gen_random_uuid(), now(), now(), user_id, kind, target_id, channel, offset_minutes, local_time, active, next_due_at, next_occurrence_key
         from reminders, generate_series(1, 24) where id = $1`,
      [first.id],
    );
    const ids = (await sql(app.databaseUrl, 'select id from reminders where user_id = $1', [u.id])).map((r) => r.id as string);
    const otherTask = await taskOn(other.client, tomorrowUtc(2), 'Water');
    const otherReminder = await createReminder(other.client, { kind: 'task_at_time', targetId: otherTask.id, channel: 'push_url', localTime: '10:00' });
    await makeDue(app.databaseUrl, [...ids, otherReminder.id]);
    // The dispatcher's clock: one minute, then the next (never waited for).
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
    try {
      engine.dispatcher.now = () => new Date(minute.getTime() + 5_000);
      await scan(new Date(minute.getTime() + 5_000));
      await scan(new Date(minute.getTime() + 30_000));
      expect(receiver.at(path)).toHaveLength(20);
      const rows = await sql(app.databaseUrl, "select status, attempts, next_attempt_at, error from reminder_deliveries where user_id = $1 and status = 'pending'", [u.id]);
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        expect(row).toMatchObject({ attempts: 0, error: expect.stringContaining('REMINDER_SENDS_PER_MINUTE') });
        expect((row.next_attempt_at as Date).getTime()).toBe(minute.getTime() + 60_000);
      }
      // Another person's reminder in the same minute is not held by the first one's budget.
      expect(await deliveriesOf(otherReminder.id)).toEqual([expect.objectContaining({ status: 'sent' })]);

      engine.dispatcher.now = () => new Date(minute.getTime() + 60_000);
      await scan(new Date(minute.getTime() + 60_000));
      expect(receiver.at(path)).toHaveLength(25);
      const statuses = await sql(app.databaseUrl, 'select status, attempts, error from reminder_deliveries where user_id = $1', [u.id]);
      expect(statuses).toHaveLength(25);
      expect(statuses.every((r) => r.status === 'sent' && r.attempts === 1 && r.error === null)).toBe(true);
    } finally {
      engine.dispatcher.now = () => new Date();
    }
  });

  it('claims an occurrence due within the minute ahead and sends it at its due time, not before; a new time drops it', async () => {
    const path = receiver.endpoint();
    const u = await user('UTC', path);
    const task = await taskOn(u.client, tomorrowUtc(2), 'Soon');
    const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '10:00' });
    const soon = new Date(Date.now() + 2500);
    await sql(app.databaseUrl, 'update reminders set next_due_at = $2 where id = $1', [reminder.id, soon]);
    await engine.scanOnce();
    const [scheduled] = await deliveriesOf(reminder.id);
    expect(scheduled).toMatchObject({ status: 'pending', attempts: 0 });
    expect(receiver.at(path)).toHaveLength(0);
    const [req] = await receiver.waitFor(path, 1, 10_000);
    expect(req!.at).toBeGreaterThanOrEqual(soon.getTime());
    expect(req!.at - soon.getTime()).toBeLessThan(1000);
    await eventually(() => deliveriesOf(reminder.id), (rows) => rows[0]?.status === 'sent');

    // Scheduled ahead, then moved to another time before it went out: the old occurrence is dropped.
    const other = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '11:00' });
    await sql(app.databaseUrl, 'update reminders set next_due_at = now() + interval \'30 seconds\' where id = $1', [other.id]);
    await engine.scanOnce();
    expect(await deliveriesOf(other.id)).toMatchObject([{ status: 'pending' }]);
    const moved = await u.client.patch(`/api/v1/reminders/${other.id}`, { localTime: '11:30' });
    expect(moved.body.data.nextDueAt).toBe(localInstant(tomorrowUtc(2), '11:30', 'UTC').toISOString());
    expect(await deliveriesOf(other.id)).toEqual([]);
  });

  it('does not send an occurrence whose task was done (or deleted) meanwhile: it is recorded as skipped', async () => {
    const path = receiver.endpoint();
    const u = await user('UTC', path);
    const done = await taskOn(u.client, tomorrowUtc(2), 'Done already');
    const removed = await taskOn(u.client, tomorrowUtc(2), 'Deleted');
    const r1 = await createReminder(u.client, { kind: 'task_at_time', targetId: done.id, channel: 'push_url', localTime: '10:00' });
    const r2 = await createReminder(u.client, { kind: 'task_at_time', targetId: removed.id, channel: 'push_url', localTime: '10:00' });
    await u.client.patch(`/api/v1/tasks/${done.id}`, { status: 'done' });
    await u.client.delete(`/api/v1/tasks/${removed.id}`);
    await makeDue(app.databaseUrl, [r1.id, r2.id]);
    await scan();
    expect(receiver.at(path)).toHaveLength(0);
    for (const id of [r1.id, r2.id]) {
      const [row] = await deliveriesOf(id);
      expect(row).toMatchObject({ status: 'skipped', error: expect.stringContaining('No longer due') });
    }
  });

  it('holds an occurrence falling in quiet hours until they end, then sends it', async () => {
    const path = receiver.endpoint();
    const u = await user('Europe/Paris', path);
    await u.client.patch('/api/v1/notifications/settings', { quietHoursStart: '22:00', quietHoursEnd: '07:00' });
    const date = tomorrowUtc(2);
    const task = await taskOn(u.client, date, 'Late thought');
    const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '23:15' });
    // The scan at its due time: 23:15 is quiet, so it waits until 07:00 the next morning.
    await scan(new Date(reminder.nextDueAt));
    const [held] = await deliveriesOf(reminder.id);
    const end = localInstant(DateTime.fromISO(date).plus({ days: 1 }).toISODate()!, '07:00', 'Europe/Paris');
    expect(held).toMatchObject({ status: 'pending', attempts: 0 });
    expect((held!.held_until as Date).toISOString()).toBe(end.toISOString());
    expect(receiver.at(path)).toHaveLength(0);
    // The morning comes (its hold moved to now): sent once.
    await sql(app.databaseUrl, `update reminder_deliveries set next_attempt_at = now() where reminder_id = $1`, [reminder.id]);
    await scan();
    await receiver.waitFor(path, 1);
    expect((await deliveriesOf(reminder.id))[0]).toMatchObject({ status: 'sent' });
  });

  it('clears the push URL when it answers 410, and retries a 503 later', async () => {
    const gonePath = receiver.endpoint(() => ({ status: 410, body: 'topic deleted' }));
    const u = await user('UTC', gonePath);
    const task = await taskOn(u.client, tomorrowUtc(2), 'Gone');
    const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '10:00' });
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    expect((await deliveriesOf(reminder.id))[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('answered 410') });
    expect((await u.client.get('/api/v1/notifications/settings')).body.data.pushUrl).toBeNull();

    const busyPath = receiver.endpoint((_req, count) => (count === 1 ? { status: 503 } : { status: 200 }));
    await setPushUrl(u.client, receiver.url + busyPath);
    const other = await taskOn(u.client, tomorrowUtc(2), 'Busy');
    const retried = await createReminder(u.client, { kind: 'task_at_time', targetId: other.id, channel: 'push_url', localTime: '10:00' });
    await makeDue(app.databaseUrl, [retried.id]);
    // The dispatcher's clock: the retry is due one backoff unit (a minute) after the failed attempt, not before.
    const at = new Date(Date.now() + 1000);
    const walkTo = async (instant: Date) => {
      engine.dispatcher.now = () => instant;
      await scan(instant);
    };
    try {
      await walkTo(at);
      expect((await deliveriesOf(retried.id))[0]).toMatchObject({ status: 'pending', attempts: 1, error: 'answered 503' });
      const [pending] = await sql(app.databaseUrl, 'select next_attempt_at from reminder_deliveries where reminder_id = $1', [retried.id]);
      expect(pending!.next_attempt_at).toEqual(new Date(at.getTime() + 60_000));
      await walkTo(new Date(at.getTime() + 59_999));
      expect(receiver.at(busyPath)).toHaveLength(1);
      await walkTo(new Date(at.getTime() + 60_000));
    } finally {
      engine.dispatcher.now = () => new Date();
    }
    expect((await deliveriesOf(retried.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(receiver.at(busyPath)).toHaveLength(2);
  });

  it('mails the occurrence through a real SMTP server to a verified address only', async () => {
    const u = await user('Europe/Paris');
    const task = await taskOn(u.client, tomorrowUtc(2), 'Renew passport');
    const reminder = await createReminder(u.client, { kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '08:00' });
    await makeDue(app.databaseUrl, [reminder.id]);
    await scan();
    expect((await deliveriesOf(reminder.id))[0]).toMatchObject({ status: 'failed', error: "The account's email address is not verified" });
    const reminderMails = () => smtp.mails.filter((m) => m.to.includes(u.email) && m.raw.includes('Renew passport'));
    expect(reminderMails()).toHaveLength(0);

    await verifyEmail(app.databaseUrl, u.id);
    const other = await taskOn(u.client, tomorrowUtc(2), 'Renew passport, again');
    const verified = await createReminder(u.client, { kind: 'task_at_time', targetId: other.id, channel: 'email', localTime: '08:00' });
    await makeDue(app.databaseUrl, [verified.id]);
    await scan();
    const mails = await eventually(async () => reminderMails(), (m) => m.length === 1);
    expect(mails[0]!.raw).toMatch(/^Subject: Renew passport, again$/m);
    expect(mails[0]!.raw).toContain('today at 08:00');
    expect(mails[0]!.raw).toContain(`/api/v1/reminders/${verified.id}`);
    expect((await deliveriesOf(verified.id))[0]).toMatchObject({ status: 'sent' });
  });
});
