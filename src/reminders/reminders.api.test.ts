import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectStatus } from '../../test/support/expectations.js';
import { DAILY_REMINDER_KINDS } from './daily-kinds.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from './kinds/index.js';
import { localClock, localInstant } from './kinds/local-time.js';
import { createReminder, setTimezone, taskOn, tomorrowUtc } from './reminders.test-helpers.js';

/** The reminder and notification API on GraphQL and the Session API: shapes, rules, isolation. */
let app: TestApp;
let alice: { client: HttpClient; id: string };
let bob: { client: HttpClient; id: string };

beforeAll(async () => {
  // The loop stays out of the way: nothing here is sent.
  app = await startTestApp({ REMINDER_SCAN_INTERVAL_MS: '3600000' });
  alice = await signUp(app.url);
  bob = await signUp(app.url);
  await setTimezone(alice.client, 'Europe/Paris');
});
afterAll(async () => {
  await app?.close();
});

describe('reminders', () => {
  it('creates a task_at_time reminder whose nextDueAt is the local time on the task\'s day, and lists, reads, changes and deletes it', async () => {
    const date = tomorrowUtc(3);
    const task = await taskOn(alice.client, date);
    const res = await alice.client.post('/api/v1/reminders', { kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '07:00' });
    expect(res.status).toBe(201);
    const reminder = res.body.data;
    expect(reminder).toMatchObject({ kind: 'task_at_time', targetId: task.id, channel: 'push_url', localTime: '07:00', offsetMinutes: 0, active: true });
    expect(reminder.nextDueAt).toBe(localInstant(date, '07:00', 'Europe/Paris').toISOString());
    expect(reminder).not.toHaveProperty('nextOccurrenceKey');

    const list = await alice.client.get('/api/v1/reminders?limit=10');
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(reminder.id);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 10 });
    expect((await alice.client.get(`/api/v1/reminders/${reminder.id}`)).body.data.id).toBe(reminder.id);

    const moved = await alice.client.patch(`/api/v1/reminders/${reminder.id}`, { localTime: '18:30', channel: 'email' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ localTime: '18:30', channel: 'email', nextDueAt: localInstant(date, '18:30', 'Europe/Paris').toISOString() });
    const paused = await alice.client.patch(`/api/v1/reminders/${reminder.id}`, { active: false });
    expect(paused.body.data.active).toBe(false);
    expect((await alice.client.get('/api/v1/reminders?active=false')).body.data.map((r: { id: string }) => r.id)).toEqual([reminder.id]);

    const gone = await alice.client.delete(`/api/v1/reminders/${reminder.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: reminder.id, message: 'Reminder deleted' });
    expect((await alice.client.get(`/api/v1/reminders/${reminder.id}`)).status).toBe(404);
  });

  it("answers another user's reminder and another user's task exactly like missing ones (404)", async () => {
    const task = await taskOn(alice.client, tomorrowUtc(3), 'Private');
    const mine = await createReminder(alice.client, { kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '09:00' });
    const missing = await bob.client.get(`/api/v1/reminders/${MISSING_ID}`);
    expect(missing.status).toBe(404);
    for (const res of [
      await bob.client.get(`/api/v1/reminders/${mine.id}`),
      await bob.client.patch(`/api/v1/reminders/${mine.id}`, { localTime: '10:00' }),
      await bob.client.delete(`/api/v1/reminders/${mine.id}`),
      await bob.client.get(`/api/v1/reminders/${mine.id}/deliveries`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual(missing.body.error);
    }
    // A reminder on someone else's task is refused as if the task did not exist.
    const theirs = await bob.client.post('/api/v1/reminders', { kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '09:00' });
    const none = await bob.client.post('/api/v1/reminders', { kind: 'task_at_time', targetId: MISSING_ID, channel: 'email', localTime: '09:00' });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual(none.body.error);
    expect(theirs.body.error.details).toMatchObject({ resource: 'Task', field: 'targetId' });
    expect((await bob.client.get('/api/v1/reminders')).body.data).toEqual([]);
    // Unchanged for its owner.
    expect((await alice.client.get(`/api/v1/reminders/${mine.id}`)).body.data.localTime).toBe('09:00');
  });

  it('refuses what could never be sent, and bad input, naming the field', async () => {
    const task = await taskOn(alice.client, tomorrowUtc(3), 'Rules');
    const refuse = async (body: Record<string, unknown>, field: string | null, rule?: string) => {
      const res = await alice.client.post('/api/v1/reminders', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      if (field) expect(JSON.stringify(res.body.error.details.errors)).toContain(field);
      if (rule) expect(res.body.error.details.rule).toBe(rule);
    };
    await refuse({ kind: 'task_at_time', targetId: task.id, channel: 'email' }, 'localTime');
    await refuse({ kind: 'task_at_time', channel: 'email', localTime: '07:00' }, 'targetId');
    await refuse({ kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '7:00' }, 'localTime');
    await refuse({ kind: 'task_at_time', targetId: task.id, channel: 'sms', localTime: '07:00' }, 'channel');
    await refuse({ kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '07:00', offsetMinutes: -5 }, 'offsetMinutes');
    // A task already done has no occurrence left: refused, not stored inactive.
    await alice.client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
    await refuse({ kind: 'task_at_time', targetId: task.id, channel: 'email', localTime: '07:00' }, null, 'reminder_no_occurrence');
    // So is a day that has passed.
    const past = await taskOn(alice.client, tomorrowUtc(-3), 'Past');
    await refuse({ kind: 'task_at_time', targetId: past.id, channel: 'email', localTime: '07:00' }, null, 'reminder_no_occurrence');
    const [row] = await sql(app.databaseUrl, 'select count(*)::int as n from reminders where target_id = any($1::uuid[])', [[task.id, past.id]]);
    expect(row!.n).toBe(0);
  });

  it('holds one reminder of each daily kind per person: a second is refused with 409 REMINDER_EXISTS naming the first', async () => {
    // The daily kinds are the registry's kinds about no record.
    expect([...DAILY_REMINDER_KINDS].sort()).toEqual(Object.values(REMINDER_KIND_IMPLEMENTATIONS).filter((k) => !k.target).map((k) => k.name).sort());
    const { client } = await signUp(app.url);
    const first = await client.post('/api/v1/reminders', { kind: 'morning_brief', channel: 'email' });
    expect(first.status, first.text).toBe(201);
    const again = await client.post('/api/v1/reminders', { kind: 'morning_brief', channel: 'push_url', offsetMinutes: 10 });
    expectStatus(again, 409, 'REMINDER_EXISTS');
    expect(again.body.error.details).toMatchObject({ kind: 'morning_brief', reminderId: first.body.data.id });
    const graphql = await client.graphql('mutation { createReminder(kind: morning_brief, channel: email) { id } }');
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'REMINDER_EXISTS', status: 409 });
    // Two at once: the index keeps one.
    const racing = await Promise.all([0, 1].map(() => client.post('/api/v1/reminders', { kind: 'evening_review', channel: 'email', localTime: '21:00' })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    // Another daily kind, and the kinds about a record, are not limited this way.
    expect((await client.post('/api/v1/reminders', { kind: 'bedtime_in_bed', channel: 'email' })).status).toBe(201);
    expect((await client.get('/api/v1/reminders')).body.data).toHaveLength(3);
  });

  it('refuses localTime for each kind that takes none and rings at it for each that uses it (the kind registry says which)', async () => {
    const { client, id } = await signUp(app.url);
    await setTimezone(client, 'Europe/Paris');
    const date = tomorrowUtc(3);
    const task = await taskOn(client, date, 'Timed', { startTime: '10:00' });
    const targets: Record<string, string> = {
      task: task.id,
      deadline: (await client.post('/api/v1/deadlines', { title: 'Due', dueDate: `${date}T15:00:00Z` })).body.data.id,
      happening: (await client.post('/api/v1/social-happenings', { dayId: task.dayId, title: 'Lunch', startTime: `${date}T11:00:00Z`, endTime: `${date}T12:00:00Z` })).body.data.id,
      person: (await client.post('/api/v1/people', { name: 'Carla', birthday: '1990-07-04' })).body.data.id,
      habit: (await client.post('/api/v1/habits', { name: 'Floss' })).body.data.id,
    };
    for (const kind of Object.values(REMINDER_KIND_IMPLEMENTATIONS)) {
      const body = { kind: kind.name, channel: 'email', ...(kind.target ? { targetId: targets[kind.target] } : {}) };
      const timed = await client.post('/api/v1/reminders', { ...body, localTime: '07:45' });
      if (kind.localTime !== 'unused') {
        expect(timed.status, `${kind.name}: ${timed.text}`).toBe(201);
        expect(localClock(new Date(timed.body.data.nextDueAt), 'Europe/Paris'), kind.name).toBe('07:45');
        continue;
      }
      expectStatus(timed, 400, 'VALIDATION_ERROR');
      expect(timed.body.error.details.errors, kind.name).toEqual([expect.objectContaining({ path: ['localTime'] })]);
      const untimed = await client.post('/api/v1/reminders', body);
      expect(untimed.status, `${kind.name}: ${untimed.text}`).toBe(201);
      const retimed = await client.patch(`/api/v1/reminders/${untimed.body.data.id}`, { localTime: '07:45' });
      expectStatus(retimed, 400, 'VALIDATION_ERROR');
      expect(retimed.body.error.details.errors, kind.name).toEqual([expect.objectContaining({ path: ['localTime'] })]);
    }
    // GraphQL goes through the same service.
    const graphql = await client.graphql(`mutation($t: UUID!) { createReminder(kind: task_start, targetId: $t, channel: email, localTime: "07:45") { id } }`, { t: task.id });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
    // A row stored with one before the rule stays readable and changeable (the time is ignored).
    const [legacy] = await sql(app.databaseUrl, "update reminders set local_time = '07:45' where user_id = $1 and kind = 'task_start' returning id", [id]);
    expect((await client.get(`/api/v1/reminders/${legacy!.id}`)).body.data).toMatchObject({ kind: 'task_start', localTime: '07:45' });
    expect((await client.patch(`/api/v1/reminders/${legacy!.id}`, { offsetMinutes: 5 })).status).toBe(200);
  });

  it('is reachable through GraphQL with the same rules', async () => {
    const task = await taskOn(alice.client, tomorrowUtc(4), 'Through GraphQL');
    const created = await alice.client.graphql(
      `mutation($t: UUID!) { createReminder(kind: task_at_time, targetId: $t, channel: web_push, localTime: "08:15") { id kind channel localTime nextDueAt active } }`,
      { t: task.id },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createReminder).toMatchObject({ kind: 'task_at_time', channel: 'web_push', localTime: '08:15', active: true });
    const read = await alice.client.graphql(`{ reminders(kind: task_at_time, limit: 100) { items { id } meta { total } } }`);
    expect(read.body.data.reminders.items.map((r: { id: string }) => r.id)).toContain(created.body.data.createReminder.id);
    const foreign = await bob.client.graphql(`query($id: UUID!) { reminder(reminderId: $id) { id } }`, { id: created.body.data.createReminder.id });
    expect(foreign.body.errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('notification settings and push subscriptions', () => {
  it('answers defaults, sets a push URL and quiet hours, and refuses private addresses, other schemes and half quiet hours', async () => {
    const user = await signUp(app.url);
    expect((await user.client.get('/api/v1/notifications/settings')).body.data).toMatchObject({ pushUrl: null, quietHoursStart: null, quietHoursEnd: null });
    const bad = async (body: Record<string, unknown>, rule: string) => {
      const res = await user.client.patch('/api/v1/notifications/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.rule).toBe(rule);
    };
    await bad({ pushUrl: 'http://127.0.0.1:8080/topic' }, 'notification_url_address');
    await bad({ pushUrl: 'http://[::1]/topic' }, 'notification_url_address');
    await bad({ pushUrl: 'ftp://ntfy.sh/topic' }, 'notification_url');
    await bad({ pushUrl: 'https://user:secret@ntfy.sh/topic' }, 'notification_url');
    await bad({ quietHoursStart: '22:00' }, 'quiet_hours');
    await bad({ quietHoursStart: '22:00', quietHoursEnd: '22:00' }, 'quiet_hours');
    const ok = await user.client.patch('/api/v1/notifications/settings', { pushUrl: 'https://93.184.215.14/my-topic', quietHoursStart: '22:00', quietHoursEnd: '07:00' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ pushUrl: 'https://93.184.215.14/my-topic', quietHoursStart: '22:00', quietHoursEnd: '07:00' });
    const cleared = await user.client.patch('/api/v1/notifications/settings', { pushUrl: null, quietHoursStart: null, quietHoursEnd: null });
    expect(cleared.body.data).toMatchObject({ pushUrl: null, quietHoursStart: null, quietHoursEnd: null });
  });

  it('applies two first changes sent at once one after the other, each keeping the other\'s field', async () => {
    const user = await signUp(app.url);
    const [a, b] = await Promise.all([
      user.client.patch('/api/v1/notifications/settings', { pushUrl: 'https://93.184.215.14/a' }),
      user.client.patch('/api/v1/notifications/settings', { quietHoursStart: '23:00', quietHoursEnd: '06:30' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await user.client.get('/api/v1/notifications/settings')).body.data).toMatchObject({ pushUrl: 'https://93.184.215.14/a', quietHoursStart: '23:00', quietHoursEnd: '06:30' });
  });

  it('serves one VAPID public key (an uncompressed P-256 point), kept in DATA_DIR', async () => {
    const first = await alice.client.get('/api/v1/notifications/vapid-public-key');
    expect(first.status).toBe(200);
    const key = Buffer.from(first.body.data.publicKey, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await bob.client.get('/api/v1/notifications/vapid-public-key')).body.data.publicKey).toBe(first.body.data.publicKey);
    const { readFile } = await import('node:fs/promises');
    expect(JSON.parse(await readFile(`${app.dataDir}/vapid-keys.json`, 'utf8')).publicKey).toBe(first.body.data.publicKey);
    expect((await alice.client.withoutCookie().get('/api/v1/notifications/vapid-public-key')).status).toBe(401);
  });

  it("registers a browser's PushSubscription JSON (again: 200, keys replaced), lists and deletes it; another user's is 404", async () => {
    const user = await signUp(app.url);
    const { browserKeys, subscriptionJson } = await import('./reminders.test-helpers.js');
    const keys = browserKeys();
    const endpoint = 'https://93.184.215.14/push/abc';
    const created = await user.client.post('/api/v1/notifications/push-subscriptions', subscriptionJson(endpoint, keys));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ endpoint, expiresAt: null });
    expect(created.body.data).not.toHaveProperty('auth');
    const again = await user.client.post('/api/v1/notifications/push-subscriptions', subscriptionJson(endpoint, browserKeys()));
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.body.data.id);
    const list = await user.client.get('/api/v1/notifications/push-subscriptions');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([created.body.data.id]);

    for (const [body, field] of [
      [{ ...subscriptionJson(endpoint, keys), keys: { p256dh: 'AAAA', auth: keys.auth } }, 'p256dh'],
      [{ ...subscriptionJson(endpoint, keys), keys: { p256dh: keys.p256dh, auth: 'short' } }, 'auth'],
      [subscriptionJson('http://93.184.215.14/push', keys), 'endpoint'],
      [subscriptionJson('https://127.0.0.1/push', keys), 'endpoint'],
    ] as const) {
      const res = await user.client.post('/api/v1/notifications/push-subscriptions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.error.details.errors)).toContain(field);
    }

    const foreign = await bob.client.delete(`/api/v1/notifications/push-subscriptions/${created.body.data.id}`);
    const missing = await bob.client.delete(`/api/v1/notifications/push-subscriptions/${MISSING_ID}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual(missing.body.error);
    expect((await user.client.delete(`/api/v1/notifications/push-subscriptions/${created.body.data.id}`)).status).toBe(200);
    expect((await user.client.get('/api/v1/notifications/push-subscriptions')).body.data).toEqual([]);
  });
});
