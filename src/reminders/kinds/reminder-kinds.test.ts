import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWeek, MISSING_ID } from '../../../test/support/fixtures.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { AppError } from '../../core/errors.js';
import { kindContext, type KindContext, type ReminderKind, type ReminderKindName, type ReminderSpec } from '../reminder-kind.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from './index.js';
import { localInstant } from './local-time.js';

/**
 * Issue 26: the reminder kinds, called directly against the real service's database. Records are made
 * through the Session API as a person would; the dates are fixed, so each due instant is known to the
 * minute.
 */
let app: TestApp;
type User = Awaited<ReturnType<typeof signUp>>;
let alice: User;
let bob: User;
let nora: User;

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob, nora] = await Promise.all([signUp(app.url), signUp(app.url), signUp(app.url)]);
  await ok(alice.client.patch('/api/v1/settings', { timezone: BERLIN }));
  await ok(nora.client.patch('/api/v1/settings', { timezone: NEW_YORK }));
});
afterAll(async () => {
  await app?.close();
});

const kind = (name: ReminderKindName): ReminderKind => REMINDER_KIND_IMPLEMENTATIONS[name]!;
/** A fresh entity manager per call, as the engine gives each claim. */
const ctx = (timezone: string): KindContext => kindContext({ deps: app.server.deps, em: app.server.orm.em.fork() }, timezone);
const utc = (iso: string) => new Date(iso);
let specCounter = 0;
function spec(user: User, name: ReminderKindName, fields: Partial<ReminderSpec> = {}): ReminderSpec {
  return { id: `00000000-0000-4000-8000-${String(++specCounter).padStart(12, '0')}`, userId: user.id, kind: name, targetId: null, offsetMinutes: 0, localTime: null, ...fields };
}

async function ok<T = any>(request: Promise<{ status: number; text: string; body: any }>): Promise<T> {
  const res = await request;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body.data;
}

