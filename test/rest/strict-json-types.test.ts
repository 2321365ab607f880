import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { HttpClient, HttpResult } from '../support/http-client.js';
import { outboxEvents } from '../support/expectations.js';
import { keyHolder, type KeyClient } from '../../src/public-api/public-api.test-helpers.js';

/**
 * REST takes JSON as typed (operations.md): a value whose JSON type differs from the declared one is a
 * 400 VALIDATION_ERROR naming the field, on /api/v1 and /api/public/v1 alike, even where GraphQL's
 * input coercion would convert it (a string into a one-item list, a number into an ID). Query values
 * are text: each is read as its declared type, and text that does not read as it is refused the same way.
 */

let app: TestApp;
let userId: string;
let client: HttpClient;
let api: KeyClient;
let dayId: string;
let exerciseId: string;
let taskId: string;

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  ({ client, api, id: userId } = await keyHolder(app));
  const week = await client.post('/api/v1/weeks/generate', { startDate: '2032-03-01' });
  expect(week.status, week.text).toBe(201);
  dayId = week.body.data.days[0].id;
  exerciseId = (await api.get('/exercises/search?q=squat')).body.data[0].id;
  const task = await client.post('/api/v1/tasks', { title: 'Plan', timebox: 15 });
  expect(task.status, task.text).toBe(201);
  taskId = task.body.data.id;
});
afterAll(async () => {
  await app?.close();
});

/** 400 VALIDATION_ERROR whose details name exactly `path`, with a message saying what was expected. */
function expectWrongType(res: HttpResult, path: (string | number)[], expected: RegExp): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.ok).toBe(false);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const error = res.body.error.details.errors.find((e: { path: unknown[] }) => JSON.stringify(e.path) === JSON.stringify(path));
  expect(error, res.text).toBeDefined();
  expect(error.message).toMatch(expected);
}

/** What the user has stored, read back after each refusal: none of it may change. */
async function stored(): Promise<unknown> {
  const [tasks, webhooks, settings, sessions, today] = await Promise.all([
    client.get('/api/v1/tasks?limit=100'),
    client.get('/api/v1/webhooks'),
    client.get('/api/v1/settings'),
    client.get('/api/v1/training/sessions'),
    client.get('/api/v1/days/today'),
  ]);
  const day = (await client.get(`/api/v1/days/${dayId}`)).body.data;
  return {
    tasks: tasks.body.data,
    webhooks: webhooks.body.data,
    settings: settings.body.data,
    sessions: sessions.body.data,
    today: today.body.data,
    day,
    events: (await outboxEvents(app, userId)).length,
  };
}

/** Sends each refused request and checks that nothing stored changed. */
async function refusedAndNothingStored(cases: [send: () => Promise<HttpResult>, path: (string | number)[], expected: RegExp][]): Promise<void> {
  const before = await stored();
  for (const [send, path, expected] of cases) expectWrongType(await send(), path, expected);
  expect(await stored()).toEqual(before);
}

