import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWeek } from '../../test/support/fixtures.js';
import type { HttpClient } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 26: reading and setting reminders through the assistant connector (the real OAuth-connected SDK client). */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;
let bob: Awaited<ReturnType<typeof connectedUser>>;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
  await ok(alice.user.client.patch('/api/v1/settings', { timezone: 'Europe/Berlin' }));
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close()]);
  await app?.close();
});

async function ok(request: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const res = await request;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body.data;
}

/** A task on `date` (its week generated) starting at `startTime`. */
async function taskOn(client: HttpClient, monday: string, date: string, title: string, startTime: string | null): Promise<any> {
  const week = await generateWeek(client, monday);
  const dayId = week.days.find((d: { date: string }) => d.date === date).id;
  return ok(client.post('/api/v1/tasks', { title, timebox: 30, dayId, ...(startTime ? { startTime } : {}) }));
}

describe('reminders tools', () => {
  it('reminders_add finds a task by title on a date, a person by name; reminders_list shows them, as the Session API does', async () => {
    const { client, user } = alice;
    const report = await taskOn(user.client, '2030-05-06', '2030-05-07', 'Write report', '09:00');
    await taskOn(user.client, '2030-05-06', '2030-05-08', 'Write report', '09:00');

    const reminder = await callOk(client, 'reminders_add', { kind: 'task_start', target: 'write report', date: '2030-05-07', offsetMinutes: 15, channel: 'web_push' });
    expect(reminder).toEqual({
      id: expect.any(String),
      kind: 'task_start',
      targetId: report.id,
      channel: 'web_push',
      offsetMinutes: 15,
      localTime: null,
      active: true,
      nextDueAt: '2030-05-07T06:45:00.000Z',
      nextDueLocal: '2030-05-07 08:45',
      createdAt: expect.any(String),
    });
    // A kind timed by its offset takes no localTime (the service refuses it on every path).
    const untimed = await callError(client, 'reminders_add', { kind: 'task_start', target: 'write report', date: '2030-05-07', localTime: '07:00' });
    expect(untimed).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('localTime') });
    // Without the date the title names two tasks.
    const ambiguous = await callError(client, 'reminders_add', { kind: 'task_start', target: 'Write report' });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates).toHaveLength(2);

    const carla = await ok(user.client.post('/api/v1/people', { name: 'Carla Jensen', birthday: '1990-07-04' }));
    const birthday = await callOk(client, 'reminders_add', { kind: 'birthday', target: 'carla' });
    expect(birthday).toMatchObject({ kind: 'birthday', targetId: carla.id, channel: 'email', offsetMinutes: 0, localTime: null });
    expect(birthday.nextDueLocal).toMatch(/^\d{4}-07-04 09:00$/);

    const brief = await callOk(client, 'reminders_add', { kind: 'morning_brief' });
    expect(brief).toMatchObject({ kind: 'morning_brief', targetId: null });
    expect(brief.nextDueLocal).toMatch(/ 07:00$/);

    const listed = await callOk(client, 'reminders_list');
    expect(listed.timezone).toBe('Europe/Berlin');
    expect(listed.reminders.map((r: any) => r.id)).toEqual([reminder.id, birthday.id, brief.id]);
    expect(listed.meta).toEqual({ page: 1, limit: 50, total: 3 });
    expect((await callOk(client, 'reminders_list', { kind: 'birthday' })).reminders.map((r: any) => r.id)).toEqual([birthday.id]);
    const rest = await ok(user.client.get('/api/v1/reminders'));
    expect(rest.map((r: any) => [r.id, r.kind, r.targetId, r.nextDueAt])).toEqual(listed.reminders.map((r: any) => [r.id, r.kind, r.targetId, r.nextDueAt]));

    // Issue 34: a time chosen for the morning brief is when it rings (it was stored and ignored).
    const early = await callOk(client, 'reminders_update', { reminderId: brief.id, localTime: '06:15' });
    expect(early).toMatchObject({ localTime: '06:15', nextDueLocal: expect.stringMatching(/ 06:15$/) });
    expect((await callOk(client, 'reminders_update', { reminderId: brief.id, localTime: null })).nextDueLocal).toMatch(/ 07:00$/);
  });

  it('reminders_update re-times and pauses a reminder; reminders_delete removes it', async () => {
    const { client, user } = await connectedUser(app);
    const task = await taskOn(user.client, '2030-06-03', '2030-06-04', 'Dentist', '14:00');
    const added = await callOk(client, 'reminders_add', { kind: 'task_start', targetId: task.id, offsetMinutes: 30 });
    expect(added.nextDueAt).toBe('2030-06-04T13:30:00.000Z');

    const retimed = await callOk(client, 'reminders_update', { reminderId: added.id, offsetMinutes: 60, channel: 'push_url' });
    expect(retimed).toMatchObject({ id: added.id, offsetMinutes: 60, channel: 'push_url', nextDueAt: '2030-06-04T13:00:00.000Z', nextDueLocal: '2030-06-04 13:00' });
    const paused = await callOk(client, 'reminders_update', { reminderId: added.id, active: false });
    expect(paused.active).toBe(false);
    expect((await ok(user.client.get(`/api/v1/reminders/${added.id}`))).active).toBe(false);

    expect(await callOk(client, 'reminders_delete', { reminderId: added.id })).toEqual({ id: added.id, message: 'Reminder deleted' });
    expect((await callOk(client, 'reminders_list')).reminders).toEqual([]);
    expect((await callError(client, 'reminders_delete', { reminderId: added.id })).code).toBe('NOT_FOUND');
  });

  it('refuses bad arguments, naming them; a reminder that would never be sent; a target for a daily kind', async () => {
    const { client, user } = await connectedUser(app);
    const offset = await callError(client, 'reminders_add', { kind: 'morning_brief', offsetMinutes: 20_000 });
    expect(offset.code).toBe('VALIDATION_ERROR');
    expect(offset.details.errors).toEqual([{ path: ['offsetMinutes'], message: 'offsetMinutes must not be greater than 10080' }]);
    const time = await callError(client, 'reminders_add', { kind: 'evening_review', localTime: '25:00' });
    expect(time.details.errors).toEqual([{ path: ['localTime'], message: 'localTime must be a time HH:MM (00:00-23:59)' }]);
    const kind = await callError(client, 'reminders_add', { kind: 'weekly' });
    expect(kind.details.errors[0].path).toEqual(['kind']);
    expect((await callError(client, 'reminders_update', { reminderId: 'not-an-id' })).details.errors[0].path).toEqual(['reminderId']);

    const target = await callError(client, 'reminders_add', { kind: 'morning_brief', target: 'anything' });
    expect([target.code, target.details.errors]).toEqual(['VALIDATION_ERROR', [{ path: ['target'], message: 'morning_brief reminders take no target' }]]);
    expect((await callError(client, 'reminders_add', { kind: 'task_start' })).code).toBe('VALIDATION_ERROR');

    const unscheduled = await taskOn(user.client, '2030-06-03', '2030-06-05', 'No time yet', null);
    const refused = await callError(client, 'reminders_add', { kind: 'task_start', targetId: unscheduled.id });
    expect([refused.code, refused.details.rule]).toEqual(['VALIDATION_ERROR', 'reminder_target_unscheduled']);
    const unknown = await callError(client, 'reminders_add', { kind: 'birthday', target: 'Nobody' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect((await callOk(client, 'reminders_list')).reminders).toEqual([]);
  });

  it("another user's reminder or target is NOT_FOUND, and their list stays theirs", async () => {
    const task = await taskOn(alice.user.client, '2030-07-01', '2030-07-02', 'Alice only', '10:00');
    const mine = await callOk(alice.client, 'reminders_add', { kind: 'task_start', targetId: task.id });
    expect((await callError(bob.client, 'reminders_add', { kind: 'task_start', targetId: task.id })).code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'reminders_update', { reminderId: mine.id, offsetMinutes: 5 })).code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'reminders_delete', { reminderId: mine.id })).code).toBe('NOT_FOUND');
    expect((await callOk(bob.client, 'reminders_list')).reminders).toEqual([]);
    expect((await ok(alice.user.client.get(`/api/v1/reminders/${mine.id}`))).offsetMinutes).toBe(0);
  });

  it('a read-only connection lists reminders but cannot add, change or delete one', async () => {
    const reader = await connectedUser(app, { access: 'read' });
    const brief = await ok(reader.user.client.post('/api/v1/reminders', { kind: 'morning_brief', channel: 'email' }));
    const names = (await reader.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('reminders_list');
    expect(names).not.toContain('reminders_add');
    expect((await callOk(reader.client, 'reminders_list')).reminders.map((r: any) => r.id)).toEqual([brief.id]);
    for (const [name, args] of [
      ['reminders_add', { kind: 'morning_brief' }],
      ['reminders_update', { reminderId: brief.id, active: false }],
      ['reminders_delete', { reminderId: brief.id }],
    ] as const) {
      const refused = await callError(reader.client, name, args);
      expect([name, refused.code, refused.details]).toEqual([name, 'INSUFFICIENT_SCOPE', { scope: 'planning:write' }]);
    }
    expect((await ok(reader.user.client.get('/api/v1/reminders'))).map((r: any) => [r.id, r.active])).toEqual([[brief.id, true]]);
  });
});