/** The error a kind's check throws, as the API would answer it. */
async function refusal(check: Promise<void>): Promise<AppError> {
  try {
    await check;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the check passed');
}

async function dayIds(client: HttpClient, monday: string): Promise<{ weekId: string; days: Record<string, string> }> {
  const week = await generateWeek(client, monday);
  return { weekId: week.id, days: Object.fromEntries(week.days.map((d: { date: string; id: string }) => [d.date, d.id])) };
}

async function task(client: HttpClient, dayId: string | null, startTime: string | null, title = 'Write report', extra: Record<string, unknown> = {}): Promise<any> {
  return ok(client.post('/api/v1/tasks', { title, timebox: 45, ...(dayId ? { dayId } : {}), ...(startTime ? { startTime } : {}), ...extra }));
}

describe('local time', () => {
  it('keeps the wall clock across DST: a missing time moves forward, an ambiguous one is the first', () => {
    expect(localInstant('2027-03-27', '09:00', BERLIN).toISOString()).toBe('2027-03-27T08:00:00.000Z');
    expect(localInstant('2027-03-28', '09:00', BERLIN).toISOString()).toBe('2027-03-28T07:00:00.000Z');
    // 02:30 does not exist on 2027-03-28 in Berlin: 03:30 CEST.
    expect(localInstant('2027-03-28', '02:30', BERLIN).toISOString()).toBe('2027-03-28T01:30:00.000Z');
    // 02:30 happens twice on 2027-10-31: the first, still CEST.
    expect(localInstant('2027-10-31', '02:30', BERLIN).toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(localInstant('2027-11-07', '01:30', NEW_YORK).toISOString()).toBe('2027-11-07T05:30:00.000Z');
    expect(localInstant('2027-03-14', '02:30', NEW_YORK).toISOString()).toBe('2027-03-14T07:30:00.000Z');
  });
});

describe('task_start', () => {
  it('is due offsetMinutes before the start on the task day, in the user zone across DST', async () => {
    const { days } = await dayIds(alice.client, '2027-03-22');
    const saturday = await task(alice.client, days['2027-03-27']!, '09:00');
    const sunday = await task(alice.client, days['2027-03-28']!, '09:00');
    const inGap = await task(alice.client, days['2027-03-28']!, '02:30');
    const k = kind('task_start');
    const after = utc('2027-03-01T00:00:00Z');

    expect(await k.nextOccurrence(ctx(BERLIN), spec(alice, 'task_start', { targetId: saturday.id, offsetMinutes: 15 }), after)).toEqual({
      dueAt: utc('2027-03-27T07:45:00Z'),
      key: `${saturday.id}@2027-03-27T09:00`,
    });
    expect(await k.nextOccurrence(ctx(BERLIN), spec(alice, 'task_start', { targetId: sunday.id, offsetMinutes: 15 }), after)).toEqual({
      dueAt: utc('2027-03-28T06:45:00Z'),
      key: `${sunday.id}@2027-03-28T09:00`,
    });
    expect((await k.nextOccurrence(ctx(BERLIN), spec(alice, 'task_start', { targetId: inGap.id }), after))?.dueAt).toEqual(utc('2027-03-28T01:30:00Z'));
    // Once its moment has passed, there is none.
    expect(await k.nextOccurrence(ctx(BERLIN), spec(alice, 'task_start', { targetId: saturday.id, offsetMinutes: 15 }), utc('2027-03-27T07:45:00Z'))).toBeNull();

    const { days: nyDays } = await dayIds(nora.client, '2027-03-08');
    const before = await task(nora.client, nyDays['2027-03-13']!, '09:00');
    const afterChange = await task(nora.client, nyDays['2027-03-14']!, '09:00');
    expect((await k.nextOccurrence(ctx(NEW_YORK), spec(nora, 'task_start', { targetId: before.id }), after))?.dueAt).toEqual(utc('2027-03-13T14:00:00Z'));
    expect((await k.nextOccurrence(ctx(NEW_YORK), spec(nora, 'task_start', { targetId: afterChange.id }), after))?.dueAt).toEqual(utc('2027-03-14T13:00:00Z'));
  });

  it('says the task, its start and timebox; is not due once done, deferred, moved or deleted', async () => {
    const { days } = await dayIds(alice.client, '2030-03-04');
    const t = await task(alice.client, days['2030-03-05']!, '14:30', 'Call the bank');
    const s = spec(alice, 'task_start', { targetId: t.id, offsetMinutes: 10 });
    const k = kind('task_start');
    const after = utc('2030-03-01T00:00:00Z');
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, after))!;
    expect(occurrence).toEqual({ dueAt: utc('2030-03-05T13:20:00Z'), key: `${t.id}@2030-03-05T14:30` });
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    expect(await k.message(ctx(BERLIN), s, occurrence)).toEqual({
      title: 'Call the bank',
      body: 'Starts in 10 minutes, at 14:30; timebox 45 min.',
      url: `/api/v1/tasks/${t.id}`,
    });

    await ok(alice.client.patch(`/api/v1/tasks/${t.id}`, { status: 'doing' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    await ok(alice.client.patch(`/api/v1/tasks/${t.id}`, { status: 'done' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toBeNull();
    await ok(alice.client.patch(`/api/v1/tasks/${t.id}`, { status: 'deferred', nextStep: 'Find the account number' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toBeNull();

    // Moved to Thursday: the Tuesday occurrence is stale, the next one is Thursday's.
    await ok(alice.client.patch(`/api/v1/tasks/${t.id}`, { status: 'todo', dayId: days['2030-03-07'] }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toEqual({ dueAt: utc('2030-03-07T13:20:00Z'), key: `${t.id}@2030-03-07T14:30` });

    await ok(alice.client.delete(`/api/v1/tasks/${t.id}`));
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toBeNull();
    expect(await k.stillDue(ctx(BERLIN), s, { dueAt: utc('2030-03-07T13:20:00Z'), key: `${t.id}@2030-03-07T14:30` })).toBe(false);
  });

  it('on the first task of a recurring series: before every occurrence, each at its own task, passing over finished ones', async () => {
    const { days } = await dayIds(alice.client, '2030-09-02');
    await dayIds(alice.client, '2030-09-09');
    const first = await task(alice.client, days['2030-09-02']!, '09:30', 'Standup', { recurrence: 'FREQ=DAILY' });
    const k = kind('task_start');
    const s = spec(alice, 'task_start', { targetId: first.id, offsetMinutes: 10 });
    await k.checkTarget(ctx(BERLIN), s);
    const monday = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-09-01T00:00:00Z')))!;
    expect(monday).toEqual({ dueAt: utc('2030-09-02T07:20:00Z'), key: `${first.id}@2030-09-02T09:30` });
    const tuesday = (await k.nextOccurrence(ctx(BERLIN), s, monday.dueAt))!;
    expect(tuesday).toEqual({ dueAt: utc('2030-09-03T07:20:00Z'), key: `${first.id}@2030-09-03T09:30` });

    const occurrenceOn = async (date: string) => (await ok<any[]>(alice.client.get(`/api/v1/tasks?dayId=${days[date]}`))).find((t) => t.title === 'Standup');
    await ok(alice.client.patch(`/api/v1/tasks/${(await occurrenceOn('2030-09-03')).id}`, { status: 'done' }));
    expect(await k.stillDue(ctx(BERLIN), s, tuesday)).toBe(false);
    expect((await k.nextOccurrence(ctx(BERLIN), s, monday.dueAt))?.key).toBe(`${first.id}@2030-09-04T09:30`);
    // Thursday's task moved to 11:00: its reminder follows it.
    await ok(alice.client.patch(`/api/v1/tasks/${(await occurrenceOn('2030-09-05')).id}`, { startTime: '11:00' }));
    expect(await k.nextOccurrence(ctx(BERLIN), s, utc('2030-09-04T12:00:00Z'))).toEqual({ dueAt: utc('2030-09-05T08:50:00Z'), key: `${first.id}@2030-09-05T11:00` });
    const thursday = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-09-04T12:00:00Z')))!;
    expect(await k.stillDue(ctx(BERLIN), s, thursday)).toBe(true);
    expect((await k.message(ctx(BERLIN), s, thursday)).body).toBe('Starts in 10 minutes, at 11:00; timebox 45 min.');
    // A date whose week was never generated: the series' start time; across the autumn change 09:30 stays 09:30.
    expect((await k.nextOccurrence(ctx(BERLIN), s, utc('2030-10-26T12:00:00Z')))?.dueAt).toEqual(utc('2030-10-27T08:20:00Z'));
  });

  it('checkTarget: another user or a missing task is NOT_FOUND; a task without a day or start time is refused', async () => {
    const { days } = await dayIds(alice.client, '2030-03-04');
    const k = kind('task_start');
    const scheduled = await task(alice.client, days['2030-03-04']!, '08:00');
    await k.checkTarget(ctx(BERLIN), spec(alice, 'task_start', { targetId: scheduled.id }));

    const foreign = await refusal(k.checkTarget(ctx(BERLIN), spec(bob, 'task_start', { targetId: scheduled.id })));
    expect([foreign.code, foreign.details]).toEqual(['NOT_FOUND', { resource: 'Task', field: 'targetId' }]);
    expect(await k.nextOccurrence(ctx(BERLIN), spec(bob, 'task_start', { targetId: scheduled.id }), utc('2030-01-01T00:00:00Z'))).toBeNull();
    expect((await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'task_start', { targetId: MISSING_ID })))).code).toBe('NOT_FOUND');

    const noTime = await task(alice.client, days['2030-03-04']!, null, 'Someday');
    const unscheduled = await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'task_start', { targetId: noTime.id })));
    expect(unscheduled.code).toBe('VALIDATION_ERROR');
    expect(unscheduled.details).toMatchObject({ rule: 'reminder_target_unscheduled', errors: [{ path: ['targetId'] }] });
    expect(unscheduled.message).toContain('no start time');
    const noDay = await task(alice.client, null, '10:00', 'Floating');
    expect((await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'task_start', { targetId: noDay.id })))).message).toContain('no day');
  });
});

describe('deadline', () => {
  it('is due offsetMinutes before a deadline or a card; none once done, stale once moved; says what and when', async () => {
    const k = kind('deadline');
    const project = await ok(alice.client.post('/api/v1/projects', { title: 'Thesis' }));
    const deadline = await ok(alice.client.post('/api/v1/deadlines', { title: 'Submit draft', dueDate: '2030-06-10T15:00:00Z', projectId: project.id, priority: 'high' }));
    const s = spec(alice, 'deadline', { targetId: deadline.id, offsetMinutes: 60 });
    const after = utc('2030-06-01T00:00:00Z');
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, after))!;
    expect(occurrence).toEqual({ dueAt: utc('2030-06-10T14:00:00Z'), key: `${deadline.id}@2030-06-10T15:00:00.000Z` });
    expect(await k.message(ctx(BERLIN), s, occurrence)).toEqual({
      title: 'Submit draft',
      body: 'Due Mon 10 Jun, 17:00 (in 1 hour).\nProject: Thesis, priority high',
      url: `/api/v1/deadlines/${deadline.id}`,
    });
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);

    await ok(alice.client.patch(`/api/v1/deadlines/${deadline.id}`, { dueDate: '2030-06-11T15:00:00Z' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect((await k.nextOccurrence(ctx(BERLIN), s, after))?.key).toBe(`${deadline.id}@2030-06-11T15:00:00.000Z`);
    await ok(alice.client.patch(`/api/v1/deadlines/${deadline.id}`, { status: 'done' }));
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toBeNull();
    expect(await k.stillDue(ctx(BERLIN), s, { dueAt: utc('2030-06-11T14:00:00Z'), key: `${deadline.id}@2030-06-11T15:00:00.000Z` })).toBe(false);

    // A card's due date counts the same; it ends in the board's last column.
    const card = await ok(alice.client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Proofread', dueDate: '2030-06-12T08:00:00Z' }));
    const cardSpec = spec(alice, 'deadline', { targetId: card.id, offsetMinutes: 1440 });
    await k.checkTarget(ctx(NEW_YORK), cardSpec);
    const cardOccurrence = (await k.nextOccurrence(ctx(NEW_YORK), cardSpec, after))!;
    expect(cardOccurrence).toEqual({ dueAt: utc('2030-06-11T08:00:00Z'), key: `${card.id}@2030-06-12T08:00:00.000Z` });
    expect(await k.message(ctx(NEW_YORK), cardSpec, cardOccurrence)).toEqual({
      title: 'Proofread',
      body: 'Due Wed 12 Jun, 04:00 (in 1 day).\nProject: Thesis',
      url: `/api/v1/projects/${project.id}/tasks/${card.id}`,
    });
    const board = await ok(alice.client.get(`/api/v1/projects/${project.id}/board`));
    await ok(alice.client.post(`/api/v1/projects/${project.id}/tasks/${card.id}/move`, { columnId: board.columns.at(-1).id, order: 0 }));
    expect(await k.stillDue(ctx(NEW_YORK), cardSpec, cardOccurrence)).toBe(false);
    expect(await k.nextOccurrence(ctx(NEW_YORK), cardSpec, after)).toBeNull();

    const other = await ok(alice.client.post('/api/v1/deadlines', { title: 'Taxes', dueDate: '2030-07-01T10:00:00Z' }));
    await ok(alice.client.delete(`/api/v1/deadlines/${other.id}`));
    expect(await k.nextOccurrence(ctx(BERLIN), spec(alice, 'deadline', { targetId: other.id }), after)).toBeNull();
  });

  it('checkTarget: another user or a missing id is NOT_FOUND; a card without a due date is refused', async () => {
    const k = kind('deadline');
    const deadline = await ok(alice.client.post('/api/v1/deadlines', { title: 'Mine', dueDate: '2030-06-10T15:00:00Z' }));
    const foreign = await refusal(k.checkTarget(ctx(BERLIN), spec(bob, 'deadline', { targetId: deadline.id })));
    expect([foreign.code, foreign.details]).toEqual(['NOT_FOUND', { resource: 'Deadline', field: 'targetId' }]);
    expect(await k.nextOccurrence(ctx(BERLIN), spec(bob, 'deadline', { targetId: deadline.id }), utc('2030-01-01T00:00:00Z'))).toBeNull();
    expect((await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'deadline', { targetId: MISSING_ID })))).code).toBe('NOT_FOUND');
    const project = await ok(alice.client.post('/api/v1/projects', { title: 'Garden' }));
    const undated = await ok(alice.client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Someday' }));
    const refused = await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'deadline', { targetId: undated.id })));
    expect([refused.code, refused.details?.rule]).toEqual(['VALIDATION_ERROR', 'reminder_target_unscheduled']);
    expect((await refusal(k.checkTarget(ctx(BERLIN), spec(bob, 'deadline', { targetId: undated.id })))).code).toBe('NOT_FOUND');
  });
});

