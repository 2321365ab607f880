import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { TrainingSessionService } from './training-session.service.js';
import { createTrainingLoaders } from './training.loaders.js';
import { DayService } from '../planning/day.service.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import {
  ISO,
  MISSING_ID,
  createExercise,
  expectNotFound,
  expectValidation,
  globalExercise,
  outboxEvents,
  weekDays,
} from './activity.test-helpers.js';

let app: TestApp;
let client: HttpClient;
let days: string[];
let squat: any;
let bench: any;
beforeAll(async () => {
  app = await startTestApp();
  ({ client } = await signUp(app.url));
  days = await weekDays(client);
  squat = await globalExercise(client, 'Barbell Back Squat');
  bench = await globalExercise(client, 'Bench Press');
});
afterAll(async () => {
  await app?.close();
});

async function create(c: HttpClient, body: Record<string, unknown>) {
  const res = await c.post('/api/v1/training/sessions', body);
  if (res.status !== 201) throw new Error(`session creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

describe('POST /training/sessions', () => {
  it('creates a session with ordered exercises and sets (201) and records training_logged', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [monday] = await weekDays(own);
    const mine = await createExercise(own, { name: 'Own Lift' });
    const res = await own.post('/api/v1/training/sessions', {
      dayId: monday,
      split: 'Legs',
      startTime: '2027-01-04T07:00:00.000Z',
      endTime: '2027-01-04T08:10:00.000Z',
      sessionRPE: 8,
      notes: 'Felt strong',
      exercises: [
        { exerciseId: squat.id, sets: [{ setNumber: 1, reps: 5, load: 100, rir: 2, restTime: 180 }, { reps: 5, load: 102.5 }] },
        { exerciseId: mine.id },
      ],
    });
    expect(res.status).toBe(201);
    const session = res.body.data;
    expect(session).toMatchObject({
      dayId: monday,
      split: 'Legs',
      startTime: '2027-01-04T07:00:00.000Z',
      endTime: '2027-01-04T08:10:00.000Z',
      sessionRPE: 8,
      notes: 'Felt strong',
    });
    expect(session.exercises).toHaveLength(2);
    expect(session.exercises[0]).toMatchObject({ exerciseId: squat.id, exerciseName: 'Barbell Back Squat', order: 1 });
    expect(session.exercises[0].sets).toEqual([
      expect.objectContaining({ setNumber: 1, reps: 5, load: 100, rir: 2, restTime: 180 }),
      expect.objectContaining({ setNumber: 2, reps: 5, load: 102.5, rir: null, restTime: null }),
    ]);
    expect(session.exercises[1]).toMatchObject({ exerciseId: mine.id, exerciseName: 'Own Lift', order: 2, sets: [] });

    const events = await outboxEvents(app, ownId);
    expect(events.map((e) => e.event)).toEqual(['training_logged']);
    expect(Object.keys(events[0]!.data).sort()).toEqual(['loggedAt', 'sessionId', 'split']);
    expect(events[0]!.data).toMatchObject({ sessionId: session.id, split: 'Legs' });
    expect(events[0]!.data.loggedAt).toMatch(ISO);
  });

  it('defaults startTime to now and accepts a session without exercises', async () => {
    const before = Date.now();
    const session = await create(client, { dayId: days[1], split: 'Pull' });
    expect(new Date(session.startTime).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(session).toMatchObject({ endTime: null, sessionRPE: null, notes: null, exercises: [] });
  });

  it.each([
    ['sessionRPE 0', { sessionRPE: 0 }, 'sessionRPE'],
    ['sessionRPE 11', { sessionRPE: 11 }, 'sessionRPE'],
    ['sessionRPE 7.5', { sessionRPE: 7.5 }, 'sessionRPE'],
    ['negative reps', { exercises: [{ exerciseId: 'SQUAT', sets: [{ reps: -1 }] }] }, 'exercises'],
    ['fractional reps', { exercises: [{ exerciseId: 'SQUAT', sets: [{ reps: 1.5 }] }] }, 'exercises'],
    ['negative load', { exercises: [{ exerciseId: 'SQUAT', sets: [{ load: -5 }] }] }, 'exercises'],
    ['rir 11', { exercises: [{ exerciseId: 'SQUAT', sets: [{ rir: 11 }] }] }, 'exercises'],
    ['negative restTime', { exercises: [{ exerciseId: 'SQUAT', sets: [{ restTime: -1 }] }] }, 'exercises'],
    ['setNumber 0', { exercises: [{ exerciseId: 'SQUAT', sets: [{ setNumber: 0 }] }] }, 'exercises'],
    ['a malformed exerciseId', { exercises: [{ exerciseId: 'nope' }] }, 'exercises'],
    ['an exercise without id', { exercises: [{ sets: [] }] }, 'exercises'],
    ['a blank split', { split: '   ' }, 'split'],
    ['a missing split', { split: undefined }, 'split'],
    ['a missing dayId', { dayId: undefined }, 'dayId'],
    ['a malformed dayId', { dayId: '123' }, 'dayId'],
    ['a malformed startTime', { startTime: 'yesterday' }, 'startTime'],
    ['an end before the start', { startTime: '2027-01-04T08:00:00Z', endTime: '2027-01-04T07:00:00Z' }, 'endTime'],
  ])('refuses %s (400) and writes nothing', async (_label, patch, path) => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    const body: Record<string, unknown> = { dayId: day, split: 'Push', ...patch };
    if (Array.isArray(body.exercises)) {
      body.exercises = (body.exercises as any[]).map((e) => (e.exerciseId === 'SQUAT' ? { ...e, exerciseId: squat.id } : e));
    }
    expectValidation(await own.post('/api/v1/training/sessions', body), path);
    expect((await own.get('/api/v1/training/sessions')).body.meta.total).toBe(0);
    expect(await outboxEvents(app, ownId)).toEqual([]);
  });

  it('refuses an unknown day or exercise with 404 naming the field, writing nothing', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    expectNotFound(await own.post('/api/v1/training/sessions', { dayId: MISSING_ID, split: 'Push' }), 'dayId');
    expectNotFound(
      await own.post('/api/v1/training/sessions', { dayId: day, split: 'Push', exercises: [{ exerciseId: squat.id }, { exerciseId: MISSING_ID }] }),
      'exercises',
    );
    expect((await own.get('/api/v1/training/sessions')).body.meta.total).toBe(0);
    expect(await outboxEvents(app, ownId)).toEqual([]);
  });

  it('requires a session cookie (401)', async () => {
    expect((await client.withoutCookie().post('/api/v1/training/sessions', { dayId: days[0], split: 'Push' })).status).toBe(401);
    expect((await client.withoutCookie().get('/api/v1/training/sessions')).status).toBe(401);
  });
});

describe('GET /training/sessions and /training/sessions/:sessionId', () => {
  it('answers one session, lists by day and date range, paginated', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own, '2027-06-07');
    const a = await create(own, { dayId: week[0], split: 'Push', startTime: '2027-06-07T06:00:00Z', exercises: [{ exerciseId: bench.id, sets: [{ reps: 8 }] }] });
    const b = await create(own, { dayId: week[2], split: 'Pull', startTime: '2027-06-09T06:00:00Z' });
    const c = await create(own, { dayId: week[4], split: 'Legs', startTime: '2027-06-11T06:00:00Z' });

    const one = await own.get(`/api/v1/training/sessions/${a.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: a.id, split: 'Push', exercises: [{ exerciseId: bench.id, sets: [{ setNumber: 1, reps: 8 }] }] });

    const all = await own.get('/api/v1/training/sessions');
    expect(all.body.data.map((s: any) => s.id)).toEqual([a.id, b.id, c.id]);
    expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const byDay = await own.get(`/api/v1/training/sessions?dayId=${week[2]}`);
    expect(byDay.body.data.map((s: any) => s.id)).toEqual([b.id]);
    const range = await own.get('/api/v1/training/sessions?startDate=2027-06-09&endDate=2027-06-13');
    expect(range.body.data.map((s: any) => s.id)).toEqual([b.id, c.id]);
    const from = await own.get('/api/v1/training/sessions?startDate=2027-06-10');
    expect(from.body.data.map((s: any) => s.id)).toEqual([c.id]);
    const until = await own.get('/api/v1/training/sessions?endDate=2027-06-08');
    expect(until.body.data.map((s: any) => s.id)).toEqual([a.id]);
    const page = await own.get('/api/v1/training/sessions?limit=1&page=2');
    expect(page.body).toMatchObject({ data: [{ id: b.id }], meta: { page: 2, limit: 1, total: 3 } });
  });

  it('refuses a reversed or malformed range (400) and an unknown id or day (404)', async () => {
    expectValidation(await client.get('/api/v1/training/sessions?startDate=2027-06-10&endDate=2027-06-01'), 'startDate');
    expectValidation(await client.get('/api/v1/training/sessions?startDate=2027-02-30'), 'startDate');
    expectValidation(await client.get('/api/v1/training/sessions/not-an-id'));
    expectNotFound(await client.get(`/api/v1/training/sessions/${MISSING_ID}`));
    expectNotFound(await client.get(`/api/v1/training/sessions?dayId=${MISSING_ID}`), 'dayId');
  });
});

