import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpClient, type HttpResult } from '../support/http-client.js';

/**
 * Explicit null in update bodies, the same through REST and GraphQL: null clears a field whose column
 * is nullable; null on a field that always has a value is a 400 VALIDATION_ERROR naming it, and the
 * record is left as it was. Absent fields stay untouched.
 */

let app: TestApp;
let client: HttpClient;
beforeAll(async () => {
  app = await sharedTestApp();
  ({ client } = await signUp(app.url));
});

let weeks = 0;
/** A fresh week (a distinct Monday per call) and its 7 day ids. */
async function days(c: HttpClient): Promise<string[]> {
  const monday = new Date(Date.UTC(2031, 0, 6 + 7 * weeks++)).toISOString().slice(0, 10);
  return (await week(c, monday)).days.map((d: { id: string }) => d.id);
}

async function week(c: HttpClient, monday = new Date(Date.UTC(2031, 0, 6 + 7 * weeks++)).toISOString().slice(0, 10)): Promise<any> {
  const res = await c.post('/api/v1/weeks/generate', { startDate: monday });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

function ok(res: HttpResult): any {
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data;
}

/** 400 VALIDATION_ERROR with an error whose path starts at `field`. */
function expectRefused(res: HttpResult, field: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.errors.map((e: { path: unknown[] }) => e.path[0])).toContain(field);
}

/** A GraphQL VALIDATION_ERROR naming `field`. */
function expectGraphQLRefused(res: HttpResult, field: string): void {
  expect(res.body.errors?.length, res.text).toBe(1);
  const { extensions } = res.body.errors[0];
  expect(extensions.code, res.text).toBe('VALIDATION_ERROR');
  expect(extensions.status).toBe(400);
  expect(extensions.details.errors.map((e: { path: unknown[] }) => e.path[0])).toContain(field);
}

async function fullTask(c: HttpClient): Promise<any> {
  const [dayId] = await days(c);
  const category = ok(await c.post('/api/v1/task-categories', { name: 'Work', color: '#112233' }));
  const task = ok(await c.post('/api/v1/tasks', { title: 'Report', timebox: 45, description: 'Quarterly', categoryId: category.id, dayId }));
  ok(await c.patch(`/api/v1/tasks/${task.id}`, { nextStep: 'Ask Sam' }));
  return { ...task, category };
}

async function session(c: HttpClient): Promise<any> {
  const [dayId] = await days(c);
  const exercise = ok(await c.post('/api/v1/exercises', { name: 'Sled Push', category: 'conditioning', muscleGroups: ['quads'] }));
  return ok(
    await c.post('/api/v1/training/sessions', {
      dayId,
      split: 'Push',
      startTime: '2031-01-06T07:00:00.000Z',
      endTime: '2031-01-06T08:00:00.000Z',
      sessionRPE: 8,
      notes: 'Felt strong',
      exercises: [{ exerciseId: exercise.id, sets: [{ reps: 5, load: 50 }] }],
    }),
  );
}

describe('REST: null clears a nullable field', () => {
  it('task description, nextStep, categoryId and dayId', async () => {
    const task = await fullTask(client);
    const cleared = ok(await client.patch(`/api/v1/tasks/${task.id}`, { description: null, nextStep: null, categoryId: null, dayId: null }));
    expect(cleared).toMatchObject({ title: 'Report', timebox: 45, description: null, nextStep: null, categoryId: null, dayId: null });
    expect(ok(await client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ description: null, nextStep: null, categoryId: null, dayId: null, category: null });
  });

  it('task category colour', async () => {
    const category = ok(await client.post('/api/v1/task-categories', { name: 'Home', color: '#445566' }));
    expect(ok(await client.patch(`/api/v1/task-categories/${category.id}`, { color: null }))).toMatchObject({ name: 'Home', color: null });
  });

  it('perimeter task personId', async () => {
    const personId = ok(await client.post('/api/v1/people', { name: 'Mum' })).id;
    const task = ok(await client.post('/api/v1/perimeter/tasks', { title: 'Call mum', personId }));
    expect(task.personId).toBe(personId);
    expect(ok(await client.patch(`/api/v1/perimeter/tasks/${task.id}`, { personId: null }))).toMatchObject({ title: 'Call mum', personId: null });
  });

  it('day notes, mood, energy and sleepHours (minimumMode untouched)', async () => {
    const [dayId] = await days(client);
    ok(await client.patch(`/api/v1/days/${dayId}`, { notes: 'Busy day', mood: 7, energy: 6, sleepHours: 7.5, minimumMode: true }));
    const cleared = ok(await client.patch(`/api/v1/days/${dayId}`, { notes: null, mood: null, energy: null, sleepHours: null }));
    expect(cleared).toMatchObject({ notes: null, mood: null, energy: null, sleepHours: null, minimumMode: true });
    expect(ok(await client.get(`/api/v1/days/${dayId}`))).toMatchObject({ notes: null, mood: null, energy: null, sleepHours: null, minimumMode: true });
  });

  it('training session endTime, sessionRPE and notes', async () => {
    const made = await session(client);
    const cleared = ok(await client.patch(`/api/v1/training/sessions/${made.id}`, { endTime: null, sessionRPE: null, notes: null }));
    expect(cleared).toMatchObject({ split: 'Push', endTime: null, sessionRPE: null, notes: null });
    expect(cleared.exercises).toHaveLength(1);
  });

  it('a null body key never overrides a path parameter', async () => {
    const task = ok(await client.post('/api/v1/tasks', { title: 'Path wins', timebox: 10, description: 'x' }));
    const res = ok(await client.patch(`/api/v1/tasks/${task.id}`, { taskId: null, description: null }));
    expect(res).toMatchObject({ id: task.id, description: null });
  });

  it("another user's task answers 404 and stays as it was", async () => {
    const task = await fullTask(client);
    const { client: other } = await signUp(app.url);
    const res = await other.patch(`/api/v1/tasks/${task.id}`, { categoryId: null, description: null });
    expect(res.status, res.text).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(ok(await client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ description: 'Quarterly', categoryId: task.category.id });
  });
});

