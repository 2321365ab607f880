import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { DayService } from '../planning/day.service.js';
import { CardioSessionService } from './cardio-session.service.js';
import { MobilitySessionService } from './mobility-session.service.js';
import { ISO, MISSING_ID, expectNotFound, expectValidation, outboxEvents, weekDays } from './activity.test-helpers.js';

let app: TestApp;
let client: HttpClient;
let days: string[];
beforeAll(async () => {
  app = await sharedTestApp();
  ({ client } = await signUp(app.url));
  days = await weekDays(client);
});

const mobility = (dayId: string, extra: Record<string, unknown> = {}) => ({ dayId, focus: 'Hips', duration: 20, intensity: 4, ...extra });
const cardio = (dayId: string, extra: Record<string, unknown> = {}) => ({ dayId, type: 'run', duration: 30, distance: 5.2, intensity: 6, ...extra });

function expectLunchSlot(res: { status: number; body: any }) {
  expectValidation(res, 'dayId');
  expect(res.body.error.details.rule).toBe('lunch_slot');
}

describe('POST /mobility/sessions', () => {
  it('creates a mobility session (201) and lists it', async () => {
    const res = await client.post('/api/v1/mobility/sessions', mobility(days[0]!));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ dayId: days[0], focus: 'Hips', duration: 20, intensity: 4 });
    const second = await client.post('/api/v1/mobility/sessions', mobility(days[0]!, { focus: 'Shoulders' }));
    expect(second.status).toBe(201);
    const list = await client.get(`/api/v1/mobility/sessions?dayId=${days[0]}`);
    expect(list.body.data.map((m: any) => m.focus)).toEqual(['Hips', 'Shoulders']);
    expect(list.body.meta).toMatchObject({ total: 2 });
  });

  it.each([
    ['zero duration', { duration: 0 }, 'duration'],
    ['negative duration', { duration: -10 }, 'duration'],
    ['fractional duration', { duration: 2.5 }, 'duration'],
    ['intensity 0', { intensity: 0 }, 'intensity'],
    ['intensity 11', { intensity: 11 }, 'intensity'],
    ['missing intensity', { intensity: undefined }, 'intensity'],
    ['blank focus', { focus: ' ' }, 'focus'],
    ['malformed dayId', { dayId: 'x' }, 'dayId'],
  ])('refuses %s (400)', async (_label, patch, path) => {
    expectValidation(await client.post('/api/v1/mobility/sessions', { ...mobility(days[6]!), ...patch }), path);
  });

  it('answers 404 for an unknown day and 401 without a session', async () => {
    expectNotFound(await client.post('/api/v1/mobility/sessions', mobility(MISSING_ID)), 'dayId');
    expect((await client.withoutCookie().post('/api/v1/mobility/sessions', mobility(days[0]!))).status).toBe(401);
  });
});

describe('POST /cardio/sessions', () => {
  it('creates a cardio session (201) with every field and records cardio_logged', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    const res = await own.post('/api/v1/cardio/sessions', cardio(day!, {
      effort: 'zone2',
      pace: 5.5,
      averageHeartRate: 140,
      maxHeartRate: 165,
      calories: 350,
      elevationGain: 0,
      startTime: '2027-01-04T12:00:00Z',
      endTime: '2027-01-04T12:30:00Z',
      notes: 'Lunch run',
    }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      dayId: day,
      type: 'run',
      duration: 30,
      distance: 5.2,
      intensity: 6,
      effort: 'zone2',
      pace: 5.5,
      averageHeartRate: 140,
      maxHeartRate: 165,
      calories: 350,
      elevationGain: 0,
      startTime: '2027-01-04T12:00:00.000Z',
      endTime: '2027-01-04T12:30:00.000Z',
      notes: 'Lunch run',
    });
    const events = await outboxEvents(app, ownId);
    expect(events.map((e) => e.event)).toEqual(['cardio_logged']);
    expect(Object.keys(events[0]!.data).sort()).toEqual(['loggedAt', 'sessionId']);
    expect(events[0]!.data.sessionId).toBe(res.body.data.id);
    expect(events[0]!.data.loggedAt).toMatch(ISO);
    const minimal = await own.post('/api/v1/cardio/sessions', { dayId: day, type: 'bike', duration: 45 });
    expect(minimal.status).toBe(201);
    expect(minimal.body.data).toMatchObject({ distance: null, intensity: null, effort: null });
  });

  it.each([
    ['zero duration', { duration: 0 }, 'duration'],
    ['intensity 11', { intensity: 11 }, 'intensity'],
    ['intensity 0', { intensity: 0 }, 'intensity'],
    ['negative distance', { distance: -1 }, 'distance'],
    ['zero distance', { distance: 0 }, 'distance'],
    ['unknown effort', { effort: 'brutal' }, 'effort'],
    ['negative elevation', { elevationGain: -1 }, 'elevationGain'],
    ['zero heart rate', { averageHeartRate: 0 }, 'averageHeartRate'],
    ['missing type', { type: undefined }, 'type'],
    ['end before start', { startTime: '2027-01-04T12:00:00Z', endTime: '2027-01-04T11:00:00Z' }, 'endTime'],
  ])('refuses %s (400) and records nothing', async (_label, patch, path) => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    expectValidation(await own.post('/api/v1/cardio/sessions', { ...cardio(day!), ...patch }), path);
    expect(await outboxEvents(app, ownId)).toEqual([]);
  });

  it('lists by day and date range (404 for an unknown day filter)', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own, '2027-09-06');
    const a = (await own.post('/api/v1/cardio/sessions', cardio(week[0]!, { startTime: '2027-09-06T12:00:00Z' }))).body.data;
    const b = (await own.post('/api/v1/cardio/sessions', cardio(week[3]!, { startTime: '2027-09-09T12:00:00Z' }))).body.data;
    expect((await own.get('/api/v1/cardio/sessions')).body.data.map((c: any) => c.id)).toEqual([a.id, b.id]);
    expect((await own.get(`/api/v1/cardio/sessions?dayId=${week[3]}`)).body.data.map((c: any) => c.id)).toEqual([b.id]);
    expect((await own.get('/api/v1/cardio/sessions?startDate=2027-09-07&endDate=2027-09-12')).body.data.map((c: any) => c.id)).toEqual([b.id]);
    expectNotFound(await own.get(`/api/v1/cardio/sessions?dayId=${MISSING_ID}`), 'dayId');
    expectNotFound(await own.get(`/api/v1/mobility/sessions?dayId=${MISSING_ID}`), 'dayId');
    expectValidation(await own.get('/api/v1/mobility/sessions?startDate=2027-09-10&endDate=2027-09-01'), 'startDate');
  });
});