describe('happening', () => {
  it('is due offsetMinutes before it starts; names place and guests; stale once moved, none once deleted', async () => {
    const k = kind('happening');
    const { days } = await dayIds(alice.client, '2030-04-01');
    const carla = await ok(alice.client.post('/api/v1/people', { name: 'Carla' }));
    const dan = await ok(alice.client.post('/api/v1/people', { name: 'Dan' }));
    const lunch = await ok(
      alice.client.post('/api/v1/social-happenings', {
        dayId: days['2030-04-02'],
        title: 'Lunch',
        startTime: '2030-04-02T10:30:00Z',
        endTime: '2030-04-02T12:00:00Z',
        location: 'Café Mitte',
        guestIds: [dan.id, carla.id],
      }),
    );
    const s = spec(alice, 'happening', { targetId: lunch.id, offsetMinutes: 30 });
    await k.checkTarget(ctx(BERLIN), s);
    const after = utc('2030-03-01T00:00:00Z');
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, after))!;
    expect(occurrence).toEqual({ dueAt: utc('2030-04-02T10:00:00Z'), key: `${lunch.id}@2030-04-02T10:30:00.000Z` });
    expect(await k.message(ctx(BERLIN), s, occurrence)).toEqual({
      title: 'Lunch',
      body: 'Tue 2 Apr, 12:30-14:00 (in 30 minutes)\nAt Café Mitte\nWith Carla, Dan',
      url: `/api/v1/social-happenings/${lunch.id}`,
    });
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);

    await ok(alice.client.patch(`/api/v1/social-happenings/${lunch.id}`, { startTime: '2030-04-02T11:00:00Z' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect((await k.nextOccurrence(ctx(BERLIN), s, after))?.dueAt).toEqual(utc('2030-04-02T10:30:00Z'));

    const foreign = await refusal(k.checkTarget(ctx(BERLIN), spec(bob, 'happening', { targetId: lunch.id })));
    expect(foreign.code).toBe('NOT_FOUND');
    await ok(alice.client.delete(`/api/v1/social-happenings/${lunch.id}`));
    expect(await k.nextOccurrence(ctx(BERLIN), s, after)).toBeNull();
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
    expect((await refusal(k.checkTarget(ctx(BERLIN), s))).code).toBe('NOT_FOUND');
  });
});

