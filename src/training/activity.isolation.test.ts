import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createExercise, expectNotFound, gqlCode, globalExercise, outboxEvents, weekDays } from './activity.test-helpers.js';

/** A user reaches only their own activity records: another user's id answers 404 like a missing one. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let bobId: string;
let aliceDay: string;
let bobDay: string;
let aliceExercise: any;
let aliceSession: any;
let bench: any;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
  [aliceDay] = await weekDays(alice, '2027-05-03');
  [bobDay] = await weekDays(bob, '2027-05-03');
  bench = await globalExercise(alice, 'Bench Press');
  aliceExercise = await createExercise(alice, { name: 'Alice Secret Lift' });
  aliceSession = (
    await alice.post('/api/v1/training/sessions', {
      dayId: aliceDay,
      split: 'Push',
      exercises: [{ exerciseId: aliceExercise.id, sets: [{ reps: 5 }] }],
    })
  ).body.data;
  await alice.post('/api/v1/mobility/sessions', { dayId: aliceDay, focus: 'Hips', duration: 10, intensity: 3 });
  await alice.post('/api/v1/body-composition/measurements', { dayId: aliceDay, weight: 60 });
});

async function aliceUnchanged() {
  const res = await alice.get(`/api/v1/training/sessions/${aliceSession.id}`);
  expect(res.body.data).toMatchObject({ split: 'Push', exercises: [{ exerciseId: aliceExercise.id, sets: [{ reps: 5 }] }] });
  const ex = await alice.get('/api/v1/exercises?global=false');
  expect(ex.body.data).toEqual([expect.objectContaining({ id: aliceExercise.id, name: 'Alice Secret Lift' })]);
}

describe('REST', () => {
  it("hides another user's training session: GET, PATCH, DELETE answer 404", async () => {
    expectNotFound(await bob.get(`/api/v1/training/sessions/${aliceSession.id}`));
    expectNotFound(await bob.patch(`/api/v1/training/sessions/${aliceSession.id}`, { split: 'Hijacked' }));
    expectNotFound(await bob.patch(`/api/v1/training/sessions/${aliceSession.id}`, { exercises: [] }));
    expectNotFound(await bob.delete(`/api/v1/training/sessions/${aliceSession.id}`));
    await aliceUnchanged();
  });

  it("hides another user's exercise: PATCH and DELETE answer 404, lists and search leave it out", async () => {
    expectNotFound(await bob.patch(`/api/v1/exercises/${aliceExercise.id}`, { name: 'Mine' }));
    expectNotFound(await bob.delete(`/api/v1/exercises/${aliceExercise.id}`));
    const list = await bob.get('/api/v1/exercises?limit=100');
    expect(list.body.data.map((e: any) => e.id)).not.toContain(aliceExercise.id);
    expect((await bob.get('/api/v1/exercises?global=false')).body.data).toEqual([]);
    await aliceUnchanged();
  });

  it("refuses another user's day in every body (404 naming dayId) and writes nothing", async () => {
    expectNotFound(await bob.post('/api/v1/training/sessions', { dayId: aliceDay, split: 'Push' }), 'dayId');
    expectNotFound(await bob.post('/api/v1/mobility/sessions', { dayId: aliceDay, focus: 'x', duration: 5, intensity: 1 }), 'dayId');
    expectNotFound(await bob.post('/api/v1/cardio/sessions', { dayId: aliceDay, type: 'run', duration: 5 }), 'dayId');
    expectNotFound(await bob.post('/api/v1/body-composition/measurements', { dayId: aliceDay, weight: 90 }), 'dayId');
    expect(await outboxEvents(app, bobId)).toEqual([]);
    // Alice's day keeps only her mobility session (a cardio would have broken the lunch slot rule too).
    const day = await alice.get(`/api/v1/days/${aliceDay}`);
    expect(day.body.data.cardioSessions).toEqual([]);
    expect(day.body.data.bodyMeasurements).toHaveLength(1);
  });

  it("refuses another user's exercise in a session (404 naming exercises), on create and on update", async () => {
    expectNotFound(await bob.post('/api/v1/training/sessions', { dayId: bobDay, split: 'Push', exercises: [{ exerciseId: aliceExercise.id }] }), 'exercises');
    const own = await bob.post('/api/v1/training/sessions', { dayId: bobDay, split: 'Push', exercises: [{ exerciseId: bench.id }] });
    expect(own.status).toBe(201);
    expectNotFound(await bob.patch(`/api/v1/training/sessions/${own.body.data.id}`, { exercises: [{ exerciseId: aliceExercise.id }] }), 'exercises');
    const after = await bob.get(`/api/v1/training/sessions/${own.body.data.id}`);
    expect(after.body.data.exercises.map((e: any) => e.exerciseId)).toEqual([bench.id]);
  });

  it("answers 404 to list filters naming another user's day, and lists only own records", async () => {
    expectNotFound(await bob.get(`/api/v1/training/sessions?dayId=${aliceDay}`), 'dayId');
    expectNotFound(await bob.get(`/api/v1/mobility/sessions?dayId=${aliceDay}`), 'dayId');
    expectNotFound(await bob.get(`/api/v1/cardio/sessions?dayId=${aliceDay}`), 'dayId');
    expect((await bob.get('/api/v1/mobility/sessions')).body.data).toEqual([]);
    expect((await bob.get('/api/v1/body-composition/measurements')).body.data).toEqual([]);
    expect((await bob.get('/api/v1/body-composition/measurements?startDate=2027-05-01&endDate=2027-05-31')).body.data).toEqual([]);
    const sessions = await bob.get('/api/v1/training/sessions?startDate=2027-05-01&endDate=2027-05-31');
    expect(sessions.body.data.map((s: any) => s.id)).not.toContain(aliceSession.id);
    expectNotFound(await bob.get(`/api/v1/days/${aliceDay}`));
  });
});

describe('GraphQL', () => {
  it("hides another user's session and exercise", async () => {
    expect(gqlCode(await bob.graphql(`query($id: UUID!) { trainingSession(sessionId: $id) { id } }`, { id: aliceSession.id }))).toBe('NOT_FOUND');
    expect(gqlCode(await bob.graphql(`mutation($id: UUID!) { updateTrainingSession(sessionId: $id, split: "x") { id } }`, { id: aliceSession.id }))).toBe('NOT_FOUND');
    expect(gqlCode(await bob.graphql(`mutation($id: UUID!) { deleteTrainingSession(sessionId: $id) { id } }`, { id: aliceSession.id }))).toBe('NOT_FOUND');
    expect(gqlCode(await bob.graphql(`mutation($id: UUID!) { updateExercise(exerciseId: $id, name: "x") { id } }`, { id: aliceExercise.id }))).toBe('NOT_FOUND');
    expect(gqlCode(await bob.graphql(`mutation($id: UUID!) { deleteExercise(exerciseId: $id) { id } }`, { id: aliceExercise.id }))).toBe('NOT_FOUND');
    expect(gqlCode(await bob.graphql(`query($d: UUID!) { trainingSessions(dayId: $d) { meta { total } } }`, { d: aliceDay }))).toBe('NOT_FOUND');
    await aliceUnchanged();
  });

  it("refuses another user's day and exercise in mutations", async () => {
    const d = { d: aliceDay };
    const mutations = [
      `mutation($d: UUID!) { createTrainingSession(dayId: $d, split: "x") { id } }`,
      `mutation($d: UUID!) { createMobilitySession(dayId: $d, focus: "x", duration: 5, intensity: 2) { id } }`,
      `mutation($d: UUID!) { createCardioSession(dayId: $d, type: "run", duration: 5) { id } }`,
      `mutation($d: UUID!) { createBodyMeasurement(dayId: $d, weight: 70) { id } }`,
      `mutation($d: UUID!) { logWater(dayId: $d, volume: 100) { id } }`,
      `mutation($d: UUID!) { logSteps(dayId: $d, steps: 100) { id } }`,
      `mutation($d: UUID!) { logMeditation(dayId: $d, duration: 5) { id } }`,
      `mutation($d: UUID!) { logMood(dayId: $d, mood: 5, energy: 5) { id } }`,
      `mutation($d: UUID!) { logSleep(dayId: $d, duration: 5) { id } }`,
    ];
    for (const m of mutations) {
      const res = await bob.graphql(m, d);
      expect(res.body.errors?.[0]?.extensions, m).toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
    }
    const ex = await bob.graphql(
      `mutation($d: UUID!, $e: UUID!) { createTrainingSession(dayId: $d, split: "x", exercises: [{ exerciseId: $e }]) { id } }`,
      { d: bobDay, e: aliceExercise.id },
    );
    expect(ex.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'exercises' } });
    // Only the session Bob logged on his own day in the REST block above.
    expect((await outboxEvents(app, bobId)).map((e) => e.event)).toEqual(['training_logged']);
    const day = await alice.graphql(`query($d: UUID!) { day(dayId: $d) { mood sleepHours waterIntakes { id } cardioSessions { id } } }`, d);
    expect(day.body.data.day).toEqual({ mood: null, sleepHours: null, waterIntakes: [], cardioSessions: [] });
  });

  it('lists only own records', async () => {
    const res = await bob.graphql(`{ mobilitySessions { items { id } } cardioSessions { items { id } } bodyMeasurements { items { id } } exercises(global: false) { items { id } } }`);
    expect(res.body.data).toEqual({ mobilitySessions: { items: [] }, cardioSessions: { items: [] }, bodyMeasurements: { items: [] }, exercises: { items: [] } });
  });
});