describe('Session API (/api/v1): JSON values of the wrong type', () => {
  it('refuses a string where an array belongs (GraphQL would make it a one-item list)', async () => {
    await refusedAndNothingStored([
      [() => client.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hook', events: 'task_created' }), ['events'], /expected an array, got a string/],
      [() => client.patch('/api/v1/settings', { weeklySplitLabels: 'Push' }), ['weeklySplitLabels'], /expected an array, got a string/],
      [() => client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: { exerciseId } }), ['exercises'], /expected an array, got an object/],
      [() => client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [{ exerciseId, sets: { reps: 5 } }] }), ['exercises', 0, 'sets'], /expected an array, got an object/],
    ]);
  });

  it('refuses an array where a string, a number, a boolean or an object belongs', async () => {
    await refusedAndNothingStored([
      [() => client.post('/api/v1/tasks', { title: ['Write'], timebox: 30 }), ['title'], /expected a string, got an array/],
      [() => client.post('/api/v1/tasks', { title: 'Write', timebox: [30] }), ['timebox'], /expected an integer, got an array/],
      [() => client.patch(`/api/v1/days/${dayId}`, { minimumMode: [true] }), ['minimumMode'], /expected true or false, got an array/],
      [() => client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [[exerciseId]] }), ['exercises', 0], /expected an object, got an array/],
    ]);
  });

  it('refuses a number where a string, an id, a date or an enum belongs', async () => {
    await refusedAndNothingStored([
      [() => client.post('/api/v1/tasks', { title: 42, timebox: 30 }), ['title'], /expected a string, got a number/],
      [() => client.post('/api/v1/tasks', { title: 'Write', timebox: 30, dayId: 12 }), ['dayId'], /expected a string, got a number/],
      [() => client.post('/api/v1/weeks/generate', { startDate: 20320308 }), ['startDate'], /expected a string, got a number/],
      [() => client.patch(`/api/v1/tasks/${taskId}`, { status: 1 }), ['status'], /expected one of .*todo.*, got a number/],
      [() => client.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hook', events: [7] }), ['events', 0], /expected a string, got a number/],
    ]);
  });

  it('refuses a string where a number or a boolean belongs (a number as text)', async () => {
    await refusedAndNothingStored([
      [() => client.post('/api/v1/tasks', { title: 'Write', timebox: '30' }), ['timebox'], /expected an integer, got a string/],
      [() => client.patch(`/api/v1/days/${dayId}`, { sleepHours: '7.5' }), ['sleepHours'], /expected a number, got a string/],
      [() => client.patch(`/api/v1/days/${dayId}`, { minimumMode: 'true' }), ['minimumMode'], /expected true or false, got a string/],
      [() => client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [{ exerciseId, sets: [{ reps: '5' }] }] }), ['exercises', 0, 'sets', 0, 'reps'], /expected an integer, got a string/],
    ]);
  });

  it('refuses an object where a scalar belongs, and a scalar where an object belongs', async () => {
    await refusedAndNothingStored([
      [() => client.post('/api/v1/tasks', { title: { text: 'Write' }, timebox: 30 }), ['title'], /expected a string, got an object/],
      [() => client.post('/api/v1/tasks', { title: 'Write', timebox: { minutes: 30 } }), ['timebox'], /expected an integer, got an object/],
      [() => client.patch(`/api/v1/days/${dayId}`, { minimumMode: {} }), ['minimumMode'], /expected true or false, got an object/],
      [() => client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [exerciseId] }), ['exercises', 0], /expected an object, got a string/],
    ]);
  });

  it('reads typed query values as their type and refuses text that is not (naming the parameter)', async () => {
    await refusedAndNothingStored([
      [() => client.get('/api/v1/tasks?page=abc'), ['page'], /^page: expected an integer$/],
      [() => client.get('/api/v1/tasks?limit=ten'), ['limit'], /^limit: expected an integer$/],
      [() => client.get('/api/v1/exercises?global=yes'), ['global'], /^global: expected true or false$/],
      [() => client.get('/api/v1/tasks?status=1'), ['status'], /^status: Value "1" does not exist in "TaskStatus" enum/],
    ]);
    // Values that read as their type keep working.
    const page = await client.get('/api/v1/tasks?page=2&limit=5');
    expect(page.status, page.text).toBe(200);
    expect(page.body.meta).toMatchObject({ page: 2, limit: 5 });
    const global = await client.get('/api/v1/exercises?global=true&limit=3');
    expect(global.status, global.text).toBe(200);
    expect(global.body.data.every((e: { isGlobal: boolean }) => e.isGlobal)).toBe(true);
  });

  it('accepts each value in its declared JSON type (the same requests, typed right)', async () => {
    const webhook = await client.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hook', events: ['task_created'] });
    expect(webhook.status, webhook.text).toBe(201);
    expect(webhook.body.data.events).toEqual(['task_created']);
    const task = await client.post('/api/v1/tasks', { title: 'Write', timebox: 30, dayId });
    expect(task.status, task.text).toBe(201);
    const doing = await client.patch(`/api/v1/tasks/${taskId}`, { status: 'doing' });
    expect(doing.status, doing.text).toBe(200);
    const day = await client.patch(`/api/v1/days/${dayId}`, { sleepHours: 7.5, minimumMode: true });
    expect(day.status, day.text).toBe(200);
    const session = await client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [{ exerciseId, sets: [{ reps: 5, load: 80 }] }] });
    expect(session.status, session.text).toBe(201);
  });
});