describe('birthday', () => {
  async function person(client: HttpClient, name: string, birthday: string | null) {
    return ok(client.post('/api/v1/people', { name, ...(birthday ? { birthday } : {}) }));
  }

  it('rings at localTime (09:00 by default) each year; 29 February on the 28th in other years', async () => {
    const k = kind('birthday');
    const leap = await person(alice.client, 'Lea', '1988-02-29');
    const s = spec(alice, 'birthday', { targetId: leap.id });
    const first = (await k.nextOccurrence(ctx(BERLIN), s, utc('2027-01-01T00:00:00Z')))!;
    expect(first).toEqual({ dueAt: utc('2027-02-28T08:00:00Z'), key: `${leap.id}@2027-02-28` });
    expect(await k.message(ctx(BERLIN), s, first)).toEqual({
      title: "Lea's birthday",
      body: 'Today, Sun 28 Feb.\nBorn on 29 February: kept on the 28th this year.',
      url: `/api/v1/people/${leap.id}`,
    });
    // After it, the next year's: 2028 has a 29 February.
    expect(await k.nextOccurrence(ctx(BERLIN), s, first.dueAt)).toEqual({ dueAt: utc('2028-02-29T08:00:00Z'), key: `${leap.id}@2028-02-29` });

    // A day before, at 07:30.
    const early = spec(alice, 'birthday', { targetId: leap.id, localTime: '07:30', offsetMinutes: 1440 });
    const before = (await k.nextOccurrence(ctx(BERLIN), early, utc('2027-03-01T00:00:00Z')))!;
    expect(before).toEqual({ dueAt: utc('2028-02-28T06:30:00Z'), key: `${leap.id}@2028-02-29` });
    expect((await k.message(ctx(BERLIN), early, before)).body).toBe('On Tue 29 Feb (in 1 day).');

    // New York in summer time; the turn of the year.
    const sam = await person(nora.client, 'Sam', '1990-07-04');
    expect((await k.nextOccurrence(ctx(NEW_YORK), spec(nora, 'birthday', { targetId: sam.id }), utc('2027-07-04T12:59:00Z')))?.dueAt).toEqual(utc('2027-07-04T13:00:00Z'));
    expect((await k.nextOccurrence(ctx(NEW_YORK), spec(nora, 'birthday', { targetId: sam.id }), utc('2027-07-04T13:00:00Z')))?.dueAt).toEqual(utc('2028-07-04T13:00:00Z'));
    const jan = await person(alice.client, 'Jan', '2000-01-01');
    expect(await k.nextOccurrence(ctx(BERLIN), spec(alice, 'birthday', { targetId: jan.id }), utc('2027-12-31T23:30:00Z'))).toEqual({
      dueAt: utc('2028-01-01T08:00:00Z'),
      key: `${jan.id}@2028-01-01`,
    });
  });

  it('a changed birthday makes the occurrence stale; no birthday, another user or a missing person is refused', async () => {
    const k = kind('birthday');
    const ola = await person(alice.client, 'Ola', '1991-05-20');
    const s = spec(alice, 'birthday', { targetId: ola.id });
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-01-01T00:00:00Z')))!;
    expect(occurrence.key).toBe(`${ola.id}@2030-05-20`);
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    await ok(alice.client.patch(`/api/v1/people/${ola.id}`, { birthday: '1991-05-21' }));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);

    const foreign = await refusal(k.checkTarget(ctx(BERLIN), spec(bob, 'birthday', { targetId: ola.id })));
    expect([foreign.code, foreign.details]).toEqual(['NOT_FOUND', { resource: 'Person', field: 'targetId' }]);
    expect(await k.nextOccurrence(ctx(BERLIN), spec(bob, 'birthday', { targetId: ola.id }), utc('2030-01-01T00:00:00Z'))).toBeNull();
    expect((await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'birthday', { targetId: MISSING_ID })))).code).toBe('NOT_FOUND');
    const nobody = await person(alice.client, 'No Date', null);
    const none = await refusal(k.checkTarget(ctx(BERLIN), spec(alice, 'birthday', { targetId: nobody.id })));
    expect([none.code, none.details?.rule]).toEqual(['VALIDATION_ERROR', 'reminder_target_unscheduled']);
    await ok(alice.client.delete(`/api/v1/people/${ola.id}`));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);
  });
});

