import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { XP } from '../gamification/gamification-rules.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 25: the training and health tools (area health), on the real services, as an assistant chains them. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;
let bob: Awaited<ReturnType<typeof connectedUser>>;
let today: { id: string; date: string };
/** Alice's days of the week of Monday 2025-03-03 (a past week). */
let past: string[];
let ownExercise: { id: string; name: string };

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
  today = await restGet(alice, '/days/today');
  past = await weekDayIds(alice.user.client, '2025-03-03');
  const created = await alice.user.client.post('/api/v1/exercises', { name: 'Sled Push Alice', category: 'conditioning' });
  expect(created.status, created.text).toBe(201);
  ownExercise = created.body.data;
});
afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
  await app?.close();
});

type User = typeof alice;

const events = async (user: User) =>
  (await sql(app.databaseUrl, 'select id, event, data from event_outbox where user_id = $1', [user.user.id])) as { id: string; event: string; data: any }[];

/** Gamification's own answers to the events (checked through the XP instead). */
const GAMIFICATION = new Set(['level_up', 'streak_updated', 'achievement_unlocked']);

/**
 * The events recorded since `before` (a previous `events` answer), gamification's left out, as [event,
 * what it is about] pairs in a fixed order (two events of one call may share their instant).
 */
async function newEvents(user: User, before: { id: string }[]): Promise<[string, string][]> {
  const seen = new Set(before.map((e) => e.id));
  return (await events(user))
    .filter((e) => !seen.has(e.id) && !GAMIFICATION.has(e.event))
    .map((e): [string, string] => [e.event, e.data.itemKey ?? e.data.sessionId ?? ''])
    .sort((a, b) => a.join().localeCompare(b.join()));
}

