import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import {
  CORE_KEYS,
  MISSING_ID,
  NORMAL_KEYS,
  countRows,
  expectGraphQLError,
  expectNotFound,
  expectValidation,
  firstDay,
  outboxEvents,
} from './planning.test-helpers.js';

let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** Today in `timeZone` as the test sees it; a request that straddles midnight may see either date. */
async function expectToday(client: HttpClient, timeZone: string): Promise<any> {
  const before = todayIn(timeZone);
  const res = await client.get('/api/v1/days/today');
  const after = todayIn(timeZone);
  expect(res.status, res.text).toBe(200);
  expect([before, after]).toContain(res.body.data.date);
  return res.body.data;
}

describe('GET /days/today', () => {
  it("creates today's day (and its week) in UTC by default, and returns the same day afterwards", async () => {
    const { client, id } = await signUp(app.url);
    const today = await expectToday(client, 'UTC');
    expect(today.checklist.map((i: any) => i.key)).toEqual(NORMAL_KEYS);
    expect(await countRows(app, 'weeks', id)).toBe(1);
    expect(await countRows(app, 'days', id)).toBe(7);
    const again = await client.get('/api/v1/days/today');
    expect(again.body.data.id).toBe(today.id);
    expect(await countRows(app, 'days', id)).toBe(7);
    // The week that holds today is the one whose Monday is on or before today.
    const week = await client.get(`/api/v1/days/${today.id}`);
    expect(week.body.data.weekId).toBe(today.weekId);
  });

  it("follows the user's time zone: Pacific/Kiritimati (UTC+14) and Etc/GMT+12 (UTC-12) give different dates", async () => {
    const { client } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: 'Pacific/Kiritimati' })).status).toBe(200);
    const east = await expectToday(client, 'Pacific/Kiritimati');
    expect((await client.patch('/api/v1/settings', { timezone: 'Etc/GMT+12' })).status).toBe(200);
    const west = await expectToday(client, 'Etc/GMT+12');
    // 26 hours apart: the two calendars are always one or two days apart.
    const gap = (Date.parse(east.date) - Date.parse(west.date)) / 86_400_000;
    expect([1, 2]).toContain(gap);
    expect(east.id).not.toBe(west.id);
  });

  it('creates one day when many requests race for today', async () => {
    const { client, id } = await signUp(app.url);
    const results = await Promise.all(Array.from({ length: 5 }, () => client.get('/api/v1/days/today')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await countRows(app, 'weeks', id)).toBe(1);
    expect(await countRows(app, 'days', id)).toBe(7);
  });

  it('works through GraphQL and needs a session', async () => {
    const { client } = await signUp(app.url);
    const res = await client.graphql('{ today { id date requiredChecklist } }');
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.today.date).toBe(todayIn('UTC'));
    expect((await client.withoutCookie().get('/api/v1/days/today')).status).toBe(401);
  });
});