describe('bedtime', () => {
  it('in bed: the target minus offset each day, the stress-week value in a stress week, normal where the week is not generated', async () => {
    const k = kind('bedtime_in_bed');
    const { weekId } = await dayIds(alice.client, '2027-03-22');
    await ok(alice.client.patch(`/api/v1/weeks/${weekId}`, { isStressWeek: true }));
    const s = spec(alice, 'bedtime_in_bed', { offsetMinutes: 15 });
    // Saturday, CET: stress 22:00 - 15.
    const saturday = (await k.nextOccurrence(ctx(BERLIN), s, utc('2027-03-27T12:00:00Z')))!;
    expect(saturday).toEqual({ dueAt: utc('2027-03-27T20:45:00Z'), key: '2027-03-27' });
    expect(await k.message(ctx(BERLIN), s, saturday)).toEqual({
      title: 'Time to get in bed',
      body: 'In bed by 22:00 (in 15 minutes), the stress-week target. Night of Sat 27 Mar.',
      url: '/api/v1/settings',
    });
    expect(await k.stillDue(ctx(BERLIN), s, saturday)).toBe(true);
    // Sunday, after the change to CEST: still 21:45 local.
    const sunday = (await k.nextOccurrence(ctx(BERLIN), s, saturday.dueAt))!;
    expect(sunday).toEqual({ dueAt: utc('2027-03-28T19:45:00Z'), key: '2027-03-28' });
    // Monday's week was never generated: the normal 22:30.
    const monday = (await k.nextOccurrence(ctx(BERLIN), s, sunday.dueAt))!;
    expect(monday).toEqual({ dueAt: utc('2027-03-29T20:15:00Z'), key: '2027-03-29' });
    expect((await k.message(ctx(BERLIN), s, monday)).body).toBe('In bed by 22:30 (in 15 minutes). Night of Mon 29 Mar.');
  });

  it('lights out: a target after midnight belongs to the night before; New York across its autumn change', async () => {
    const k = kind('bedtime_lights_out');
    await ok(nora.client.patch('/api/v1/settings', { lightsOutTime: '00:30' }));
    const s = spec(nora, 'bedtime_lights_out');
    const friday = (await k.nextOccurrence(ctx(NEW_YORK), s, utc('2027-11-05T12:00:00Z')))!;
    // The night of Friday 5 November ends Saturday 00:30 EDT.
    expect(friday).toEqual({ dueAt: utc('2027-11-06T04:30:00Z'), key: '2027-11-05' });
    const saturday = (await k.nextOccurrence(ctx(NEW_YORK), s, friday.dueAt))!;
    // Sunday 00:30 is still EDT (the change is at 02:00).
    expect(saturday).toEqual({ dueAt: utc('2027-11-07T04:30:00Z'), key: '2027-11-06' });
    const sunday = (await k.nextOccurrence(ctx(NEW_YORK), s, saturday.dueAt))!;
    expect(sunday).toEqual({ dueAt: utc('2027-11-08T05:30:00Z'), key: '2027-11-07' });
    expect((await k.message(ctx(NEW_YORK), s, sunday)).body).toBe('Lights out at 00:30. Night of Sun 7 Nov.');
    // In bed stays the 22:30 default on both sides of the change.
    const inBed = kind('bedtime_in_bed');
    expect((await inBed.nextOccurrence(ctx(NEW_YORK), spec(nora, 'bedtime_in_bed'), utc('2027-11-06T12:00:00Z')))?.dueAt).toEqual(utc('2027-11-07T02:30:00Z'));
    expect((await inBed.nextOccurrence(ctx(NEW_YORK), spec(nora, 'bedtime_in_bed'), utc('2027-11-07T12:00:00Z')))?.dueAt).toEqual(utc('2027-11-08T03:30:00Z'));
  });
});