describe('REST: null on a required field is a 400 naming it, and nothing changes', () => {
  it.each(['title', 'timebox', 'status'])('task %s', async (field) => {
    const task = await fullTask(client);
    expectRefused(await client.patch(`/api/v1/tasks/${task.id}`, { [field]: null, description: null }), field);
    expect(ok(await client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ title: 'Report', timebox: 45, status: 'todo', description: 'Quarterly' });
  });

  it('deferring with a null nextStep is refused', async () => {
    const task = await fullTask(client);
    const res = await client.patch(`/api/v1/tasks/${task.id}`, { status: 'deferred', nextStep: null });
    expectRefused(res, 'nextStep');
    expect(ok(await client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ status: 'todo', nextStep: 'Ask Sam' });
  });

  it('task category name', async () => {
    const category = ok(await client.post('/api/v1/task-categories', { name: 'Keep', color: '#445566' }));
    expectRefused(await client.patch(`/api/v1/task-categories/${category.id}`, { name: null, color: null }), 'name');
    const list = ok(await client.get('/api/v1/task-categories?limit=100'));
    expect(list.find((c: any) => c.id === category.id)).toMatchObject({ name: 'Keep', color: '#445566' });
  });

  it('perimeter task title', async () => {
    const personId = ok(await client.post('/api/v1/people', { name: 'Stay' })).id;
    const task = ok(await client.post('/api/v1/perimeter/tasks', { title: 'Stay', personId }));
    expectRefused(await client.patch(`/api/v1/perimeter/tasks/${task.id}`, { title: null, personId: null }), 'title');
    const list = ok(await client.get('/api/v1/perimeter/tasks?limit=100'));
    expect(list.find((t: any) => t.id === task.id)).toMatchObject({ title: 'Stay', personId });
  });

  it('day minimumMode', async () => {
    const [dayId] = await days(client);
    ok(await client.patch(`/api/v1/days/${dayId}`, { notes: 'Keep' }));
    expectRefused(await client.patch(`/api/v1/days/${dayId}`, { minimumMode: null, notes: null }), 'minimumMode');
    expect(ok(await client.get(`/api/v1/days/${dayId}`))).toMatchObject({ notes: 'Keep', minimumMode: false });
  });

  it('week isStressWeek', async () => {
    const made = await week(client);
    ok(await client.patch(`/api/v1/weeks/${made.id}`, { isStressWeek: true }));
    expectRefused(await client.patch(`/api/v1/weeks/${made.id}`, { isStressWeek: null }), 'isStressWeek');
    expect(ok(await client.get(`/api/v1/weeks/${made.startDate}`))).toMatchObject({ id: made.id, isStressWeek: true });
  });

  it.each(['wakeTime', 'inBedTime', 'lightsOutTime', 'stressWeekWakeTime', 'stressWeekInBedTime', 'stressWeekLightsOutTime', 'timezone', 'weeklySplitLabels'])(
    'settings %s',
    async (field) => {
      const { client: own } = await signUp(app.url);
      ok(await own.patch('/api/v1/settings', { wakeTime: '06:30' }));
      const before = ok(await own.get('/api/v1/settings'));
      expectRefused(await own.patch('/api/v1/settings', { [field]: null }), field);
      expect(ok(await own.get('/api/v1/settings'))).toEqual(before);
    },
  );

  it.each(['split', 'startTime', 'exercises'])('training session %s', async (field) => {
    const made = await session(client);
    expectRefused(await client.patch(`/api/v1/training/sessions/${made.id}`, { [field]: null, notes: null }), field);
    const after = ok(await client.get(`/api/v1/training/sessions/${made.id}`));
    expect(after).toMatchObject({ split: 'Push', startTime: '2031-01-06T07:00:00.000Z', notes: 'Felt strong' });
    expect(after.exercises).toHaveLength(1);
  });

  it.each(['name', 'category', 'muscleGroups'])('exercise %s', async (field) => {
    const exercise = ok(await client.post('/api/v1/exercises', { name: `Carry ${field}`, category: 'conditioning', muscleGroups: ['grip'] }));
    expectRefused(await client.patch(`/api/v1/exercises/${exercise.id}`, { [field]: null }), field);
    const mine = ok(await client.get(`/api/v1/exercises?global=false&limit=100`)).find((e: any) => e.id === exercise.id);
    expect(mine).toMatchObject({ name: `Carry ${field}`, category: 'conditioning', muscleGroups: ['grip'] });
  });

  it('a required path argument sent as null in the body is still taken from the path', async () => {
    const task = ok(await client.post('/api/v1/tasks', { title: 'Path', timebox: 10 }));
    expect(ok(await client.patch(`/api/v1/tasks/${task.id}`, { taskId: null, title: 'Renamed' }))).toMatchObject({ id: task.id, title: 'Renamed' });
  });
});

