import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpResult } from '../../test/support/http-client.js';
import { todayIn } from '../core/dates.js';
import { outboxEvents, createExercise } from '../training/activity.test-helpers.js';
import { expectUnauthorized, keyHolder, KeyClient, MISSING_ID, PUBLIC } from './public-api.test-helpers.js';
import { BODY_WEIGHT_MAX_KG } from '../body/body.types.js';
import {
  CALORIES_MAX,
  DISTANCE_MAX_KM,
  ELEVATION_GAIN_MAX_M,
  HEART_RATE_MAX,
  LOAD_MAX_KG,
  PACE_MAX,
  REPS_MAX,
  SET_NUMBER_MAX,
} from '../training/training.types.js';
import { STEPS_MAX, WATER_VOLUME_MAX_ML } from '../wellness/wellness.types.js';

let app: TestApp;
let user: Awaited<ReturnType<typeof keyHolder>>;
beforeAll(async () => {
  app = await sharedTestApp();
  user = await keyHolder(app);
});

const ISO_TIME = '2026-11-22T06:45:00.000Z';

function expectOk(res: HttpResult, data: unknown): void {
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ ok: true, data });
  expect(res.headers.get('api-version')).toBe('v1');
}

/** 400 VALIDATION_ERROR whose details.errors is [{ path: array, message: string }] and names `path`. */
function expectInvalid(res: HttpResult, path: (string | number)[]): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.ok).toBe(false);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const errors = res.body.error.details.errors;
  expect(Array.isArray(errors)).toBe(true);
  for (const e of errors) {
    expect(Array.isArray(e.path)).toBe(true);
    expect(typeof e.message).toBe('string');
  }
  expect(errors.map((e: any) => e.path), res.text).toContainEqual(path);
}

async function today(client = user.client): Promise<any> {
  const res = await client.graphql(`{ today {
    id date mood energy sleepHours
    waterIntakes { id volume time notes }
    stepsEntries { id steps time notes }
    meditationSessions { id duration type time notes }
    moodEntries { id mood energy notes }
    sleepEntries { id duration bedtime wakeTime quality notes }
    cardioSessions { id type duration effort distance pace averageHeartRate maxHeartRate calories elevationGain startTime endTime notes }
    trainingSessions { id split sessionRPE startTime endTime notes exercises { exerciseId sets { setNumber reps load } } }
    bodyMeasurements { id weight bodyFat notes measuredAt }
  } }`);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.today;
}

async function events(userId: string, name: string) {
  return (await outboxEvents(app, userId)).filter((e) => e.event === name);
}