describe('morning brief', () => {
  it('at the wake target (stress-aware), says the perimeter, tasks, training, dinner and what is due soon', async () => {
    const user = await signUp(app.url);
    await ok(user.client.patch('/api/v1/settings', { timezone: BERLIN, stressWeekWakeTime: '06:30' }));
    const k = kind('morning_brief');
    const { weekId, days } = await dayIds(user.client, '2030-01-07');
    const monday = days['2030-01-07']!;
    const s = spec(user, 'morning_brief');

    const normal = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-01-06T12:00:00Z')))!;
    expect(normal).toEqual({ dueAt: utc('2030-01-07T06:00:00Z'), key: '2030-01-07' });
    await ok(user.client.patch(`/api/v1/weeks/${weekId}`, { isStressWeek: true }));
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-01-06T12:00:00Z')))!;
    expect(occurrence).toEqual({ dueAt: utc('2030-01-07T05:30:00Z'), key: '2030-01-07' });

    const perimeter = [];
    for (const title of ['Inbox zero', 'Stretch', 'Call mum']) perimeter.push(await ok(user.client.post('/api/v1/perimeter/tasks', { title })));
    await ok(user.client.post(`/api/v1/perimeter/${monday}`, { taskIds: perimeter.map((p) => p.id) }));
    await task(user.client, monday, null, 'Pay rent');
    await task(user.client, monday, '09:00', 'Write report');
    const done = await task(user.client, monday, '08:00', 'Already done');
    await ok(user.client.patch(`/api/v1/tasks/${done.id}`, { status: 'done' }));
    await ok(user.client.post('/api/v1/training/sessions', { dayId: monday, split: 'Push', startTime: '2030-01-07T17:00:00Z' }));
    const chili = await ok(user.client.post('/api/v1/meal-templates', { name: 'Chili' }));
    const plans = await ok(user.client.post('/api/v1/dinner/generate-week', { weekId }));
    await ok(user.client.patch(`/api/v1/dinner/${plans[0].id}`, { mealTemplateId: chili.id }));
    await ok(user.client.post('/api/v1/deadlines', { title: 'Tax return', dueDate: '2030-01-09T10:00:00Z' }));
    await ok(user.client.post('/api/v1/deadlines', { title: 'Far away', dueDate: '2030-01-20T10:00:00Z' }));
    const project = await ok(user.client.post('/api/v1/projects', { title: 'Site' }));
    await ok(user.client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Launch page', dueDate: '2030-01-08T12:00:00Z' }));

    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    expect(await k.message(ctx(BERLIN), s, occurrence)).toEqual({
      title: 'Good morning: Mon 7 Jan (stress week)',
      body: [
        'Perimeter: Inbox zero, Stretch, Call mum',
        'Tasks: 09:00 Write report, Pay rent',
        'Training: Push at 18:00',
        'Dinner: Chili (cook today)',
        'Due soon: Launch page (Tue 8 Jan), Tax return (Wed 9 Jan)',
        'In bed by 22:00, lights out 22:30.',
      ].join('\n'),
      url: `/api/v1/days/${monday}`,
    });

    // Tuesday eats Monday's meal; a day whose week was never generated says so and uses the normal wake time.
    const tuesday = (await k.message(ctx(BERLIN), s, { dueAt: utc('2030-01-08T05:30:00Z'), key: '2030-01-08' })).body;
    expect(tuesday.split('\n')).toContain('Dinner: Chili (leftovers)');
    const unplanned = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-02-03T12:00:00Z')))!;
    expect(unplanned).toEqual({ dueAt: utc('2030-02-04T06:00:00Z'), key: '2030-02-04' });
    expect(await k.message(ctx(BERLIN), s, unplanned)).toEqual({
      title: 'Good morning: Mon 4 Feb',
      body: 'Nothing planned yet.\nIn bed by 22:30, lights out 23:00.',
      url: '/api/v1/days/today',
    });
  });

  it('names three of each at most and counts the rest', async () => {
    const user = await signUp(app.url);
    const k = kind('morning_brief');
    const { days } = await dayIds(user.client, '2030-01-14');
    for (let i = 1; i <= 5; i++) await task(user.client, days['2030-01-14']!, `0${i}:00`, `Task ${i}`);
    const body = (await k.message(ctx('UTC'), spec(user, 'morning_brief'), { dueAt: utc('2030-01-14T07:00:00Z'), key: '2030-01-14' })).body;
    expect(body.split('\n')[0]).toBe('Tasks: 01:00 Task 1, 02:00 Task 2, 03:00 Task 3 (+2 more)');
  });
});

describe('evening review', () => {
  it('at localTime (21:00 by default); lists what is left; not sent when nothing is or the day was never planned', async () => {
    const user = await signUp(app.url);
    await ok(user.client.patch('/api/v1/settings', { timezone: BERLIN }));
    const k = kind('evening_review');
    const { days } = await dayIds(user.client, '2030-01-07');
    const monday = days['2030-01-07']!;
    const s = spec(user, 'evening_review');
    const occurrence = (await k.nextOccurrence(ctx(BERLIN), s, utc('2030-01-07T12:00:00Z')))!;
    expect(occurrence).toEqual({ dueAt: utc('2030-01-07T20:00:00Z'), key: '2030-01-07' });
    expect((await k.nextOccurrence(ctx(BERLIN), spec(user, 'evening_review', { localTime: '19:15' }), utc('2030-01-07T20:00:00Z')))?.dueAt).toEqual(utc('2030-01-08T18:15:00Z'));
    // Across the spring change: 21:00 stays 21:00.
    expect((await k.nextOccurrence(ctx(BERLIN), s, utc('2030-03-31T12:00:00Z')))?.dueAt).toEqual(utc('2030-03-31T19:00:00Z'));

    const questions: { id: string; question: string }[] = await ok(user.client.get('/api/v1/journal/questions?limit=100'));
    expect(questions.length).toBeGreaterThan(2);
    await ok(user.client.post('/api/v1/journal/entries', { dayId: monday, questionId: questions[0]!.id, answer: 'A walk' }));
    for (const key of ['MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING']) await ok(user.client.post(`/api/v1/checklist/${monday}/toggle/${key}`));

    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    const message = await k.message(ctx(BERLIN), s, occurrence);
    const left = questions.length - 1;
    expect(message).toEqual({
      title: 'Evening review: Mon 7 Jan',
      // The day's first answer ticked JOURNAL.
      body: [`Checklist left: Meditation, Perimeter`, `Journal: ${left} questions to answer`, `- ${questions[1]!.question}`, `- ${questions[2]!.question}`].join('\n'),
      url: `/api/v1/days/${monday}`,
    });

    // Minimum mode needs the core three; with every question answered, nothing is left.
    await ok(user.client.patch(`/api/v1/days/${monday}`, { minimumMode: true }));
    for (const q of questions.slice(1)) await ok(user.client.post('/api/v1/journal/entries', { dayId: monday, questionId: q.id, answer: 'Yes' }));
    const minimum = await k.message(ctx(BERLIN), s, occurrence);
    expect(minimum.body).toBe('Checklist left: Perimeter');
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(true);
    await ok(user.client.post(`/api/v1/checklist/${monday}/toggle/PERIMETER`));
    expect(await k.stillDue(ctx(BERLIN), s, occurrence)).toBe(false);

    // A day never planned: nothing to review.
    expect(await k.stillDue(ctx(BERLIN), s, { dueAt: utc('2030-02-04T20:00:00Z'), key: '2030-02-04' })).toBe(false);
  });

  it("ends with the week so far (insights' weekly summary): what moved against the week before and the longest streak", async () => {
    const user = await signUp(app.url);
    const k = kind('evening_review');
    const before = await dayIds(user.client, '2029-12-31');
    const { days } = await dayIds(user.client, '2030-01-07');
    // Sleep logged on two days of each week (short, then long nights), mood the last three days in a row.
    const log = async (dayId: string, mutation: string) => expect((await user.client.graphql(`mutation($d: UUID!) { ${mutation} }`, { d: dayId })).body.errors).toBeUndefined();
    for (const date of ['2029-12-31', '2030-01-01']) await log(before.days[date]!, 'logSleep(dayId: $d, duration: 6) { duration }');
    for (const date of ['2030-01-07', '2030-01-08']) await log(days[date]!, 'logSleep(dayId: $d, duration: 8) { duration }');
    for (const date of ['2030-01-06']) await log(before.days[date]!, 'logMood(dayId: $d, mood: 6, energy: 6) { mood }');
    for (const date of ['2030-01-07', '2030-01-08']) await log(days[date]!, 'logMood(dayId: $d, mood: 6, energy: 6) { mood }');
    const message = await k.message(ctx('UTC'), spec(user, 'evening_review'), { dueAt: utc('2030-01-08T21:00:00Z'), key: '2030-01-08' });
    expect(message.body.split('\n').at(-1)).toBe('This week: sleep up. Streak: logged your mood 3 days in a row.');
  });
});

describe('registry', () => {
  it('holds every kind, each under its own name', () => {
    for (const [name, implementation] of Object.entries(REMINDER_KIND_IMPLEMENTATIONS)) expect(implementation!.name).toBe(name);
    expect(Object.keys(REMINDER_KIND_IMPLEMENTATIONS).sort()).toEqual(
      ['bedtime_in_bed', 'bedtime_lights_out', 'birthday', 'deadline', 'evening_review', 'habit', 'happening', 'morning_brief', 'task_at_time', 'task_start'].sort(),
    );
  });
});
