import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { MISSING_ID, createExercise, expectNotFound, expectValidation, globalExercise, weekDays } from './activity.test-helpers.js';

/**
 * Training statements a GET /training/sessions page costs, whatever its number of sessions, exercises
 * and sets: the session page, its exercises, their sets, and one for every set's percent1rm reference
 * (the 90-day best e1RM or oneRepMax of all entries at once). The request's own (the login-session
 * lookup) and background work of earlier writes are not counted.
 */
const SESSION_LIST_STATEMENTS = 4;

let app: TestApp;
let squat: any;
beforeAll(async () => {
  app = await startTestApp();
  const { client } = await signUp(app.url);
  squat = await globalExercise(client, 'Barbell Back Squat');
});
afterAll(async () => {
  await app?.close();
});

async function create(c: HttpClient, body: Record<string, unknown>) {
  const res = await c.post('/api/v1/training/sessions', body);
  if (res.status !== 201) throw new Error(`session creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

describe('stored set fields', () => {
  it('stores rpe, tempo, tut, rom, pauseDuration, velocity and notes and answers them on REST and GraphQL', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const set = { reps: 5, load: 100, rpe: 8.5, tempo: '3-1-x-0', tut: 25, rom: 'lengthened', pauseDuration: 2, velocity: 0.45, notes: 'belt' };
    const session = await create(client, { dayId: day, split: 'Legs', exercises: [{ exerciseId: squat.id, sets: [set, { reps: 5 }] }] });
    expect(session.exercises[0].sets[0]).toMatchObject({ ...set, tempo: '3-1-X-0' });
    expect(session.exercises[0].sets[1]).toMatchObject({ rpe: null, tempo: null, tut: null, rom: null, pauseDuration: null, velocity: null, notes: null });
    const gql = await client.graphql(`query($id: UUID!) { trainingSession(sessionId: $id) { exercises { sets { rpe tempo rom velocity } } } }`, { id: session.id });
    expect(gql.body.data.trainingSession.exercises[0].sets[0]).toEqual({ rpe: 8.5, tempo: '3-1-X-0', rom: 'lengthened', velocity: 0.45 });
  });

  it.each([
    ['rpe 10.5', { rpe: 10.5 }, 'rpe'],
    ['rpe 7.25', { rpe: 7.25 }, 'rpe'],
    ['rpe 0.5', { rpe: 0.5 }, 'rpe'],
    ['rpe as text', { rpe: '8' }, 'rpe'],
    ['an unknown rom', { rom: 'half' }, 'rom'],
    ['a negative tut', { tut: -1 }, 'tut'],
    ['a fractional tut', { tut: 2.5 }, 'tut'],
    ['a negative pauseDuration', { pauseDuration: -3 }, 'pauseDuration'],
    ['a negative velocity', { velocity: -0.1 }, 'velocity'],
    ['a malformed tempo', { tempo: 'slow' }, 'tempo'],
    ['a computed e1rm', { e1rm: 120 }, 'e1rm'],
    ['a computed percent1rm', { percent1rm: 80 }, 'percent1rm'],
  ])('refuses %s in a set (400 naming the field) and stores nothing', async (_label, extra, field) => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const res = await client.post('/api/v1/training/sessions', {
      dayId: day,
      split: 'Legs',
      exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 100, ...extra }] }],
    });
    expectValidation(res, 'exercises');
    expect(JSON.stringify(res.body.error.details.errors)).toContain(field);
    expect((await client.get('/api/v1/training/sessions')).body.meta.total).toBe(0);
  });

  it('refuses computed per-exercise metrics in the body (400) and leaves the session as it was', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const s = await create(client, { dayId: day, split: 'Legs', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 100 }] }] });
    const res = await client.patch(`/api/v1/training/sessions/${s.id}`, { exercises: [{ exerciseId: squat.id, volume: 10, sets: [] }] });
    expectValidation(res, 'exercises');
    expect(JSON.stringify(res.body.error.details.errors)).toContain('volume');
    const after = await client.get(`/api/v1/training/sessions/${s.id}`);
    expect(after.body.data.exercises[0].sets).toHaveLength(1);
  });
});

describe('computed metrics', () => {
  it('computes e1rm (Epley, one decimal), volume, bestE1rm and fatigueIndex on known numbers', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const s = await create(client, {
      dayId: day,
      split: 'Legs',
      exercises: [
        { exerciseId: squat.id, sets: [{ reps: 10, load: 100 }, { reps: 8, load: 100 }, { reps: 7, load: 100 }, { reps: 5 }] },
        { exerciseId: squat.id, sets: [{ reps: 5, load: 100 }] },
        { exerciseId: squat.id, sets: [{ reps: 3, load: 102.25 }, { reps: 3, load: 110 }] },
      ],
    });
    const [a, b, c] = s.exercises;
    expect(a.sets.map((x: any) => x.e1rm)).toEqual([133.3, 126.7, 123.3, null]);
    expect(a).toMatchObject({ volume: 2500, bestE1rm: 133.3, fatigueIndex: 30 });
    expect(b.sets[0].e1rm).toBe(116.7); // 100 × (1 + 5/30) = 116.666…
    expect(b).toMatchObject({ volume: 500, bestE1rm: 116.7, fatigueIndex: null });
    expect(c).toMatchObject({ volume: 636.75, bestE1rm: 121, fatigueIndex: -7.6 });
    // No earlier session: nothing to compare the load with.
    expect(a.sets[0].percent1rm).toBeNull();
  });

  it("percent1rm divides by the best e1RM of the 90 days before the session's day, not 91", async () => {
    const { client } = await signUp(app.url);
    const june = await weekDays(client, '2027-06-07'); // june[0] is 91 days before 2027-09-06, june[1] 90
    const [september6, september7] = await weekDays(client, '2027-09-06');
    await create(client, { dayId: june[0], split: 'Old', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 200 }] }] });
    await create(client, { dayId: june[1], split: 'In window', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 100 }, { reps: 1, load: 90 }] }] });
    // The same day does not count as "before" it.
    await create(client, { dayId: september6, split: 'Same day', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 150 }] }] });
    const s = await create(client, { dayId: september6, split: 'Now', exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 100 }, { reps: 3 }] }] });
    // 100 ÷ 116.666… × 100 = 85.71…
    expect(s.exercises[0].sets.map((x: any) => x.percent1rm)).toEqual([85.7, null]);
    // The next day sees the 150 × 5 of the 6th: 100 ÷ 175 = 57.1 %.
    const next = await create(client, { dayId: september7, split: 'Next', exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 100 }] }] });
    expect(next.exercises[0].sets[0].percent1rm).toBe(57.1);
  });

  it('oneRepMax set on a global exercise overrides the 90-day best for its owner only', async () => {
    const a = await signUp(app.url);
    const b = await signUp(app.url);
    const daysA = await weekDays(a.client, '2027-10-04');
    const daysB = await weekDays(b.client, '2027-10-04');
    for (const [c, days] of [[a.client, daysA], [b.client, daysB]] as const) {
      await create(c, { dayId: days[0], split: 'Base', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 120 }] }] });
    }
    const set = await a.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: 125 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id: squat.id, name: 'Barbell Back Squat', isGlobal: true, oneRepMax: 125 });

    const sA = await create(a.client, { dayId: daysA[2], split: 'Heavy', exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 100 }] }] });
    expect(sA.exercises[0].sets[0].percent1rm).toBe(80);
    const sB = await create(b.client, { dayId: daysB[2], split: 'Heavy', exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 100 }] }] });
    expect(sB.exercises[0].sets[0].percent1rm).toBe(71.4); // 100 ÷ 140

    expect((await a.client.get(`/api/v1/exercises/${squat.id}`)).body.data.oneRepMax).toBe(125);
    expect((await b.client.get(`/api/v1/exercises/${squat.id}`)).body.data).toMatchObject({ id: squat.id, oneRepMax: null });
    const listed = await b.client.get(`/api/v1/exercises?global=true&q=${encodeURIComponent('Barbell Back Squat')}`);
    expect(listed.body.data[0].oneRepMax).toBeNull();

    // null clears it: back to the 90-day best.
    expect((await a.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: null })).body.data.oneRepMax).toBeNull();
    expect((await a.client.get(`/api/v1/training/sessions/${sA.id}`)).body.data.exercises[0].sets[0].percent1rm).toBe(71.4);
  });

  it('oneRepMax on an own exercise; global catalog fields stay closed; bad values and other users 404/400', async () => {
    const a = await signUp(app.url);
    const b = await signUp(app.url);
    const mine = await createExercise(a.client, { name: 'Own Press' });
    expect((await a.client.patch(`/api/v1/exercises/${mine.id}`, { oneRepMax: 60.5, category: 'power' })).body.data).toMatchObject({ oneRepMax: 60.5, category: 'power' });
    expectNotFound(await b.client.patch(`/api/v1/exercises/${mine.id}`, { oneRepMax: 10 }));
    expectNotFound(await b.client.get(`/api/v1/exercises/${mine.id}`));
    expectNotFound(await a.client.patch(`/api/v1/exercises/${MISSING_ID}`, { oneRepMax: 10 }));
    // Renaming a global exercise is refused as before, and its oneRepMax is not stored either.
    expectNotFound(await a.client.patch(`/api/v1/exercises/${squat.id}`, { name: 'Mine', oneRepMax: 150 }));
    expect((await a.client.get(`/api/v1/exercises/${squat.id}`)).body.data).toMatchObject({ name: 'Barbell Back Squat', oneRepMax: null });
    expectValidation(await a.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: 0 }), 'oneRepMax');
    expectValidation(await a.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: -5 }), 'oneRepMax');
    expectValidation(await a.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: '100' }), 'oneRepMax');
    expect((await a.client.get(`/api/v1/exercises/${mine.id}`)).body.data.oneRepMax).toBe(60.5);
  });

  it('answers the computed metrics on GraphQL too', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const s = await create(client, { dayId: day, split: 'Legs', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 100 }, { reps: 4, load: 100 }] }] });
    const res = await client.graphql(
      `query($id: UUID!) { trainingSession(sessionId: $id) { exercises { volume bestE1rm fatigueIndex sets { e1rm percent1rm } } } }`,
      { id: s.id },
    );
    expect(res.body.data.trainingSession.exercises).toEqual([
      { volume: 900, bestE1rm: 116.7, fatigueIndex: 20, sets: [{ e1rm: 116.7, percent1rm: null }, { e1rm: 113.3, percent1rm: null }] },
    ]);
  });
});

describe('GET /exercises/:exerciseId/history', () => {
  it("lists the user's sessions with the exercise, most recent first, with volume and best e1RM, paginated", async () => {
    const { client } = await signUp(app.url);
    const bench = await globalExercise(client, 'Bench Press');
    const week = await weekDays(client, '2027-11-01');
    const s1 = await create(client, { dayId: week[0], split: 'A', startTime: '2027-11-01T07:00:00Z', exercises: [{ exerciseId: squat.id, sets: [{ reps: 5, load: 100 }, { reps: 5, load: 110 }] }] });
    await create(client, { dayId: week[1], split: 'B', startTime: '2027-11-02T07:00:00Z', exercises: [{ exerciseId: bench.id, sets: [{ reps: 5, load: 80 }] }] });
    const s3 = await create(client, {
      dayId: week[2],
      split: 'C',
      startTime: '2027-11-03T07:00:00Z',
      exercises: [{ exerciseId: squat.id, sets: [{ reps: 3, load: 120 }] }, { exerciseId: bench.id }, { exerciseId: squat.id, sets: [{ reps: 8 }] }],
    });
    const res = await client.get(`/api/v1/exercises/${squat.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 2 });
    expect(res.body.data).toEqual([
      { sessionId: s3.id, dayId: week[2], date: '2027-11-03', startTime: '2027-11-03T07:00:00.000Z', split: 'C', setCount: 2, volume: 360, bestE1rm: 132 },
      { sessionId: s1.id, dayId: week[0], date: '2027-11-01', startTime: '2027-11-01T07:00:00.000Z', split: 'A', setCount: 2, volume: 1050, bestE1rm: 128.3 },
    ]);
    const page2 = await client.get(`/api/v1/exercises/${squat.id}/history?limit=1&page=2`);
    expect(page2.body).toMatchObject({ data: [{ sessionId: s1.id }], meta: { page: 2, limit: 1, total: 2 } });
    const none = await client.get(`/api/v1/exercises/${(await globalExercise(client, 'Deadlift')).id}/history`);
    expect(none.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it("answers 404 for another user's own exercise or a missing one, 400 for a malformed id, and shows no one else's sessions", async () => {
    const a = await signUp(app.url);
    const b = await signUp(app.url);
    const mine = await createExercise(a.client, { name: 'Secret Lift' });
    const [dayA] = await weekDays(a.client);
    await create(a.client, { dayId: dayA, split: 'A', exercises: [{ exerciseId: mine.id, sets: [{ reps: 1, load: 10 }] }, { exerciseId: squat.id, sets: [{ reps: 1, load: 10 }] }] });
    expectNotFound(await b.client.get(`/api/v1/exercises/${mine.id}/history`));
    expectNotFound(await b.client.get(`/api/v1/exercises/${MISSING_ID}/history`));
    expectValidation(await b.client.get('/api/v1/exercises/nope/history'));
    expect((await b.client.get(`/api/v1/exercises/${squat.id}/history`)).body.meta.total).toBe(0);
    expect((await a.client.get(`/api/v1/exercises/${mine.id}/history`)).body.meta.total).toBe(1);
    expect((await a.client.withoutCookie().get(`/api/v1/exercises/${mine.id}/history`)).status).toBe(401);
  });
});

