import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { Exercise } from './exercise.entity.js';
import { GLOBAL_EXERCISES, globalExerciseId, seedGlobalExercises } from './exercise-catalog.seed.js';
import { ExerciseService } from './exercise.service.js';
import { MISSING_ID, createExercise, expectNotFound, expectValidation, globalExercise } from './activity.test-helpers.js';

let app: TestApp;
let client: HttpClient;
let userId: string;
beforeAll(async () => {
  app = await sharedTestApp();
  ({ client, id: userId } = await signUp(app.url));
});

/** The names in the database's own collation order (the order `orderBy name` answers). */
async function sortedByDatabase(names: string[]): Promise<string[]> {
  const rows = await app.server.orm.em.fork().getConnection().execute('select n from json_array_elements_text(?::json) as n order by n', [JSON.stringify(names)]);
  return rows.map((r) => String(r.n));
}

describe('global exercise catalog', () => {
  it('is seeded at start with at least 150 gym and mobility exercises, idempotently', async () => {
    const em = app.server.orm.em.fork();
    const before = await em.count(Exercise, { isGlobal: true });
    expect(before).toBe(GLOBAL_EXERCISES.length);
    expect(before).toBeGreaterThanOrEqual(150);
    await seedGlobalExercises(app.server.orm.em.fork());
    await seedGlobalExercises(app.server.orm.em.fork());
    expect(await app.server.orm.em.fork().count(Exercise, { isGlobal: true })).toBe(before);
    const categories = new Set((await em.find(Exercise, { isGlobal: true })).map((e) => e.category));
    expect(categories).toContain('mobility');
    expect(categories).toContain('strength');
  });
});

describe('catalog seed and user data', () => {
  it('keeps ids and names of earlier catalogs, and re-seeding loses no user data', async () => {
    // Ids derive from names, so rows and references made by an earlier catalog keep working.
    expect(globalExerciseId('Bench Press')).toBe('088920c9-8ef2-5b7e-9f8d-b1ff17f694c6');
    expect(globalExerciseId('Barbell Back Squat')).toBe('e7e78727-712f-5d87-a796-3718d4df9c9c');
    const bench = await globalExercise(client, 'Bench Press');
    expect(bench.id).toBe('088920c9-8ef2-5b7e-9f8d-b1ff17f694c6');
    const em = app.server.orm.em.fork();
    const rows = await em.find(Exercise, { isGlobal: true });
    expect(rows.every((r) => r.id === globalExerciseId(r.name) && r.userId === null)).toBe(true);
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set(GLOBAL_EXERCISES.map((e) => e.name)));

    const { client: own } = await signUp(app.url);
    const mine = await createExercise(own, { name: 'Mine Before Reseed' });
    expect((await own.patch(`/api/v1/exercises/${bench.id}`, { oneRepMax: 110 })).status).toBe(200);
    const days = (await own.post('/api/v1/weeks/generate', { startDate: '2027-05-03' })).body.data.days;
    const session = await own.post('/api/v1/training/sessions', {
      dayId: days[0].id,
      split: 'Push',
      exercises: [{ exerciseId: bench.id, sets: [{ reps: 5, load: 88 }] }, { exerciseId: mine.id }],
    });
    expect(session.status).toBe(201);

    await seedGlobalExercises(app.server.orm.em.fork());
    await seedGlobalExercises(app.server.orm.em.fork());

    expect(await app.server.orm.em.fork().count(Exercise, { isGlobal: true })).toBe(GLOBAL_EXERCISES.length);
    expect((await own.get(`/api/v1/exercises/${bench.id}`)).body.data).toMatchObject({ name: 'Bench Press', oneRepMax: 110 });
    expect((await own.get(`/api/v1/exercises/${mine.id}`)).body.data).toMatchObject({ name: 'Mine Before Reseed', isGlobal: false });
    const after = await own.get(`/api/v1/training/sessions/${session.body.data.id}`);
    expect(after.body.data.exercises.map((e: any) => e.exerciseId)).toEqual([bench.id, mine.id]);
    expect(after.body.data.exercises[0].sets[0]).toMatchObject({ reps: 5, load: 88, percent1rm: 80 });
  });
});