describe('the surface', () => {
  it('refuses every route without a valid key (401, nothing written)', async () => {
    const anon = new KeyClient(app.url, `svc_${'x'.repeat(43)}`);
    const routes: [string, string, unknown][] = [
      ['GET', '/exercises/search', undefined],
      ['POST', '/water', { volume: 250 }],
      ['POST', '/workouts', { splitLabel: 'Push' }],
      ['POST', '/steps', { steps: 100 }],
      ['POST', '/meditation', { duration: 10 }],
      ['POST', '/cardio', { type: 'run', duration: 30 }],
      ['POST', '/mood', { mood: 5, energy: 5 }],
      ['POST', '/sleep', { duration: 7 }],
      ['POST', '/body-metrics', { weight: 80 }],
    ];
    for (const [method, path, body] of routes) {
      expectUnauthorized(method === 'GET' ? await anon.get(path) : await anon.post(path, body));
      expectUnauthorized(await anon.http.request(method, PUBLIC + path, { body }));
    }
    expect((await outboxEvents(app, user.id)).length).toBe(0);
  });

  it('answers an unknown route 404 and a wrong method 405, in the envelope, with API-Version', async () => {
    const res = await user.api.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(res.headers.get('api-version')).toBe('v1');
    const wrong = await user.api.get('/water');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const head = await user.api.http.request('HEAD', `${PUBLIC}/exercises/search?q=squat`, { headers: { authorization: `Bearer ${user.key}` } });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    // Session routes are not on this surface.
    expect((await user.api.get('/tasks')).status).toBe(404);
    expect((await user.api.get('/api-keys')).status).toBe(404);
  });

  it('refuses malformed JSON and a non-object body with the validation shape', async () => {
    expectInvalid(await user.api.http.request('POST', `${PUBLIC}/water`, { rawBody: '{"volume":', headers: { authorization: `Bearer ${user.key}` } }), []);
    expectInvalid(await user.api.post('/water', [1, 2]), []);
  });

  it('API keys do not open the session API or /graphql (401), even routes that exist', async () => {
    const bearer = { headers: { authorization: `Bearer ${user.key}` } };
    const anon = user.client.withoutCookie();
    for (const path of ['/api/v1/auth/me', '/api/v1/tasks', '/api/v1/webhooks', '/api/v1/settings', '/api/v1/days/today', '/api/v1/subscription']) {
      expectUnauthorized(await anon.get(path, bearer));
    }
    expectUnauthorized(await anon.post('/api/v1/webhooks', { url: 'https://example.com/hook', events: ['water_logged'] }, bearer));
    const gql = await anon.request('POST', '/graphql', { body: { query: 'mutation { publicLogWater(volume: 100) { id } }' }, ...bearer });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    const me = await anon.request('POST', '/graphql', { body: { query: '{ me { id } }' }, ...bearer });
    expect(me.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /exercises/search', () => {
  it('lists the caller\'s catalog as { id, name, muscleGroup }, filtered by q', async () => {
    const own = await createExercise(user.client, { name: 'Zercher Carry Deluxe', muscleGroups: ['Core', 'Back'] });
    const res = await user.api.get('/exercises/search?q=zercher%20carry%20DELUXE');
    expectOk(res, [{ id: own.id, name: 'Zercher Carry Deluxe', muscleGroup: 'core' }]);
    const all = await user.api.get('/exercises/search');
    expect(all.body.data.length).toBeGreaterThan(1);
    for (const e of all.body.data) expect(Object.keys(e).sort()).toEqual(['id', 'muscleGroup', 'name']);
    expectOk(await user.api.get('/exercises/search?q=no-such-exercise-anywhere'), []);
  });

  it('does not show another user\'s exercises', async () => {
    const other = await keyHolder(app);
    await createExercise(other.client, { name: 'Secret Bob Lift' });
    expectOk(await user.api.get('/exercises/search?q=Secret%20Bob'), []);
    expect((await other.api.get('/exercises/search?q=Secret%20Bob')).body.data).toHaveLength(1);
  });

  it('refuses a q longer than 200 characters', async () => {
    expectInvalid(await user.api.get(`/exercises/search?q=${'a'.repeat(201)}`), ['q']);
  });
});

describe('POST /water', () => {
  it('logs water on today, records water_logged, and answers only id, volume, time, message', async () => {
    const res = await user.api.post('/water', { volume: 330.5, time: ISO_TIME, notes: 'after run' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'message', 'time', 'volume']);
    expect(res.body.data).toMatchObject({ volume: 330.5, time: ISO_TIME });
    const day = await today();
    expect(day.waterIntakes).toContainEqual({ id: res.body.data.id, volume: 330.5, time: ISO_TIME, notes: 'after run' });
    const logged = await events(user.id, 'water_logged');
    expect(logged.map((e) => e.data)).toContainEqual({ intakeId: res.body.data.id, amount: 330.5, loggedAt: expect.any(String) });
  });

  it('defaults time to now', async () => {
    const before = Date.now();
    const res = await user.api.post('/water', { volume: 200 });
    expect(Date.parse(res.body.data.time)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('validates volume, time and notes', async () => {
    expectInvalid(await user.api.post('/water', {}), ['volume']);
    expectInvalid(await user.api.post('/water', { volume: 0 }), ['volume']);
    expectInvalid(await user.api.post('/water', { volume: -5 }), ['volume']);
    expectInvalid(await user.api.post('/water', { volume: 'lots' }), ['volume']);
    expectInvalid(await user.api.post('/water', { volume: 100, time: 'yesterday' }), ['time']);
    expectInvalid(await user.api.post('/water', { volume: 100, notes: 'x'.repeat(2001) }), ['notes']);
    expectInvalid(await user.api.post('/water', { volume: 100, notes: 5 }), ['notes']);
  });

  it('never takes dayId: a dayId in the body is ignored and the intake lands on today', async () => {
    const week = await user.client.post('/api/v1/weeks/generate', { startDate: '2030-01-07' });
    const otherDay = week.body.data.days[0].id;
    const res = await user.api.post('/water', { volume: 111, dayId: otherDay });
    expect(res.status).toBe(200);
    expect((await today()).waterIntakes.map((w: any) => w.id)).toContain(res.body.data.id);
  });
});

describe('POST /workouts', () => {
  it('logs a training session with exercises and sets, records training_logged', async () => {
    const own = await createExercise(user.client, { name: 'Landmine Press Public' });
    const res = await user.api.post('/workouts', {
      splitLabel: 'Push',
      startTime: '2026-11-22T06:00:00.000Z',
      endTime: '2026-11-22T07:00:00.000Z',
      sessionRPE: 8,
      notes: 'good',
      exercises: [{ exerciseId: own.id, sets: [{ setNumber: 1, reps: 8, weight: 40 }, { setNumber: 2, reps: 6, weight: 42.5 }] }],
    });
    expectOk(res, { id: expect.any(String), splitLabel: 'Push', exercisesCount: 1, message: expect.any(String) });
    const session = (await today()).trainingSessions.find((s: any) => s.id === res.body.data.id);
    expect(session).toEqual({
      id: res.body.data.id,
      split: 'Push',
      sessionRPE: 8,
      startTime: '2026-11-22T06:00:00.000Z',
      endTime: '2026-11-22T07:00:00.000Z',
      notes: 'good',
      exercises: [{ exerciseId: own.id, sets: [{ setNumber: 1, reps: 8, load: 40 }, { setNumber: 2, reps: 6, load: 42.5 }] }],
    });
    expect((await events(user.id, 'training_logged')).map((e) => e.data)).toContainEqual({ sessionId: res.body.data.id, split: 'Push', loggedAt: expect.any(String) });
    // Readable through the session REST API too.
    const rest = await user.client.get(`/api/v1/training/sessions/${res.body.data.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ split: 'Push', sessionRPE: 8 });
  });

  it('logs a session without exercises', async () => {
    expectOk(await user.api.post('/workouts', { splitLabel: 'Legs' }), { id: expect.any(String), splitLabel: 'Legs', exercisesCount: 0, message: expect.any(String) });
  });

  it('validates every field', async () => {
    const ok = { splitLabel: 'Pull' };
    expectInvalid(await user.api.post('/workouts', {}), ['splitLabel']);
    expectInvalid(await user.api.post('/workouts', { splitLabel: '  ' }), ['splitLabel']);
    expectInvalid(await user.api.post('/workouts', { ...ok, sessionRPE: 0 }), ['sessionRPE']);
    expectInvalid(await user.api.post('/workouts', { ...ok, sessionRPE: 11 }), ['sessionRPE']);
    expectInvalid(await user.api.post('/workouts', { ...ok, sessionRPE: 7.5 }), ['sessionRPE']);
    expectInvalid(await user.api.post('/workouts', { ...ok, startTime: 'soon' }), ['startTime']);
    expectInvalid(await user.api.post('/workouts', { ...ok, startTime: '2026-11-22T08:00:00Z', endTime: '2026-11-22T07:00:00Z' }), ['endTime']);
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ sets: [] }] }), ['exercises', 0, 'exerciseId']);
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ exerciseId: 'nope' }] }), ['exercises', 0, 'exerciseId']);
    const ex = MISSING_ID;
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ exerciseId: ex, sets: [{ reps: 5 }] }] }), ['exercises', 0, 'sets', 0, 'setNumber']);
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ exerciseId: ex, sets: [{ setNumber: 0 }] }] }), ['exercises', 0, 'sets', 0, 'setNumber']);
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ exerciseId: ex, sets: [{ setNumber: 1, reps: 0 }] }] }), ['exercises', 0, 'sets', 0, 'reps']);
    expectInvalid(await user.api.post('/workouts', { ...ok, exercises: [{ exerciseId: ex, sets: [{ setNumber: 1, weight: -1 }] }] }), ['exercises', 0, 'sets', 0, 'weight']);
  });

  it('refuses an exercise that is not in the caller\'s catalog (404 naming exercises), writing nothing', async () => {
    const other = await keyHolder(app);
    const theirs = await createExercise(other.client, { name: 'Bob Only Row' });
    const before = (await today()).trainingSessions.length;
    for (const id of [theirs.id, MISSING_ID]) {
      const res = await user.api.post('/workouts', { splitLabel: 'Pull', exercises: [{ exerciseId: id, sets: [{ setNumber: 1 }] }] });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'exercises' } });
    }
    expect((await today()).trainingSessions.length).toBe(before);
  });
});

describe('POST /steps', () => {
  it('logs steps (0 allowed) and answers steps and message', async () => {
    expectOk(await user.api.post('/steps', { steps: 8123, time: ISO_TIME, notes: 'walk' }), { steps: 8123, message: expect.any(String) });
    expectOk(await user.api.post('/steps', { steps: 0 }), { steps: 0, message: expect.any(String) });
    expect((await today()).stepsEntries).toContainEqual(expect.objectContaining({ steps: 8123, time: ISO_TIME, notes: 'walk' }));
  });

  it('validates steps', async () => {
    expectInvalid(await user.api.post('/steps', {}), ['steps']);
    expectInvalid(await user.api.post('/steps', { steps: -1 }), ['steps']);
    expectInvalid(await user.api.post('/steps', { steps: 1.5 }), ['steps']);
    expectInvalid(await user.api.post('/steps', { steps: 10, time: 12 }), ['time']);
  });
});

describe('POST /meditation', () => {
  it('logs a session, records meditation_logged, answers duration, type, time, message', async () => {
    const res = await user.api.post('/meditation', { duration: 15, type: 'breathing', time: ISO_TIME, notes: 'calm' });
    expectOk(res, { duration: 15, type: 'breathing', time: ISO_TIME, message: expect.any(String) });
    const session = (await today()).meditationSessions.find((m: any) => m.type === 'breathing');
    expect(session).toMatchObject({ duration: 15, time: ISO_TIME, notes: 'calm' });
    expect((await events(user.id, 'meditation_logged')).map((e) => e.data)).toContainEqual({ sessionId: session.id, duration: 15, loggedAt: expect.any(String) });
    expectOk(await user.api.post('/meditation', { duration: 5 }), { duration: 5, type: null, time: expect.any(String), message: expect.any(String) });
  });

  it("completes today's MEDITATION checklist item with the minutes and records checklist_completed", async () => {
    const holder = await keyHolder(app);
    expectOk(await holder.api.post('/meditation', { duration: 25 }), { duration: 25, type: null, time: expect.any(String), message: expect.any(String) });
    const day = (await holder.client.get('/api/v1/days/today')).body.data;
    const item = (await holder.client.get(`/api/v1/checklist/${day.id}`)).body.data.find((i: any) => i.key === 'MEDITATION');
    expect(item).toMatchObject({ completed: true, value: 25 });
    expect((await outboxEvents(app, holder.id, 'checklist_completed')).map((e) => e.data)).toEqual([{ dayId: day.id, itemKey: 'MEDITATION', completedAt: expect.any(String) }]);
  });

  it('validates duration and type', async () => {
    expectInvalid(await user.api.post('/meditation', {}), ['duration']);
    expectInvalid(await user.api.post('/meditation', { duration: 0 }), ['duration']);
    expectInvalid(await user.api.post('/meditation', { duration: 2.5 }), ['duration']);
    expectInvalid(await user.api.post('/meditation', { duration: 10, type: 7 }), ['type']);
  });
});

describe('POST /cardio', () => {
  it('logs a session with every field, records cardio_logged, default intensity easy', async () => {
    const res = await user.api.post('/cardio', {
      type: 'run',
      duration: 42,
      intensity: 'zone2',
      distance: 8.4,
      pace: 5,
      averageHeartRate: 142,
      maxHeartRate: 171,
      calories: 520,
      elevationGain: 0,
      startTime: '2026-11-22T06:00:00.000Z',
      endTime: '2026-11-22T06:42:00.000Z',
      notes: 'river loop',
    });
    expectOk(res, { id: expect.any(String), type: 'run', duration: 42, message: expect.any(String) });
    const day = await today();
    expect(day.cardioSessions.find((c: any) => c.id === res.body.data.id)).toEqual({
      id: res.body.data.id,
      type: 'run',
      duration: 42,
      effort: 'zone2',
      distance: 8.4,
      pace: 5,
      averageHeartRate: 142,
      maxHeartRate: 171,
      calories: 520,
      elevationGain: 0,
      startTime: '2026-11-22T06:00:00.000Z',
      endTime: '2026-11-22T06:42:00.000Z',
      notes: 'river loop',
    });
    expect((await events(user.id, 'cardio_logged')).map((e) => e.data)).toContainEqual({ sessionId: res.body.data.id, loggedAt: expect.any(String) });

    const plain = await user.api.post('/cardio', { type: 'bike', duration: 20 });
    expect(plain.status).toBe(200);
    expect((await today()).cardioSessions.find((c: any) => c.id === plain.body.data.id).effort).toBe('easy');
    const rest = await user.client.get(`/api/v1/cardio/sessions?dayId=${day.id}`);
    expect(rest.body.data.map((c: any) => c.id)).toEqual(expect.arrayContaining([res.body.data.id, plain.body.data.id]));
  });

  it('takes an explicit null intensity as left out: the spec default easy', async () => {
    const res = await user.api.post('/cardio', { type: 'swim', duration: 15, intensity: null });
    expectOk(res, { id: expect.any(String), type: 'swim', duration: 15, message: expect.any(String) });
    expect((await today()).cardioSessions.find((c: any) => c.id === res.body.data.id).effort).toBe('easy');
  });

  it('validates every field', async () => {
    const ok = { type: 'run', duration: 30 };
    expectInvalid(await user.api.post('/cardio', { duration: 30 }), ['type']);
    expectInvalid(await user.api.post('/cardio', { type: 'run' }), ['duration']);
    expectInvalid(await user.api.post('/cardio', { ...ok, duration: 0 }), ['duration']);
    expectInvalid(await user.api.post('/cardio', { ...ok, intensity: 'medium' }), ['intensity']);
    expectInvalid(await user.api.post('/cardio', { ...ok, intensity: 5 }), ['intensity']);
    for (const field of ['distance', 'pace']) {
      expectInvalid(await user.api.post('/cardio', { ...ok, [field]: 0 }), [field]);
      expectInvalid(await user.api.post('/cardio', { ...ok, [field]: -2 }), [field]);
    }
    for (const field of ['averageHeartRate', 'maxHeartRate', 'calories']) {
      expectInvalid(await user.api.post('/cardio', { ...ok, [field]: 0 }), [field]);
      expectInvalid(await user.api.post('/cardio', { ...ok, [field]: 120.5 }), [field]);
    }
    expectInvalid(await user.api.post('/cardio', { ...ok, elevationGain: -1 }), ['elevationGain']);
    expectInvalid(await user.api.post('/cardio', { ...ok, startTime: '2026-11-22T08:00:00Z', endTime: '2026-11-22T07:00:00Z' }), ['endTime']);
  });

  it('applies the lunch slot rule: no cardio on a day with mobility (400, nothing written)', async () => {
    const other = await keyHolder(app);
    const day = await today(other.client);
    const mobility = await other.client.post('/api/v1/mobility/sessions', { dayId: day.id, focus: 'hips', duration: 20, intensity: 4 });
    expect(mobility.status, mobility.text).toBe(201);
    const res = await other.api.post('/cardio', { type: 'run', duration: 30 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.rule).toBe('lunch_slot');
    expect((await today(other.client)).cardioSessions).toEqual([]);
    expect(await events(other.id, 'cardio_logged')).toEqual([]);
  });
});

describe('POST /mood', () => {
  it('writes the day\'s mood and energy', async () => {
    expectOk(await user.api.post('/mood', { mood: 7, energy: 4, notes: 'ok', time: ISO_TIME }), { mood: 7, energy: 4, message: expect.any(String) });
    const day = await today();
    expect(day).toMatchObject({ mood: 7, energy: 4 });
    expect(day.moodEntries).toContainEqual(expect.objectContaining({ mood: 7, energy: 4, notes: 'ok' }));
  });

  it('validates mood and energy (integers 1-10, both required)', async () => {
    expectInvalid(await user.api.post('/mood', { energy: 5 }), ['mood']);
    expectInvalid(await user.api.post('/mood', { mood: 5 }), ['energy']);
    expectInvalid(await user.api.post('/mood', { mood: 0, energy: 5 }), ['mood']);
    expectInvalid(await user.api.post('/mood', { mood: 11, energy: 5 }), ['mood']);
    expectInvalid(await user.api.post('/mood', { mood: 5, energy: 10.5 }), ['energy']);
    expectInvalid(await user.api.post('/mood', { mood: 5, energy: 0 }), ['energy']);
  });
});

describe('POST /sleep', () => {
  it('sets the day\'s sleepHours and stores bedtime, wake time and quality', async () => {
    const body = { duration: 7.5, bedtime: '2026-11-21T22:30:00.000Z', wakeTime: '2026-11-22T06:00:00.000Z', quality: 8, notes: 'deep' };
    expectOk(await user.api.post('/sleep', body), { sleepHours: 7.5, message: expect.any(String) });
    const day = await today();
    expect(day.sleepHours).toBe(7.5);
    expect(day.sleepEntries).toContainEqual({ id: expect.any(String), ...body });
  });

  it('validates duration, quality and the times', async () => {
    expectInvalid(await user.api.post('/sleep', {}), ['duration']);
    expectInvalid(await user.api.post('/sleep', { duration: 0 }), ['duration']);
    expectInvalid(await user.api.post('/sleep', { duration: 7, quality: 0 }), ['quality']);
    expectInvalid(await user.api.post('/sleep', { duration: 7, quality: 11 }), ['quality']);
    expectInvalid(await user.api.post('/sleep', { duration: 7, bedtime: 'late' }), ['bedtime']);
    expectInvalid(await user.api.post('/sleep', { duration: 7, bedtime: '2026-11-22T06:00:00Z', wakeTime: '2026-11-21T22:00:00Z' }), ['wakeTime']);
  });
});

describe('POST /body-metrics', () => {
  it('logs a measurement, time as the measurement date', async () => {
    const res = await user.api.post('/body-metrics', { weight: 81.2, bodyFat: 17.5, notes: 'morning', time: ISO_TIME });
    expectOk(res, { id: expect.any(String), weight: 81.2, bodyFat: 17.5, message: expect.any(String) });
    expect((await today()).bodyMeasurements).toContainEqual({ id: res.body.data.id, weight: 81.2, bodyFat: 17.5, notes: 'morning', measuredAt: ISO_TIME });
    const rest = await user.client.get('/api/v1/body-composition/measurements');
    expect(rest.body.data.map((m: any) => m.id)).toContain(res.body.data.id);
    expectOk(await user.api.post('/body-metrics', { weight: 80 }), { id: expect.any(String), weight: 80, bodyFat: null, message: expect.any(String) });
  });

  it('validates weight and bodyFat', async () => {
    expectInvalid(await user.api.post('/body-metrics', {}), ['weight']);
    expectInvalid(await user.api.post('/body-metrics', { bodyFat: 20 }), ['weight']);
    expectInvalid(await user.api.post('/body-metrics', { weight: 0 }), ['weight']);
    expectInvalid(await user.api.post('/body-metrics', { weight: 80, bodyFat: -1 }), ['bodyFat']);
    expectInvalid(await user.api.post('/body-metrics', { weight: 80, bodyFat: 100.5 }), ['bodyFat']);
    expectInvalid(await user.api.post('/body-metrics', { weight: 80, time: 'now' }), ['time']);
  });
});

describe('upper bounds', () => {
  it('are the session API\'s: above them a write is refused naming the field, at them it is taken', async () => {
    const cases: [string, Record<string, unknown>, string, number][] = [
      ['/water', {}, 'volume', WATER_VOLUME_MAX_ML],
      ['/steps', {}, 'steps', STEPS_MAX],
      ['/body-metrics', {}, 'weight', BODY_WEIGHT_MAX_KG],
      ['/cardio', { type: 'run', duration: 30 }, 'distance', DISTANCE_MAX_KM],
      ['/cardio', { type: 'run', duration: 30 }, 'pace', PACE_MAX],
      ['/cardio', { type: 'run', duration: 30 }, 'averageHeartRate', HEART_RATE_MAX],
      ['/cardio', { type: 'run', duration: 30 }, 'maxHeartRate', HEART_RATE_MAX],
      ['/cardio', { type: 'run', duration: 30 }, 'calories', CALORIES_MAX],
      ['/cardio', { type: 'run', duration: 30 }, 'elevationGain', ELEVATION_GAIN_MAX_M],
    ];
    for (const [path, base, field, max] of cases) {
      expectInvalid(await user.api.post(path, { ...base, [field]: max + 1 }), [field]);
      expect((await user.api.post(path, { ...base, [field]: max })).status, `${path} ${field}`).toBe(200);
    }
    const exercise = await createExercise(user.client, { name: 'Bound Press' });
    for (const [field, max] of [['setNumber', SET_NUMBER_MAX], ['reps', REPS_MAX], ['weight', LOAD_MAX_KG]] as const) {
      const set = { setNumber: 1, [field]: max + 1 };
      expectInvalid(await user.api.post('/workouts', { splitLabel: 'Push', exercises: [{ exerciseId: exercise.id, sets: [set] }] }), ['exercises', 0, 'sets', 0, field]);
    }
    // The session API refuses the same values.
    const day = await today();
    const cardio = await user.client.post('/api/v1/cardio/sessions', { dayId: day.id, type: 'run', duration: 30, intensity: 5, averageHeartRate: HEART_RATE_MAX + 1 });
    expect(cardio.status).toBe(400);
    expect(cardio.body.error.details.errors[0].path).toEqual(['averageHeartRate']);
  });
});

describe('today and isolation', () => {
  it('writes to the key owner\'s today in their time zone', async () => {
    const far = await keyHolder(app);
    const zone = 'Pacific/Kiritimati';
    expect((await far.client.patch('/api/v1/settings', { timezone: zone })).status).toBe(200);
    const res = await far.api.post('/water', { volume: 500 });
    expect(res.status).toBe(200);
    const day = await today(far.client);
    expect(day.date).toBe(todayIn(zone));
    expect(day.waterIntakes.map((w: any) => w.id)).toEqual([res.body.data.id]);
  });

  it('a key reaches only its owner: the other user sees none of it, and their events are their own', async () => {
    const alice = await keyHolder(app);
    const bob = await keyHolder(app);
    const water = await alice.api.post('/water', { volume: 750 });
    const cardio = await alice.api.post('/cardio', { type: 'swim', duration: 25 });
    expect(water.status).toBe(200);
    expect(cardio.status).toBe(200);
    const aliceDay = await today(alice.client);
    const bobDay = await today(bob.client);
    expect(aliceDay.waterIntakes.map((w: any) => w.id)).toEqual([water.body.data.id]);
    expect(bobDay.waterIntakes).toEqual([]);
    expect(bobDay.cardioSessions).toEqual([]);
    expect((await events(bob.id, 'water_logged')).length).toBe(0);
    expect((await events(alice.id, 'water_logged')).length).toBe(1);
    // Bob cannot read Alice's records through the session API either.
    expect((await bob.client.get(`/api/v1/days/${aliceDay.id}`)).status).toBe(404);
    expect((await bob.client.get(`/api/v1/cardio/sessions?dayId=${aliceDay.id}`)).status).toBe(404);
    const gql = await bob.client.graphql('query ($id: UUID!) { day(dayId: $id) { id } }', { id: aliceDay.id });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('the same operations on /graphql', () => {
  it('work with the session cookie, writing to the signed-in user\'s today', async () => {
    const { client } = await signUp(app.url);
    const res = await client.graphql('mutation { publicLogWater(volume: 125, notes: "gql") { id volume message } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.publicLogWater).toMatchObject({ volume: 125 });
    expect((await today(client)).waterIntakes.map((w: any) => w.id)).toEqual([res.body.data.publicLogWater.id]);
    const bad = await client.graphql('mutation { publicLogMood(mood: 12, energy: 3) { mood } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    const anon = await client.withoutCookie().graphql('mutation { publicLogWater(volume: 125) { id } }');
    expect(anon.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('refuse another user\'s exercise id with NOT_FOUND, like a missing one', async () => {
    const theirs = await createExercise(user.client, { name: 'Only Mine Curl' });
    const { client } = await signUp(app.url);
    for (const id of [theirs.id, MISSING_ID]) {
      const res = await client.graphql(
        'mutation ($id: UUID!) { publicLogWorkout(splitLabel: "Arms", exercises: [{ exerciseId: $id, sets: [{ setNumber: 1 }] }]) { id } }',
        { id },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const found = await client.graphql('{ publicSearchExercises(q: "Only Mine Curl") { id } }');
    expect(found.body.data.publicSearchExercises).toEqual([]);
    expect((await today(client)).trainingSessions).toEqual([]);
  });
});
