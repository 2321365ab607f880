import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { Receiver, serviceSandbox, sessionOn, type TestPki } from '../webhooks/webhooks.test-helpers.js';
import { browserKeys, checkVapid, createReminder, decryptPush, eventually, makeDue, setPushUrl, subscriptionJson, taskOn, tomorrowUtc } from './reminders.test-helpers.js';

/**
 * The service as its own process (trusting a test CA, so a local HTTPS server can play the push
 * service): a real Web Push round trip, a restart during a due minute (graceful, and a crash right
 * after the claim), and two instances sharing one database.
 */
let pki: TestPki;
let receiver: Receiver;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  pki = inject('testPki');
  receiver = await Receiver.start(pki);
});
// Each test's processes and database go when it ends (PostgreSQL's connections are shared with other runs).
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
afterAll(async () => {
  await receiver?.close();
});

/**
 * A long REMINDER_SEND_TIMEOUT_MS: these tests count sends, and on a busy machine an answer later than
 * the timeout is sent again (at-least-once, not what they test). The crash test sets a short lease.
 */
function setup(extra: Record<string, string> = {}) {
  return serviceSandbox(cleanups, (databaseUrl, dataDir) => ({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'reminder-tests-jwt-secret-0123456789abcdef',
    NODE_EXTRA_CA_CERTS: pki.caFile,
    REMINDER_ALLOW_PRIVATE_URLS: 'true',
    REMINDER_SEND_TIMEOUT_MS: '30000',
    REMINDER_BACKOFF_UNIT_MS: '200',
    REMINDER_SCAN_INTERVAL_MS: '100',
    // These tests make one person's 150 or 300 occurrences due together to test crashes and instances,
    // not the per-person budget (reminders.engine.test.ts tests that).
    REMINDER_SENDS_PER_MINUTE: '1000',
    DISABLE_RATE_LIMIT: 'true',
    LOG_LEVEL: 'info',
    ...extra,
  }));
}

/** `count` copies of a reminder (same task, channel and due time), so many occurrences fall due together. */
async function cloneReminder(databaseUrl: string, reminderId: string, count: number): Promise<string[]> {
  const rows = await sql(
    databaseUrl,
    `insert into reminders (id, created_at, updated_at, user_id, kind, target_id, channel, offset_minutes, local_time, active, next_due_at, next_occurrence_key)
     select gen_random_uuid(), now(), now(), user_id, kind, target_id, channel, offset_minutes, local_time, active, next_due_at, next_occurrence_key
       from reminders, generate_series(1, $2) where id = $1
     returning id`,
    [reminderId, count],
  );
  return [reminderId, ...rows.map((r) => r.id as string)];
}

/**
 * Waits until every one of `count` deliveries has its outcome: each is written after its receiver
 * answered, and a delivery is sent again only after a new claim, so what the receiver saw is then all
 * it will see (no waiting for "nothing more arrives").
 */
async function allSent(databaseUrl: string, count: number): Promise<void> {
  await eventually(
    () => sql(databaseUrl, `select count(*) filter (where status = 'sent')::int as sent, count(*)::int as total from reminder_deliveries`),
    ([counts]) => counts!.sent === count,
    60_000,
  );
}

/** Each reminder's occurrences as the receiver saw them: `reminderId:key` → times received. */
function seenBy(path: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const r of receiver.at(path)) {
    const id = `${r.headers['x-reminder-id']}:${r.headers['x-reminder-occurrence']}`;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return seen;
}