describe('GET /exercises', () => {
  it('lists global and own exercises by name, paginated', async () => {
    const { client: own } = await signUp(app.url);
    const mine = await createExercise(own, { name: 'Zercher Squat', category: 'strength', muscleGroups: ['quadriceps'] });
    const res = await own.get('/api/v1/exercises?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 100, total: GLOBAL_EXERCISES.length + 1 });
    const names = res.body.data.map((e: any) => e.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const rest = await own.get('/api/v1/exercises?limit=100&page=2');
    expect([...res.body.data, ...rest.body.data]).toContainEqual(expect.objectContaining({ id: mine.id, isGlobal: false }));
    const page2 = await own.get('/api/v1/exercises?limit=10&page=2');
    expect(page2.body.data.map((e: any) => e.name)).toEqual(names.slice(10, 20));
  });

  it('filters by global true/false, category and muscle group (any case)', async () => {
    const { client: own } = await signUp(app.url);
    const mine = await createExercise(own, { name: 'Band Pull-Apart', category: 'Mobility', muscleGroups: ['Shoulders', 'back'] });
    const globalOnly = await own.get('/api/v1/exercises?global=true&limit=100');
    expect(globalOnly.body.data.every((e: any) => e.isGlobal)).toBe(true);
    expect(globalOnly.body.meta.total).toBe(GLOBAL_EXERCISES.length);
    const ownOnly = await own.get('/api/v1/exercises?global=false');
    expect(ownOnly.body.data.map((e: any) => e.id)).toEqual([mine.id]);
    const mobility = await own.get('/api/v1/exercises?category=MOBILITY&limit=100');
    const expectedMobility = GLOBAL_EXERCISES.filter((e) => e.category === 'mobility').length + 1;
    expect(mobility.body.meta.total).toBe(expectedMobility);
    expect(mobility.body.data.every((e: any) => e.category.toLowerCase() === 'mobility')).toBe(true);
    const shoulders = await own.get('/api/v1/exercises?muscleGroup=SHOULDERS&limit=100');
    expect(shoulders.body.meta.total).toBe(GLOBAL_EXERCISES.filter((e) => e.muscleGroups.includes('shoulders')).length + 1);
    expect(shoulders.body.data.every((e: any) => e.muscleGroups.includes('shoulders'))).toBe(true);
    const none = await own.get('/api/v1/exercises?category=%25');
    expect(none.body.data).toEqual([]);
  });

  it('refuses a malformed global flag (400) and requires a session (401)', async () => {
    expectValidation(await client.get('/api/v1/exercises?global=maybe'), 'global');
    expect((await client.withoutCookie().get('/api/v1/exercises')).status).toBe(401);
  });
});

describe('POST /exercises', () => {
  it('creates a private exercise (201), muscle groups stored lower-case without repeats', async () => {
    const res = await client.post('/api/v1/exercises', { name: ' Landmine Press ', category: 'strength', muscleGroups: ['Shoulders', 'shoulders ', 'Chest'], isGlobal: false });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Landmine Press', category: 'strength', muscleGroups: ['shoulders', 'chest'], isGlobal: false });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const noGroups = await client.post('/api/v1/exercises', { name: 'Mystery', category: 'other' });
    expect(noGroups.status).toBe(201);
    expect(noGroups.body.data.muscleGroups).toEqual([]);
  });

  it('refuses isGlobal true: users cannot add to the shared catalog (400 on isGlobal)', async () => {
    expectValidation(await client.post('/api/v1/exercises', { name: 'Mine for all', category: 'strength', isGlobal: true }), 'isGlobal');
  });

  it('refuses missing or blank name and category, and bad muscle groups (400)', async () => {
    expectValidation(await client.post('/api/v1/exercises', { category: 'strength' }), 'name');
    expectValidation(await client.post('/api/v1/exercises', { name: '  ', category: 'strength' }), 'name');
    expectValidation(await client.post('/api/v1/exercises', { name: 'x'.repeat(201), category: 'strength' }), 'name');
    expectValidation(await client.post('/api/v1/exercises', { name: 'A' }), 'category');
    expectValidation(await client.post('/api/v1/exercises', { name: 'A', category: '' }), 'category');
    expectValidation(await client.post('/api/v1/exercises', { name: 'A', category: 'b', muscleGroups: [''] }), 'muscleGroups');
  });
});

describe('PATCH and DELETE /exercises/:exerciseId', () => {
  it('updates name and category of an own exercise', async () => {
    const mine = await createExercise(client, { name: 'Old name' });
    const res = await client.patch(`/api/v1/exercises/${mine.id}`, { name: 'New name', category: 'power' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: mine.id, name: 'New name', category: 'power', muscleGroups: ['quadriceps'] });
    const unchanged = await client.patch(`/api/v1/exercises/${mine.id}`, {});
    expect(unchanged.body.data).toMatchObject({ name: 'New name', category: 'power' });
    expectValidation(await client.patch(`/api/v1/exercises/${mine.id}`, { name: '' }), 'name');
    const nullName = await client.graphql(`mutation($id: UUID!) { updateExercise(exerciseId: $id, name: null) { id } }`, { id: mine.id });
    expect(nullName.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
  });

  it('answers 404 for a global exercise, an unknown one, and 400 for a malformed id', async () => {
    const bench = await globalExercise(client, 'Bench Press');
    expectNotFound(await client.patch(`/api/v1/exercises/${bench.id}`, { name: 'Mine' }));
    expectNotFound(await client.delete(`/api/v1/exercises/${bench.id}`));
    expect((await globalExercise(client, 'Bench Press')).name).toBe('Bench Press');
    expectNotFound(await client.patch(`/api/v1/exercises/${MISSING_ID}`, { name: 'x' }));
    expectNotFound(await client.delete(`/api/v1/exercises/${MISSING_ID}`));
    expectValidation(await client.delete('/api/v1/exercises/nope'));
  });

  it('deletes an own exercise; sessions that used it keep the entry by name', async () => {
    const mine = await createExercise(client, { name: 'Temporary Lift' });
    const days = (await client.post('/api/v1/weeks/generate', { startDate: '2027-03-01' })).body.data.days;
    const session = await client.post('/api/v1/training/sessions', {
      dayId: days[0].id,
      split: 'Push',
      exercises: [{ exerciseId: mine.id, sets: [{ reps: 5, load: 50 }] }],
    });
    expect(session.status).toBe(201);
    const res = await client.delete(`/api/v1/exercises/${mine.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: mine.id, message: 'Exercise deleted' });
    expectNotFound(await client.delete(`/api/v1/exercises/${mine.id}`));
    const after = await client.get(`/api/v1/training/sessions/${session.body.data.id}`);
    expect(after.body.data.exercises).toEqual([
      expect.objectContaining({ exerciseId: null, exerciseName: 'Temporary Lift', sets: [expect.objectContaining({ reps: 5, load: 50 })] }),
    ]);
  });
});

describe('ExerciseService.search (used by the Public API)', () => {
  it("answers the user's catalog whose name contains q, any case, ordered by name; nobody else's", async () => {
    const { client: a, id: aId } = await signUp(app.url);
    const { client: b } = await signUp(app.url);
    const mine = await createExercise(a, { name: 'Pressing Drill 100%' });
    await createExercise(b, { name: 'Press of Bob' });
    const service = new ExerciseService(app.server.orm.em.fork());
    const found = await service.search(aId, 'PRESS');
    const names = found.map((e) => e.name);
    const globalPresses = GLOBAL_EXERCISES.map((e) => e.name).filter((n) => n.toLowerCase().includes('press'));
    expect(names).toHaveLength(globalPresses.length + 1);
    expect(names).toEqual(expect.arrayContaining([...globalPresses, 'Pressing Drill 100%']));
    expect(names).toEqual(await sortedByDatabase(names));
    expect(found.find((e) => e.id === mine.id)?.isGlobal).toBe(false);
    expect((await service.search(aId, '100%')).map((e) => e.name)).toEqual(['Pressing Drill 100%']);
    expect((await service.search(aId, '%')).map((e) => e.name)).toEqual(['Pressing Drill 100%']);
    const all = await service.search(aId);
    expect(all).toHaveLength(GLOBAL_EXERCISES.length + 1);
    expect((await service.search(userId, 'Press of Bob'))).toEqual([]);
  });
});
