import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { DayService } from '../planning/day.service.js';
import { MISSING_ID, expectNotFound, expectValidation, weekDays } from '../training/activity.test-helpers.js';
import { BodyMeasurementService } from './body-measurement.service.js';

let app: TestApp;
let client: HttpClient;
beforeAll(async () => {
  app = await sharedTestApp();
  ({ client } = await signUp(app.url));
});

describe('POST /body-composition/measurements', () => {
  it('creates a measurement (201) with every field', async () => {
    const [day] = await weekDays(client);
    const res = await client.post('/api/v1/body-composition/measurements', {
      dayId: day,
      weight: 82.4,
      bodyFat: 18.5,
      waist: 84,
      hip: 98,
      notes: 'morning',
      measuredAt: '2027-01-04T07:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ dayId: day, weight: 82.4, bodyFat: 18.5, waist: 84, hip: 98, notes: 'morning', measuredAt: '2027-01-04T07:00:00.000Z' });
    const weightOnly = await client.post('/api/v1/body-composition/measurements', { dayId: day, weight: 80 });
    expect(weightOnly.status).toBe(201);
    expect(weightOnly.body.data).toMatchObject({ weight: 80, bodyFat: null, waist: null, hip: null, notes: null });
    const edges = await client.post('/api/v1/body-composition/measurements', { dayId: day, bodyFat: 0 });
    expect(edges.status).toBe(201);
  });

  it.each([
    ['zero weight', { weight: 0 }, 'weight'],
    ['negative weight', { weight: -70 }, 'weight'],
    ['body fat above 100', { bodyFat: 100.5 }, 'bodyFat'],
    ['negative body fat', { bodyFat: -1 }, 'bodyFat'],
    ['zero waist', { waist: 0 }, 'waist'],
    ['a string weight', { weight: '80' }, 'weight'],
    ['no metric at all', { notes: 'nothing measured' }, 'weight'],
    ['a malformed dayId', { dayId: 'abc', weight: 80 }, 'dayId'],
  ])('refuses %s (400)', async (_label, patch, path) => {
    const [day] = await weekDays(client);
    expectValidation(await client.post('/api/v1/body-composition/measurements', { dayId: day, ...patch }), path);
  });

  it('answers 404 for an unknown day and 401 without a session', async () => {
    expectNotFound(await client.post('/api/v1/body-composition/measurements', { dayId: MISSING_ID, weight: 80 }), 'dayId');
    expect((await client.withoutCookie().post('/api/v1/body-composition/measurements', { dayId: MISSING_ID, weight: 80 })).status).toBe(401);
    expect((await client.withoutCookie().get('/api/v1/body-composition/measurements')).status).toBe(401);
  });
});

describe('GET /body-composition/measurements', () => {
  it('lists by measuredAt within a date range of the days, paginated', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own, '2027-10-04');
    const post = async (day: string, weight: number, measuredAt: string) =>
      (await own.post('/api/v1/body-composition/measurements', { dayId: day, weight, measuredAt })).body.data;
    const a = await post(week[0]!, 80, '2027-10-04T07:00:00Z');
    const b = await post(week[3]!, 79.5, '2027-10-07T07:00:00Z');
    const c = await post(week[6]!, 79, '2027-10-10T07:00:00Z');
    const all = await own.get('/api/v1/body-composition/measurements');
    expect(all.body.data.map((m: any) => m.id)).toEqual([a.id, b.id, c.id]);
    expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const range = await own.get('/api/v1/body-composition/measurements?startDate=2027-10-05&endDate=2027-10-09');
    expect(range.body.data.map((m: any) => m.id)).toEqual([b.id]);
    const from = await own.get('/api/v1/body-composition/measurements?startDate=2027-10-07&limit=1');
    expect(from.body).toMatchObject({ data: [{ id: b.id }], meta: { total: 2, limit: 1 } });
    expectValidation(await own.get('/api/v1/body-composition/measurements?startDate=2027-10-09&endDate=2027-10-01'), 'startDate');
    expectValidation(await own.get('/api/v1/body-composition/measurements?endDate=10/01/2027'), 'endDate');
    const day = await own.get(`/api/v1/days/${week[3]}`);
    expect(day.body.data.bodyMeasurements).toEqual([expect.objectContaining({ id: b.id, weight: 79.5 })]);
  });

  it('BodyMeasurementService.create takes an ISO time as the measurement date (Public API body-metrics)', async () => {
    const { id: userId } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const today = await new DayService(em).today(userId);
    const m = await new BodyMeasurementService(em).create(userId, { dayId: today.id, weight: 75, bodyFat: 15, measuredAt: '2027-01-01T06:30:00Z' });
    expect(m).toMatchObject({ dayId: today.id, weight: 75, bodyFat: 15 });
    expect(m.measuredAt.toISOString()).toBe('2027-01-01T06:30:00.000Z');
    const page = await new BodyMeasurementService(app.server.orm.em.fork()).list(userId, {});
    expect(page.items.map((x) => x.id)).toEqual([m.id]);
  });
});