describe('Web Push', () => {
  it('delivers an encrypted payload the subscription decrypts, signed with our VAPID key; a 410 drops the subscription', async () => {
    const { db, start } = await setup();
    const service = await start();
    const user = await signUp(service.url);
    const { publicKey } = (await user.client.get('/api/v1/notifications/vapid-public-key')).body.data;
    const keys = browserKeys();
    const path = receiver.endpoint(() => ({ status: 201 }));
    const registered = await user.client.post('/api/v1/notifications/push-subscriptions', subscriptionJson(receiver.url + path, keys));
    expect(registered.status).toBe(201);
    const date = tomorrowUtc(2);
    const task = await taskOn(user.client, date, 'Water the plants');
    const reminder = await createReminder(user.client, { kind: 'task_at_time', targetId: task.id, channel: 'web_push', localTime: '07:45' });
    await makeDue(db.url, [reminder.id]);

    const [push] = await receiver.waitFor(path, 1);
    expect(push!.headers).toMatchObject({ ttl: '3600', urgency: 'normal', 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream' });
    expect(String(push!.headers.topic)).toMatch(/^[\w-]{1,32}$/);
    const { k } = checkVapid(push!.headers.authorization, receiver.url);
    expect(k).toBe(publicKey);
    const payload = decryptPush(push!.rawBody, keys);
    expect(payload).toMatchObject({
      title: 'Water the plants',
      body: expect.stringContaining('today at 07:45'),
      // No APP_URL: the service's own page, never the JSON resource (a tap there would open a 401 envelope).
      url: `http://localhost:${new URL(service.url).port}/`,
      reminderId: reminder.id,
      occurrenceKey: date,
    });
    // Another browser's keys cannot read it.
    expect(() => decryptPush(push!.rawBody, browserKeys())).toThrow();
    await eventually(() => sql(db.url, 'select status from reminder_deliveries where reminder_id = $1', [reminder.id]), (rows) => rows[0]?.status === 'sent');

    // A second browser whose push service says the subscription is gone (410): removed, the first still served.
    const gonePath = receiver.endpoint(() => ({ status: 410, body: 'expired' }));
    await user.client.post('/api/v1/notifications/push-subscriptions', subscriptionJson(receiver.url + gonePath, browserKeys()));
    const second = await createReminder(user.client, { kind: 'task_at_time', targetId: task.id, channel: 'web_push', localTime: '08:00' });
    await makeDue(db.url, [second.id]);
    await receiver.waitFor(path, 2);
    await receiver.waitFor(gonePath, 1);
    const subs = await eventually(() => user.client.get('/api/v1/notifications/push-subscriptions').then((r) => r.body.data), (d) => d.length === 1);
    expect(subs[0].endpoint).toBe(receiver.url + path);
    const [row] = await eventually(() => sql(db.url, 'select status, error from reminder_deliveries where reminder_id = $1', [second.id]), (rows) => rows[0]?.status === 'sent');
    expect(row!.error).toContain('answered 410');
  }, 120_000);
});

describe('restart during a due minute', () => {
  it('a stop (SIGTERM) in the middle of 150 due occurrences: after the start, each was sent exactly once', async () => {
    const { db, start } = await setup({ SHUTDOWN_DRAIN_MS: '0' });
    let service = await start();
    const user = await signUp(service.url);
    // Slow enough that the stop lands mid-burst (64 sends in flight at a time).
    const path = receiver.endpoint(() => ({ status: 200, delayMs: 300 }));
    await setPushUrl(user.client, receiver.url + path);
    const task = await taskOn(user.client, tomorrowUtc(2), 'Many');
    const first = await createReminder(user.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '07:00' });
    const ids = await cloneReminder(db.url, first.id, 149);
    await makeDue(db.url, ids);
    await receiver.waitFor(path, 10, 30_000);
    expect(await service.stop()).toBe(0);
    const before = receiver.at(path).length;
    expect(before).toBeLessThan(150);
    service = await start();
    await allSent(db.url, 150);
    const seen = seenBy(path);
    expect(seen.size).toBe(150);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const [counts] = await sql(db.url, `select count(*) filter (where status = 'sent')::int as sent, count(*)::int as total from reminder_deliveries`);
    expect(counts).toEqual({ sent: 150, total: 150 });
  }, 120_000);

  it('a crash (SIGKILL) after an occurrence was claimed for sending and before it was sent: sent once after the restart', async () => {
    // A short lease, still long enough to send in (a send starts only while it can end 2 s before the lease does).
    const { db, start } = await setup({ REMINDER_SEND_TIMEOUT_MS: '2000', REMINDER_LEASE_MS: '6000' });
    let service = await start();
    const user = await signUp(service.url);
    const keys = browserKeys();
    const path = receiver.endpoint(() => ({ status: 201 }));
    await user.client.post('/api/v1/notifications/push-subscriptions', subscriptionJson(receiver.url + path, keys));
    const task = await taskOn(user.client, tomorrowUtc(2), 'Crash');
    const reminder = await createReminder(user.client, { kind: 'task_at_time', targetId: task.id, channel: 'web_push', localTime: '07:00' });
    // The instance reads the subscriptions right after its claim: holding that table stops it there.
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query('begin');
    await blocker.query('lock table push_subscriptions in access exclusive mode');
    await makeDue(db.url, [reminder.id]);
    const [claimed] = await eventually(
      () => sql(db.url, 'select status, attempts, next_attempt_at from reminder_deliveries where reminder_id = $1', [reminder.id]),
      (rows) => rows[0]?.attempts === 1,
    );
    expect(claimed!.status).toBe('pending');
    // Claimed (leased, the reminder moved on), not sent: the process dies here.
    await service.kill();
    await blocker.query('rollback');
    expect(receiver.at(path)).toHaveLength(0);
    service = await start();
    // After its lease (REMINDER_LEASE_MS) the delivery is taken over and sent, once.
    const [push] = await receiver.waitFor(path, 1, 40_000);
    expect(decryptPush(push!.rawBody, keys)).toMatchObject({ reminderId: reminder.id });
    expect(push!.at).toBeGreaterThanOrEqual(new Date(claimed!.next_attempt_at).getTime() - 50);
    await allSent(db.url, 1);
    expect(receiver.at(path)).toHaveLength(1);
    const [row] = await sql(db.url, 'select status, attempts from reminder_deliveries where reminder_id = $1', [reminder.id]);
    expect(row).toEqual({ status: 'sent', attempts: 2 });
  }, 120_000);

  it('a crash (SIGKILL) while a due reminder is being claimed (its transaction not committed): sent once after the restart', async () => {
    const { db, start } = await setup();
    let service = await start();
    const user = await signUp(service.url);
    const path = receiver.endpoint();
    await setPushUrl(user.client, receiver.url + path);
    const task = await taskOn(user.client, tomorrowUtc(2), 'Mid-claim');
    const reminder = await createReminder(user.client, { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '07:00' });
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    // The claim asks the kind for the next occurrence, which reads the task: it waits inside its transaction.
    await blocker.query('begin');
    await blocker.query('lock table tasks in access exclusive mode');
    await makeDue(db.url, [reminder.id]);
    await eventually(
      () => sql(db.url, `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'tasks' and not l.granted`),
      (rows) => rows[0]!.n > 0,
    );
    await service.kill();
    await blocker.query('rollback');
    const [untouched] = await sql(db.url, 'select (select count(*)::int from reminder_deliveries) as deliveries, next_due_at <= now() as due from reminders where id = $1', [reminder.id]);
    expect(untouched).toEqual({ deliveries: 0, due: true });
    service = await start();
    await allSent(db.url, 1);
    expect(receiver.at(path)).toHaveLength(1);
    expect(await sql(db.url, 'select status from reminder_deliveries where reminder_id = $1', [reminder.id])).toEqual([{ status: 'sent' }]);
  }, 120_000);
});

describe('two instances on one database', () => {
  it('send each of 300 occurrences falling due together exactly once', async () => {
    const { db, start } = await setup();
    const [one, two] = await Promise.all([start(), start()]);
    const user = await signUp(one.url);
    const path = receiver.endpoint(() => ({ status: 200, delayMs: 5 }));
    await setPushUrl(sessionOn(two, user.client), receiver.url + path);
    const task = await taskOn(user.client, tomorrowUtc(2), 'Shared');
    const first = await createReminder(sessionOn(two, user.client), { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '07:00' });
    const ids = await cloneReminder(db.url, first.id, 299);
    await makeDue(db.url, ids);
    await allSent(db.url, 300);
    const seen = seenBy(path);
    expect(seen.size).toBe(300);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const [counts] = await sql(db.url, `select count(*) filter (where status = 'sent' and attempts = 1)::int as sent, count(*)::int as total from reminder_deliveries`);
    expect(counts).toEqual({ sent: 300, total: 300 });
    // Made due early, each waits for its occurrence's real time under the same key, whose delivery exists.
    const [left] = await sql(db.url, `select count(distinct next_occurrence_key)::int as keys, min(next_occurrence_key) as key from reminders`);
    expect(left).toEqual({ keys: 1, key: (await sql(db.url, 'select occurrence_key from reminder_deliveries limit 1'))[0]!.occurrence_key });
  }, 120_000);
});