describe('GraphQL: the same semantics', () => {
  it('clears task fields, perimeter personId and day notes with null', async () => {
    const task = await fullTask(client);
    const res = await client.graphql(
      `mutation($id: UUID!) { updateTask(taskId: $id, description: null, categoryId: null, dayId: null) { description categoryId dayId title } }`,
      { id: task.id },
    );
    expect(res.body.data?.updateTask, res.text).toEqual({ description: null, categoryId: null, dayId: null, title: 'Report' });

    const dad = ok(await client.post('/api/v1/people', { name: 'Dad' })).id;
    const perimeter = ok(await client.post('/api/v1/perimeter/tasks', { title: 'Call dad', personId: dad }));
    const cleared = await client.graphql(`mutation($id: UUID!) { updatePerimeterTask(taskId: $id, personId: null) { personId } }`, { id: perimeter.id });
    expect(cleared.body.data?.updatePerimeterTask, cleared.text).toEqual({ personId: null });

    const [dayId] = await days(client);
    ok(await client.patch(`/api/v1/days/${dayId}`, { notes: 'Busy', mood: 5 }));
    const day = await client.graphql(`mutation($id: UUID!) { updateDay(dayId: $id, notes: null, mood: null) { notes mood minimumMode } }`, { id: dayId });
    expect(day.body.data?.updateDay, day.text).toEqual({ notes: null, mood: null, minimumMode: false });
  });

  it('refuses null for required fields, naming them, and changes nothing', async () => {
    const task = await fullTask(client);
    for (const field of ['title', 'timebox', 'status']) {
      const res = await client.graphql(`mutation($id: UUID!) { updateTask(taskId: $id, ${field}: null, description: null) { id } }`, { id: task.id });
      expectGraphQLRefused(res, field);
    }
    expect(ok(await client.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ title: 'Report', timebox: 45, status: 'todo', description: 'Quarterly' });

    const perimeter = ok(await client.post('/api/v1/perimeter/tasks', { title: 'Keep me' }));
    expectGraphQLRefused(await client.graphql(`mutation($id: UUID!) { updatePerimeterTask(taskId: $id, title: null) { id } }`, { id: perimeter.id }), 'title');

    const [dayId] = await days(client);
    expectGraphQLRefused(await client.graphql(`mutation($id: UUID!) { updateDay(dayId: $id, minimumMode: null) { id } }`, { id: dayId }), 'minimumMode');

    const { client: own } = await signUp(app.url);
    ok(await own.patch('/api/v1/settings', { wakeTime: '06:30' }));
    const before = ok(await own.get('/api/v1/settings'));
    for (const field of ['wakeTime', 'timezone', 'weeklySplitLabels']) {
      expectGraphQLRefused(await own.graphql(`mutation { updateSettings(${field}: null) { timezone } }`), field);
    }
    expect(ok(await own.get('/api/v1/settings'))).toEqual(before);

    const made = await session(client);
    expectGraphQLRefused(await client.graphql(`mutation($id: UUID!) { updateTrainingSession(sessionId: $id, split: null) { id } }`, { id: made.id }), 'split');
    expect(ok(await client.get(`/api/v1/training/sessions/${made.id}`))).toMatchObject({ split: 'Push' });
  });

  it('a null passed through a variable behaves like a literal null', async () => {
    const task = await fullTask(client);
    const UPDATE = `mutation($id: UUID!, $title: String, $description: String) { updateTask(taskId: $id, title: $title, description: $description) { title description } }`;
    expectGraphQLRefused(await client.graphql(UPDATE, { id: task.id, title: null }), 'title');
    const cleared = await client.graphql(UPDATE, { id: task.id, description: null });
    expect(cleared.body.data?.updateTask, cleared.text).toEqual({ title: 'Report', description: null });
  });
});