async function updatedAtOf(client: HttpClient, sessionId: string): Promise<string> {
  const res = await client.graphql('query($id: UUID!) { trainingSession(sessionId: $id) { updatedAt } }', { id: sessionId });
  return res.body.data.trainingSession.updatedAt;
}

describe('PATCH /training/sessions/:sessionId', () => {
  it('changes the split and replaces the exercises, recording training_updated', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    const s = await create(own, { dayId: day, split: 'Push', exercises: [{ exerciseId: bench.id, sets: [{ reps: 10 }, { reps: 8 }] }] });
    const res = await own.patch(`/api/v1/training/sessions/${s.id}`, {
      split: 'Legs',
      exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 140 }] }, { exerciseId: bench.id }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: s.id, split: 'Legs', dayId: day });
    expect(res.body.data.exercises.map((e: any) => [e.exerciseName, e.order, e.sets.map((x: any) => x.reps)])).toEqual([
      ['Barbell Back Squat', 1, [3]],
      ['Bench Press', 2, []],
    ]);
    const events = await outboxEvents(app, ownId);
    expect(events.map((e) => e.event)).toEqual(['training_logged', 'training_updated']);
    expect(Object.keys(events[1]!.data).sort()).toEqual(['sessionId', 'updatedAt']);
    expect(events[1]!.data.sessionId).toBe(s.id);
    // The session's updatedAt is GraphQL's to answer (REST answers the spec's fields: issue 36, item 6).
    expect(events[1]!.data.updatedAt).toBe(await updatedAtOf(own, s.id));

    const onlySplit = await own.patch(`/api/v1/training/sessions/${s.id}`, { split: 'Arms', sessionRPE: 6, notes: 'ok' });
    expect(onlySplit.body.data).toMatchObject({ split: 'Arms', sessionRPE: 6, notes: 'ok' });
    expect(onlySplit.body.data.exercises).toHaveLength(2);
    const cleared = await own.patch(`/api/v1/training/sessions/${s.id}`, { exercises: [] });
    expect(cleared.body.data.exercises).toEqual([]);
  });

  it('changes nothing and records nothing for an empty body', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    const s = await create(own, { dayId: day, split: 'Push' });
    const before = await updatedAtOf(own, s.id);
    const res = await own.patch(`/api/v1/training/sessions/${s.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ split: 'Push' });
    expect(await updatedAtOf(own, s.id)).toBe(before);
    expect((await outboxEvents(app, ownId)).map((e) => e.event)).toEqual(['training_logged']);
  });

  it('refuses bad values (400) and unknown exercises (404) without changing the session', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const [day] = await weekDays(own);
    const s = await create(own, { dayId: day, split: 'Push', exercises: [{ exerciseId: bench.id }] });
    expectValidation(await own.patch(`/api/v1/training/sessions/${s.id}`, { split: '' }), 'split');
    expectValidation(await own.patch(`/api/v1/training/sessions/${s.id}`, { sessionRPE: 11 }), 'sessionRPE');
    expectValidation(await own.patch(`/api/v1/training/sessions/${s.id}`, { exercises: [{ exerciseId: squat.id, sets: [{ rir: -1 }] }] }), 'exercises');
    expectValidation(await own.patch(`/api/v1/training/sessions/${s.id}`, { endTime: '2000-01-01T00:00:00Z' }), 'endTime');
    expectNotFound(await own.patch(`/api/v1/training/sessions/${s.id}`, { split: 'Legs', exercises: [{ exerciseId: MISSING_ID }] }), 'exercises');
    expectNotFound(await own.patch(`/api/v1/training/sessions/${MISSING_ID}`, { split: 'Legs' }));
    const after = await own.get(`/api/v1/training/sessions/${s.id}`);
    expect(after.body.data).toMatchObject({ split: 'Push', exercises: [{ exerciseId: bench.id }] });
    expect((await outboxEvents(app, ownId)).map((e) => e.event)).toEqual(['training_logged']);
  });
});

describe('DELETE /training/sessions/:sessionId', () => {
  it('deletes the session with its exercises and sets', async () => {
    const s = await create(client, { dayId: days[3], split: 'Push', exercises: [{ exerciseId: bench.id, sets: [{ reps: 1 }] }] });
    const res = await client.delete(`/api/v1/training/sessions/${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: s.id, message: 'Training session deleted' });
    expectNotFound(await client.get(`/api/v1/training/sessions/${s.id}`));
    expectNotFound(await client.delete(`/api/v1/training/sessions/${s.id}`));
    const rows = await app.server.orm.em.fork().getConnection().execute(
      'select count(*)::int as n from training_exercises where session_id = ?',
      [s.id],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('day reads and the service', () => {
  it('GET /days/:dayId shows the training sessions with exercises and sets', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own);
    const s = await create(own, { dayId: week[5], split: 'Push', exercises: [{ exerciseId: bench.id, sets: [{ reps: 6, load: 80 }] }] });
    const res = await own.get(`/api/v1/days/${week[5]}`);
    expect(res.status).toBe(200);
    expect(res.body.data.trainingSessions).toEqual([
      expect.objectContaining({ id: s.id, split: 'Push', exercises: [expect.objectContaining({ exerciseName: 'Bench Press', sets: [expect.objectContaining({ reps: 6, load: 80 })] })] }),
    ]);
    expect(res.body.data.mobilitySessions).toEqual([]);
    expect(res.body.data.cardioSessions).toEqual([]);
  });

  it('TrainingSessionService.create logs on today with ISO string times (as the Public API calls it)', async () => {
    const { id: ownId } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const today = await new DayService(em).today(ownId);
    const session = await new TrainingSessionService(em).create(ownId, {
      dayId: today.id,
      split: 'Push',
      startTime: '2027-01-01T10:00:00Z',
      sessionRPE: 7,
      exercises: [{ exerciseId: bench.id, sets: [{ setNumber: 1, reps: 5, load: 60 }] }],
    });
    expect(session).toMatchObject({ dayId: today.id, split: 'Push', sessionRPE: 7 });
    expect(session.startTime.toISOString()).toBe('2027-01-01T10:00:00.000Z');
    const events = await outboxEvents(app, ownId);
    expect(events.map((e) => [e.event, e.data.sessionId])).toEqual([['training_logged', session.id]]);
    await expect(new TrainingSessionService(app.server.orm.em.fork()).create(ownId, { dayId: today.id, split: 'x', startTime: 'not a date' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('loads sessions, exercises and sets of many parents with one query each', async () => {
    const { client: own } = await signUp(app.url);
    const week = await weekDays(own);
    const s1 = await create(own, { dayId: week[0], split: 'A', exercises: [{ exerciseId: bench.id, sets: [{ reps: 1 }, { reps: 2 }] }] });
    const s2 = await create(own, { dayId: week[6], split: 'B', exercises: [{ exerciseId: squat.id, sets: [{ reps: 3 }] }] });
    const em = app.server.orm.em.fork();
    const recorder = recordStatements();
    const loaders = createTrainingLoaders(em);
    const byDay = await Promise.all(week.map((d) => loaders.trainingSessionsByDayId.load(d)));
    expect(byDay.map((l) => l.map((s) => s.split))).toEqual([['A'], [], [], [], [], [], ['B']]);
    const entries = await Promise.all([s1.id, s2.id].map((id) => loaders.exercisesBySessionId.load(id)));
    const sets = await Promise.all(entries.flat().map((e) => loaders.setsByTrainingExerciseId.load(e.id)));
    expect(sets.map((l) => l.map((x) => x.reps))).toEqual([[1, 2], [3]]);
    recorder.stop();
    const { statements } = recorder;
    expect(statements.filter((sql) => sql.includes('from "training_sessions"'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('from "training_exercises"'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('from "training_sets"'))).toHaveLength(1);
  });
});