describe('statement counts', () => {
  async function listStatements(client: HttpClient, sessions: number): Promise<{ count: number; body: any; statements: string[] }> {
    const recorder = recordStatements();
    const res = await client.get(`/api/v1/training/sessions?limit=100`);
    recorder.stop();
    expect(res.body.data).toHaveLength(sessions);
    const training = recorder.statements.filter((sql) => /training_|exercise_settings/.test(sql));
    return { count: training.length, body: res.body, statements: training };
  }

  it('a session list with computed metrics costs the same statements for 2 or 12 sessions of 2 exercises × 3 sets', async () => {
    const { client } = await signUp(app.url);
    const bench = await globalExercise(client, 'Bench Press');
    const exercises = [
      { exerciseId: squat.id, sets: [{ reps: 5, load: 100 }, { reps: 5, load: 100 }, { reps: 4, load: 100 }] },
      { exerciseId: bench.id, sets: [{ reps: 8, load: 60 }, { reps: 8, load: 60 }, { reps: 6, load: 60 }] },
    ];
    const weeks = [await weekDays(client, '2028-01-03'), await weekDays(client, '2028-01-10')];
    const days = weeks.flat();
    for (const day of days.slice(0, 2)) await create(client, { dayId: day, split: 'X', exercises });
    const small = await listStatements(client, 2);
    for (const day of days.slice(2, 12)) await create(client, { dayId: day, split: 'X', exercises });
    const large = await listStatements(client, 12);
    expect(large.body.data[11].exercises[0].sets[0].percent1rm).toBe(85.7);
    expect(large.count).toBe(small.count);
    expect(large.count).toBe(SESSION_LIST_STATEMENTS);
  });
});