describe('GET /days/:dayId', () => {
  it('returns the day with its relations', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const res = await client.get(`/api/v1/days/${day.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: day.id, date: day.date, notes: null, minimumMode: false, mood: null, energy: null, sleepHours: null, completed: false });
    expect(res.body.data.checklist).toHaveLength(10);
    expect(res.body.data.perimeterTasks).toEqual([]);
    expect(res.body.data.bedtimeTargets).toMatchObject({ stressWeek: false });
  });

  it('answers 404 for an unknown day and 400 for an id that is not a UUID', async () => {
    const { client } = await signUp(app.url);
    expectNotFound(await client.get(`/api/v1/days/${MISSING_ID}`));
    expectValidation(await client.get('/api/v1/days/123'), 'dayId');
    expectValidation(await client.get('/api/v1/days/2030-01-07'), 'dayId');
    expectGraphQLError(await client.graphql(`{ day(dayId: "${MISSING_ID}") { id } }`), 'NOT_FOUND');
    expectGraphQLError(await client.graphql('query($id: UUID!) { day(dayId: $id) { id } }', { id: 'nope' }), 'VALIDATION_ERROR');
  });
});

describe('PATCH /days/:dayId', () => {
  it('updates notes, mood, energy and sleepHours, leaving what is not sent', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const res = await client.patch(`/api/v1/days/${day.id}`, { notes: 'Slept badly', mood: 7, energy: 3, sleepHours: 6.5 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ notes: 'Slept badly', mood: 7, energy: 3, sleepHours: 6.5, minimumMode: false });
    const partial = await client.patch(`/api/v1/days/${day.id}`, { mood: 10 });
    expect(partial.body.data).toMatchObject({ notes: 'Slept badly', mood: 10, energy: 3, sleepHours: 6.5 });
    const edges = await client.patch(`/api/v1/days/${day.id}`, { mood: 1, energy: 10, sleepHours: 0 });
    expect(edges.body.data).toMatchObject({ mood: 1, energy: 10, sleepHours: 0 });
    expect((await client.patch(`/api/v1/days/${day.id}`, { sleepHours: 24 })).body.data.sleepHours).toBe(24);
    const stored = await client.get(`/api/v1/days/${day.id}`);
    expect(stored.body.data).toMatchObject({ notes: 'Slept badly', mood: 1, energy: 10, sleepHours: 24 });
  });

  it('refuses out-of-range and wrongly typed values (400 naming the field) and changes nothing', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    await client.patch(`/api/v1/days/${day.id}`, { mood: 5, energy: 5, sleepHours: 8, notes: 'kept' });
    const bad: [string, unknown][] = [
      ['mood', 0],
      ['mood', 11],
      ['mood', 5.5],
      ['mood', '5'],
      ['energy', 0],
      ['energy', 11],
      ['energy', -1],
      ['sleepHours', -0.5],
      ['sleepHours', 24.01],
      ['sleepHours', '8'],
      ['notes', 42],
      ['notes', ['a']],
      ['notes', { text: 'a' }],
      ['minimumMode', 'true'],
      ['minimumMode', 1],
    ];
    for (const [field, value] of bad) {
      expectValidation(await client.patch(`/api/v1/days/${day.id}`, { [field]: value }), field);
    }
    const stored = await client.get(`/api/v1/days/${day.id}`);
    expect(stored.body.data).toMatchObject({ mood: 5, energy: 5, sleepHours: 8, notes: 'kept', minimumMode: false });
  });

  it('answers 404 for an unknown day', async () => {
    const { client } = await signUp(app.url);
    expectNotFound(await client.patch(`/api/v1/days/${MISSING_ID}`, { notes: 'x' }));
  });

  it('toggles minimum mode, records minimum_mode_toggled each time it changes, and switches the required checklist', async () => {
    const { client, id } = await signUp(app.url);
    const day = await firstDay(client);
    // REST says which items the mode requires on each item (`requiredChecklist` is GraphQL's: issue 36, item 6).
    const required = (answer: any) => answer.checklist.filter((i: any) => i.required).map((i: any) => i.key);
    expect(required(day)).toEqual(NORMAL_KEYS);

    const on = await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.data.minimumMode).toBe(true);
    expect(required(on.body.data)).toEqual(CORE_KEYS);
    expect((await client.graphql(`{ day(dayId: "${day.id}") { requiredChecklist } }`)).body.data.day.requiredChecklist).toEqual(CORE_KEYS);

    // Same value again: not a toggle, no event.
    await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    await client.patch(`/api/v1/days/${day.id}`, { notes: 'no mode change' });
    const off = await client.patch(`/api/v1/days/${day.id}`, { minimumMode: false });
    expect(required(off.body.data)).toEqual(NORMAL_KEYS);

    const events = await outboxEvents(app, id, 'minimum_mode_toggled');
    expect(events.map((e) => e.data)).toEqual([
      { dayId: day.id, minimumMode: true, toggledAt: expect.any(String) },
      { dayId: day.id, minimumMode: false, toggledAt: expect.any(String) },
    ]);
    for (const e of events) {
      expect(Object.keys(e.data).sort()).toEqual(['dayId', 'minimumMode', 'toggledAt']);
      expect(new Date(e.data.toggledAt as string).toISOString()).toBe(e.data.toggledAt);
    }
  });

  it('works through GraphQL with the same validation', async () => {
    const { client } = await signUp(app.url);
    const day = await firstDay(client);
    const m = 'mutation($id: UUID!, $mood: Int, $notes: String) { updateDay(dayId: $id, mood: $mood, notes: $notes) { mood notes } }';
    const ok = await client.graphql(m, { id: day.id, mood: 4, notes: 'gql' });
    expect(ok.body.data.updateDay).toEqual({ mood: 4, notes: 'gql' });
    expectGraphQLError(await client.graphql(m, { id: day.id, mood: 11 }), 'VALIDATION_ERROR');
    expectGraphQLError(await client.graphql(m, { id: MISSING_ID, mood: 3 }), 'NOT_FOUND');
  });
});