describe('Public API (/api/public/v1): JSON values of the wrong type', () => {
  it('refuses a string or an object where an array belongs', async () => {
    await refusedAndNothingStored([
      [() => api.post('/workouts', { splitLabel: 'Legs', exercises: exerciseId }), ['exercises'], /expected an array, got a string/],
      [() => api.post('/workouts', { splitLabel: 'Legs', exercises: [{ exerciseId, sets: { setNumber: 1 } }] }), ['exercises', 0, 'sets'], /expected an array, got an object/],
    ]);
  });

  it('refuses an array where a number, a string or an object belongs', async () => {
    await refusedAndNothingStored([
      [() => api.post('/water', { volume: [250] }), ['volume'], /expected a number, got an array/],
      [() => api.post('/water', { volume: 250, notes: ['after run'] }), ['notes'], /expected a string, got an array/],
      [() => api.post('/workouts', { splitLabel: 'Legs', exercises: [[exerciseId]] }), ['exercises', 0], /expected an object, got an array/],
    ]);
  });

  it('refuses a number where a string, a date-time or an enum belongs', async () => {
    await refusedAndNothingStored([
      [() => api.post('/workouts', { splitLabel: 5 }), ['splitLabel'], /expected a string, got a number/],
      [() => api.post('/water', { volume: 250, time: 1767225600000 }), ['time'], /expected a string, got a number/],
      [() => api.post('/cardio', { type: 'run', duration: 30, intensity: 2 }), ['intensity'], /expected one of .*zone2.*, got a number/],
      [() => api.post('/workouts', { splitLabel: 'Legs', exercises: [{ exerciseId: 9 }] }), ['exercises', 0, 'exerciseId'], /expected a string, got a number/],
    ]);
  });

  it('refuses a string where a number belongs (a number as text)', async () => {
    await refusedAndNothingStored([
      [() => api.post('/water', { volume: '250' }), ['volume'], /expected a number, got a string/],
      [() => api.post('/steps', { steps: '1000' }), ['steps'], /expected an integer, got a string/],
      [() => api.post('/mood', { mood: '7', energy: 6 }), ['mood'], /expected an integer, got a string/],
    ]);
  });

  it('refuses an object where a scalar belongs, and a scalar where an object belongs', async () => {
    await refusedAndNothingStored([
      [() => api.post('/water', { volume: { ml: 250 } }), ['volume'], /expected a number, got an object/],
      [() => api.post('/meditation', { duration: 10, type: { name: 'breath' } }), ['type'], /expected a string, got an object/],
      [() => api.post('/workouts', { splitLabel: 'Legs', exercises: [exerciseId] }), ['exercises', 0], /expected an object, got a string/],
    ]);
  });

  it('accepts each value in its declared JSON type', async () => {
    const water = await api.post('/water', { volume: 250, notes: 'after run', time: '2032-03-01T08:00:00.000Z' });
    expect(water.status, water.text).toBe(200);
    const workout = await api.post('/workouts', { splitLabel: 'Legs', exercises: [{ exerciseId, sets: [{ setNumber: 1, reps: 5, weight: 100 }] }] });
    expect(workout.status, workout.text).toBe(200);
    const cardio = await api.post('/cardio', { type: 'run', duration: 30, intensity: 'zone2' });
    expect(cardio.status, cardio.text).toBe(200);
  });
});