async function restGet(user: User, path: string): Promise<any> {
  const res = await user.user.client.get(`/api/v1${path}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

const xpOf = async (user: User): Promise<number> => (await restGet(user, '/gamification/stats')).xp;

const countOf = async (table: string, user: User) => Number((await sql(app.databaseUrl, `select count(*)::int as n from ${table} where user_id = $1`, [user.user.id]))[0]!.n);

describe('training', () => {
  it('the scripted conversation: "log my workout: bench press 3×5 at 80 kg" → the new e1RM → GYM ticked and XP granted', async () => {
    // An earlier bench session, so the history has a trend.
    const earlier = await callOk(alice.client, 'training_log_session', {
      dayId: past[0],
      split: 'Push',
      startTime: '2025-03-03T08:00:00.000Z',
      exercises: [{ name: 'bench press', sets: [{ reps: 5, load: 75, repeat: 3 }] }],
    });
    expect(earlier.exercises[0]).toMatchObject({ name: 'Bench Press', bestE1rm: 87.5, volume: 1125 });

    const xpBefore = await xpOf(alice);
    const before = await events(alice);
    const logged = await callOk(alice.client, 'training_log_session', {
      split: 'Push',
      exercises: [
        { name: 'Bench Press', sets: [{ reps: 5, load: 80, repeat: 3, rpe: 8 }] },
        { name: 'barbell back squat', sets: [{ reps: 5, load: 100 }, { reps: 3, load: 110, rir: 1, restTime: 180, tempo: '3-1-x-0' }] },
      ],
    });
    expect(logged).toMatchObject({
      dayId: today.id,
      split: 'Push',
      totalVolume: 2030,
      checklist: { key: 'GYM', completed: true, tickedNow: true },
      message: 'Logged Push: 2 exercises, 5 sets',
    });
    expect(logged.exercises.map((e: any) => [e.name, e.sets.length, e.volume, e.bestE1rm])).toEqual([
      ['Bench Press', 3, 1200, 93.3],
      ['Barbell Back Squat', 2, 830, 121],
    ]);
    expect(logged.exercises[0].sets).toEqual([1, 2, 3].map((setNumber) => ({ setNumber, reps: 5, load: 80, rpe: 8, e1rm: 93.3 })));

    // The same session through the app's REST read.
    const rest = await restGet(alice, `/training/sessions/${logged.id}`);
    expect(rest).toMatchObject({ dayId: today.id, split: 'Push' });

    const history = await callOk(alice.client, 'training_exercise_history', { name: 'bench press' });
    expect(history.exercise).toEqual({ id: logged.exercises[0].exerciseId, name: 'Bench Press', category: 'strength', oneRepMax: null });
    expect(history.sessions).toEqual([
      { sessionId: logged.id, date: today.date, split: 'Push', setCount: 3, bestSet: { setNumber: 1, reps: 5, load: 80, rpe: 8, e1rm: 93.3 }, bestE1rm: 93.3, volume: 1200 },
      { sessionId: earlier.id, date: '2025-03-03', split: 'Push', setCount: 3, bestSet: { setNumber: 1, reps: 5, load: 75, rpe: null, e1rm: 87.5 }, bestE1rm: 87.5, volume: 1125 },
    ]);
    expect(history.trend).toEqual({ sessions: 2, firstE1rm: 87.5, latestE1rm: 93.3, bestE1rm: 93.3, change: 5.8, direction: 'up' });
    expect(history.meta).toEqual({ page: 1, limit: 20, total: 2 });

    const day = await callOk(alice.client, 'planning_get_today');
    expect(day.checklist.find((i: any) => i.key === 'GYM')).toMatchObject({ completed: true });
    expect(await xpOf(alice)).toBe(xpBefore + XP.training + XP.checklist_item);
    expect(await newEvents(alice, before)).toEqual([
      ['checklist_completed', 'GYM'],
      ['training_logged', logged.id],
    ]);

    // Logged again the same day: the GYM item is already done, nothing more is ticked.
    const again = await callOk(alice.client, 'training_log_session', { exercises: [{ exerciseId: ownExercise.id }] });
    expect(again).toMatchObject({ split: 'Workout', totalVolume: 0, checklist: { key: 'GYM', completed: true, tickedNow: false } });
    expect(again.exercises).toEqual([{ exerciseId: ownExercise.id, name: 'Sled Push Alice', sets: [], volume: 0, bestE1rm: null }]);
  });

  it('training_log_session: tickGym false leaves the checklist; names unknown or ambiguous, bad sets and another user\'s ids are refused', async () => {
    const before = await events(alice);
    const quiet = await callOk(alice.client, 'training_log_session', { dayId: past[1], tickGym: false, exercises: [{ name: 'Deadlift', sets: [{ reps: 1, load: 180 }] }] });
    expect(quiet.checklist).toEqual({ key: 'GYM', completed: false, tickedNow: false });
    expect(await newEvents(alice, before)).toEqual([['training_logged', quiet.id]]);
    const sessions = await countOf('training_sessions', alice);

    const unknown = await callError(alice.client, 'training_log_session', { exercises: [{ name: 'Zercher Carry Deluxe' }] });
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Exercise', name: 'Zercher Carry Deluxe' } });
    expect(unknown.details.candidates.map((c: any) => c.name)).toEqual(expect.arrayContaining(["Farmer's Carry", 'Suitcase Carry']));

    const ambiguous = await callError(alice.client, 'training_log_session', { exercises: [{ name: 'bench' }] });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates.map((c: any) => c.name)).toEqual(expect.arrayContaining(['Bench Press', 'Incline Bench Press']));

    const rpe = await callError(alice.client, 'training_log_session', { exercises: [{ name: 'Deadlift', sets: [{ reps: 5, load: 100, rpe: 8.3 }] }] });
    expect(rpe).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['exercises', 0, 'sets', 0, 'rpe'], message: 'rpe must be in steps of 0.5' }] } });
    const tooMany = await callError(alice.client, 'training_log_session', { exercises: [{ name: 'Deadlift', sets: [{ reps: 1, repeat: 30 }, { reps: 2, repeat: 30 }] }] });
    expect(tooMany).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['exercises', 0, 'sets'], message: 'at most 50 sets per exercise' }] } });
    const noName = await callError(alice.client, 'training_log_session', { exercises: [{ sets: [{ reps: 1 }] }] });
    expect(noName.code).toBe('VALIDATION_ERROR');

    expect(await callError(bob.client, 'training_log_session', { dayId: today.id, exercises: [{ name: 'Deadlift' }] })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'training_log_session', { exercises: [{ exerciseId: ownExercise.id }] })).toMatchObject({ code: 'NOT_FOUND' });
    // Bob cannot name Alice's own exercise either.
    expect(await callError(bob.client, 'training_log_session', { exercises: [{ name: 'Sled Push Alice' }] })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await countOf('training_sessions', alice)).toBe(sessions);
    expect(await countOf('training_sessions', bob)).toBe(0);
  });

  it('training_exercise_history: by id, paginated; no exercise named, another user\'s exercise', async () => {
    const page = await callOk(alice.client, 'training_exercise_history', { name: 'Bench Press', limit: 1, page: 2 });
    expect(page.sessions.map((s: any) => s.date)).toEqual(['2025-03-03']);
    expect(page.meta).toEqual({ page: 2, limit: 1, total: 2 });
    expect(page.trend).toMatchObject({ sessions: 1, change: null, direction: 'not_enough_data' });

    const own = await callOk(alice.client, 'training_exercise_history', { exerciseId: ownExercise.id });
    expect(own.sessions).toHaveLength(1);
    expect(own.sessions[0]).toMatchObject({ setCount: 0, bestSet: null, bestE1rm: null, volume: 0 });

    expect(await callError(alice.client, 'training_exercise_history', {})).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await callError(alice.client, 'training_exercise_history', { name: 'Bench Press', limit: 0 })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['limit'] }] } });
    expect(await callError(bob.client, 'training_exercise_history', { exerciseId: ownExercise.id })).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Exercise' } });
    // The global exercise is Bob's too, but Alice's sessions are not.
    expect((await callOk(bob.client, 'training_exercise_history', { name: 'Bench Press' })).sessions).toEqual([]);
  });

  it('training_search_exercises: by name text, category and muscle, bounded; own exercises stay their owner\'s', async () => {
    const found = await callOk(alice.client, 'training_search_exercises', { q: 'bench', category: 'STRENGTH', limit: 3 });
    expect(found.exercises).toHaveLength(3);
    for (const e of found.exercises) {
      expect(e.name.toLowerCase()).toContain('bench');
      expect(e).toMatchObject({ category: 'strength', isGlobal: true });
    }
    expect(found.meta.limit).toBe(3);
    expect(found.meta.total).toBeGreaterThan(3);
    expect((await callOk(alice.client, 'training_search_exercises', { muscleGroup: 'Chest', limit: 100 })).exercises.every((e: any) => e.muscleGroups.includes('chest'))).toBe(true);
    expect((await callOk(alice.client, 'training_search_exercises', { global: false })).exercises).toEqual([
      { id: ownExercise.id, name: 'Sled Push Alice', category: 'conditioning', muscleGroups: [], isGlobal: false },
    ]);
    expect((await callOk(bob.client, 'training_search_exercises', { q: 'Sled Push Alice' })).exercises).toEqual([]);
    expect(await callError(alice.client, 'training_search_exercises', { q: 'x'.repeat(201) })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['q'] }] } });
  });

  it('training_sessions: a period\'s sessions with their volume; another user sees none', async () => {
    const week = await callOk(alice.client, 'training_sessions', { start: '2025-03-03', end: '2025-03-09' });
    expect(week.sessions.map((s: any) => [s.date, s.split, s.volume])).toEqual([
      ['2025-03-03', 'Push', 1125],
      ['2025-03-04', 'Workout', 180],
    ]);
    expect(week.sessions[0].exercises).toEqual([{ name: 'Bench Press', setCount: 3, volume: 1125, bestE1rm: 87.5 }]);
    expect(week.totalVolume).toBe(1305);
    const recent = await callOk(alice.client, 'training_sessions', {});
    expect(recent).toMatchObject({ end: today.date });
    expect(recent.sessions.map((s: any) => s.date)).toEqual([today.date, today.date]);
    expect((await callOk(bob.client, 'training_sessions', { start: '2025-03-03', end: '2025-03-09' })).sessions).toEqual([]);
    expect(await callError(alice.client, 'training_sessions', { start: 'last monday' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['start'] }] } });
    expect(await callError(alice.client, 'training_sessions', { start: '2025-03-09', end: '2025-03-03' })).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('training_log_mobility and training_log_cardio: XP, events and checklist ticks, the lunch slot rule, another user\'s day', async () => {
    const [mobilityDay, cardioDay] = [past[2]!, past[3]!];
    const xpBefore = await xpOf(alice);
    const before = await events(alice);
    const mobility = await callOk(alice.client, 'training_log_mobility', { dayId: mobilityDay, focus: 'hips', duration: 20, intensity: 4 });
    expect(mobility).toMatchObject({ dayId: mobilityDay, focus: 'hips', duration: 20, intensity: 4, checklist: { key: 'MOBILITY', completed: true, tickedNow: true } });
    const cardio = await callOk(alice.client, 'training_log_cardio', { dayId: cardioDay, type: 'run', duration: 30, distance: 5, effort: 'zone2', averageHeartRate: 140 });
    expect(cardio).toMatchObject({ dayId: cardioDay, type: 'run', duration: 30, distance: 5, pace: null, checklist: { key: 'CARDIO', completed: true, tickedNow: true }, message: 'Logged 30 min of run (5 km)' });
    expect(await xpOf(alice)).toBe(xpBefore + XP.mobility + XP.cardio + 2 * XP.checklist_item);
    expect(await newEvents(alice, before)).toEqual([
      ['cardio_logged', cardio.id],
      ['checklist_completed', 'CARDIO'],
      ['checklist_completed', 'MOBILITY'],
    ]);
    const rest = await restGet(alice, `/cardio/sessions?dayId=${cardioDay}`);
    expect(rest).toEqual([expect.objectContaining({ id: cardio.id, effort: 'zone2', averageHeartRate: 140 })]);

    const lunch = await callError(alice.client, 'training_log_cardio', { dayId: mobilityDay, type: 'bike', duration: 15 });
    expect(lunch).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'lunch_slot' } });
    expect(await callError(alice.client, 'training_log_mobility', { dayId: cardioDay, focus: 'shoulders', duration: 10, intensity: 3 })).toMatchObject({ details: { rule: 'lunch_slot' } });
    expect(await callError(alice.client, 'training_log_mobility', { focus: 'hips', duration: 10, intensity: 11 })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['intensity'], message: 'intensity must be 1 to 10' }] },
    });
    expect(await callError(alice.client, 'training_log_cardio', { type: 'run', duration: 0 })).toMatchObject({
      details: { errors: [{ path: ['duration'], message: 'duration must be a positive number of minutes' }] },
    });
    expect(await callError(bob.client, 'training_log_mobility', { dayId: mobilityDay, focus: 'hips', duration: 10, intensity: 3 })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'training_log_cardio', { dayId: cardioDay, type: 'run', duration: 10 })).toMatchObject({ code: 'NOT_FOUND' });
    expect([await countOf('mobility_sessions', alice), await countOf('cardio_sessions', alice), await countOf('cardio_sessions', bob)]).toEqual([1, 1, 0]);
  });
});

describe('health', () => {
  it('health_log_sleep sets the day\'s sleepHours (no event); bad hours, a wake before bed and another user\'s day are refused', async () => {
    const before = await events(alice);
    const sleep = await callOk(alice.client, 'health_log_sleep', { duration: 7.5, quality: 8, bedtime: '2026-01-01T22:30:00Z', wakeTime: '2026-01-02T06:00:00Z' });
    expect(sleep).toMatchObject({ dayId: today.id, duration: 7.5, quality: 8, bedtime: '2026-01-01T22:30:00.000Z', wakeTime: '2026-01-02T06:00:00.000Z' });
    expect((await restGet(alice, '/days/today')).sleepHours).toBe(7.5);
    expect(await newEvents(alice, before)).toEqual([]);

    expect(await callError(alice.client, 'health_log_sleep', { duration: 25 })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['duration'], message: 'duration must be at most 24 hours' }] },
    });
    expect(await callError(alice.client, 'health_log_sleep', { duration: 7, bedtime: '2026-01-02T06:00:00Z', wakeTime: '2026-01-01T22:00:00Z' })).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await callError(bob.client, 'health_log_sleep', { dayId: today.id, duration: 3 })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await countOf('sleep_entries', alice)).toBe(1);
    expect(await countOf('sleep_entries', bob)).toBe(0);
  });

  it('health_log_steps records a count (no event); negative steps and another user\'s day are refused', async () => {
    const before = await events(alice);
    const steps = await callOk(alice.client, 'health_log_steps', { steps: 8042, dayId: past[4] });
    expect(steps).toMatchObject({ dayId: past[4], steps: 8042, message: 'Logged 8042 steps' });
    expect(await sql(app.databaseUrl, 'select steps, day_id from steps_entries where user_id = $1', [alice.user.id])).toEqual([{ steps: 8042, day_id: past[4] }]);
    expect(await newEvents(alice, before)).toEqual([]);
    expect(await callError(alice.client, 'health_log_steps', { steps: -1 })).toMatchObject({ details: { errors: [{ path: ['steps'], message: 'steps must not be negative' }] } });
    expect(await callError(bob.client, 'health_log_steps', { dayId: past[4], steps: 10 })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await countOf('steps_entries', bob)).toBe(0);
  });

  it('health_log_meditation records meditation_logged, earns XP and ticks MEDITATION once; bad minutes and another user\'s day are refused', async () => {
    const xpBefore = await xpOf(alice);
    const before = await events(alice);
    const first = await callOk(alice.client, 'health_log_meditation', { duration: 10, type: 'breathing', dayId: past[5] });
    expect(first).toMatchObject({ dayId: past[5], duration: 10, type: 'breathing', checklist: { key: 'MEDITATION', completed: true, tickedNow: true } });
    const second = await callOk(alice.client, 'health_log_meditation', { duration: 5, dayId: past[5] });
    expect(second).toMatchObject({ type: null, checklist: { key: 'MEDITATION', completed: true, tickedNow: false } });
    expect(await newEvents(alice, before)).toEqual(
      [
        ['checklist_completed', 'MEDITATION'],
        ['meditation_logged', first.id],
        ['meditation_logged', second.id],
      ].sort((a, b) => a.join().localeCompare(b.join())),
    );
    expect(await xpOf(alice)).toBe(xpBefore + 2 * XP.meditation + XP.checklist_item);
    expect(await callError(alice.client, 'health_log_meditation', { duration: 0 })).toMatchObject({
      details: { errors: [{ path: ['duration'], message: 'duration must be a positive number of minutes' }] },
    });
    expect(await callError(bob.client, 'health_log_meditation', { dayId: past[5], duration: 10 })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await countOf('meditation_sessions', bob)).toBe(0);
  });

  it('health_log_body_measurement and health_body_measurements: newest first with the weight change; a measurement needs a value; another user sees none', async () => {
    const older = await callOk(alice.client, 'health_log_body_measurement', { dayId: past[0], weight: 81.2, waist: 84, measuredAt: '2025-03-03T07:00:00Z' });
    expect(older).toMatchObject({ dayId: past[0], weight: 81.2, waist: 84, bodyFat: null, hip: null, measuredAt: '2025-03-03T07:00:00.000Z', message: 'Logged 81.2 kg, waist 84 cm' });
    const newer = await callOk(alice.client, 'health_log_body_measurement', { weight: 80.5, bodyFat: 18 });
    expect(newer).toMatchObject({ dayId: today.id, weight: 80.5, bodyFat: 18 });
    expect((await restGet(alice, '/body-composition/measurements')).map((m: any) => m.id)).toEqual([older.id, newer.id]);

    const list = await callOk(alice.client, 'health_body_measurements', {});
    expect(list.measurements.map((m: any) => [m.id, m.weight])).toEqual([
      [newer.id, 80.5],
      [older.id, 81.2],
    ]);
    expect(list.weightChange).toBe(-0.7);
    expect(list.meta).toEqual({ page: 1, limit: 10, total: 2 });
    const march = await callOk(alice.client, 'health_body_measurements', { startDate: '2025-03-01', endDate: '2025-03-31' });
    expect(march.measurements.map((m: any) => m.id)).toEqual([older.id]);
    expect(march.weightChange).toBeNull();

    expect(await callError(alice.client, 'health_log_body_measurement', { notes: 'forgot the scale' })).toMatchObject({ code: 'VALIDATION_ERROR', message: 'A measurement needs at least one of weight, bodyFat, waist, hip' });
    expect(await callError(alice.client, 'health_log_body_measurement', { bodyFat: 101 })).toMatchObject({ details: { errors: [{ path: ['bodyFat'], message: 'bodyFat must be 0 to 100' }] } });
    expect(await callError(alice.client, 'health_body_measurements', { limit: 0 })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['limit'] }] } });
    expect(await callError(bob.client, 'health_log_body_measurement', { dayId: today.id, weight: 70 })).toMatchObject({ code: 'NOT_FOUND' });
    expect((await callOk(bob.client, 'health_body_measurements', {})).measurements).toEqual([]);
    expect(await countOf('body_measurements', alice)).toBe(2);
  });
});