describe('lunch slot rule (spec rule 2)', () => {
  it('refuses cardio on a day that has mobility (400, rule lunch_slot) and records nothing', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day, other] = await weekDays(own);
    expect((await own.post('/api/v1/mobility/sessions', mobility(day!))).status).toBe(201);
    expectLunchSlot(await own.post('/api/v1/cardio/sessions', cardio(day!)));
    expect((await own.get(`/api/v1/cardio/sessions?dayId=${day}`)).body.meta.total).toBe(0);
    expect(await outboxEvents(app, ownId)).toEqual([]);
    // Another day is free; more mobility on the same day is fine.
    expect((await own.post('/api/v1/cardio/sessions', cardio(other!))).status).toBe(201);
    expect((await own.post('/api/v1/mobility/sessions', mobility(day!))).status).toBe(201);
  });

  it('refuses mobility on a day that has cardio (400, rule lunch_slot)', async () => {
    const { client: own } = await signUp(app.url);
    const [day] = await weekDays(own);
    expect((await own.post('/api/v1/cardio/sessions', cardio(day!))).status).toBe(201);
    expect((await own.post('/api/v1/cardio/sessions', cardio(day!, { type: 'swim' }))).status).toBe(201);
    const res = await own.post('/api/v1/mobility/sessions', mobility(day!));
    expectLunchSlot(res);
    expect(res.body.error.message).toMatch(/lunch slot/i);
    expect((await own.get(`/api/v1/mobility/sessions?dayId=${day}`)).body.meta.total).toBe(0);
  });

  it('answers the same rule through GraphQL', async () => {
    const { client: own } = await signUp(app.url);
    const [day] = await weekDays(own);
    await own.post('/api/v1/mobility/sessions', mobility(day!));
    const res = await own.graphql(`mutation($dayId: UUID!) { createCardioSession(dayId: $dayId, type: "run", duration: 20) { id } }`, { dayId: day });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { rule: 'lunch_slot' } });
  });

  it('lets exactly one of a concurrent mobility and cardio write win', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own);
    for (const day of week) {
      const [m, c] = await Promise.all([
        own.post('/api/v1/mobility/sessions', mobility(day)),
        own.post('/api/v1/cardio/sessions', cardio(day)),
      ]);
      expect([m.status, c.status].sort()).toEqual([201, 400]);
      const loser = m.status === 400 ? m : c;
      expect(loser.body.error.details.rule).toBe('lunch_slot');
      const dayRes = await own.get(`/api/v1/days/${day}`);
      expect(dayRes.body.data.mobilitySessions.length + dayRes.body.data.cardioSessions.length).toBe(1);
    }
  });

  it('holds in the services too, concurrently (as the Public API calls them)', async () => {
    const { id: ownId } = await signUp(app.url);
    const today = await new DayService(app.server.orm.em.fork()).today(ownId);
    const results = await Promise.allSettled([
      new MobilitySessionService(app.server.orm.em.fork()).create(ownId, { dayId: today.id, focus: 'Spine', duration: 10, intensity: 3 }),
      new CardioSessionService(app.server.orm.em.fork()).create(ownId, { dayId: today.id, type: 'row', duration: 15, effort: 'easy' }),
      new CardioSessionService(app.server.orm.em.fork()).create(ownId, { dayId: today.id, type: 'bike', duration: 15, effort: 'hard' }),
    ]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(fulfilled.length).toBeGreaterThanOrEqual(1);
    for (const r of rejected) expect(r.reason).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'lunch_slot' } });
    const em = app.server.orm.em.fork();
    const counts = await em.getConnection().execute(
      `select (select count(*)::int from mobility_sessions where day_id = ?) as m, (select count(*)::int from cardio_sessions where day_id = ?) as c`,
      [today.id, today.id],
    );
    const { m, c } = counts[0] as { m: number; c: number };
    expect(m === 0 || c === 0).toBe(true);
    expect(m + c).toBe(fulfilled.length);
  });
});
