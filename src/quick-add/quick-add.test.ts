import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient, type HttpResult } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { keyHolder, KeyClient } from '../public-api/public-api.test-helpers.js';
import { todayIn } from '../core/dates.js';
import { expectNotFound, expectStatus, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { xpOf } from '../habits/habits.test-helpers.js';

/**
 * Quick add through real HTTP on real PostgreSQL: each line class writes its record through its domain
 * (read back through the domain's own routes or tables), a dry run writes nothing, a line not understood
 * answers 422 with what was, and names match only the person's own records.
 */
let app: TestApp;
type User = Awaited<ReturnType<typeof signUp>>;
let alice: User;
let bob: User;
const TZ = 'Pacific/Auckland';

async function created(client: HttpClient, path: string, body: unknown): Promise<any> {
  const res = await client.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function quick(client: HttpClient, text: string, extra: Record<string, unknown> = {}): Promise<HttpResult> {
  return client.post('/api/v1/quick', { text, ...extra });
}

async function added(client: HttpClient, text: string): Promise<any> {
  const res = await quick(client, text);
  expect(res.status, res.text).toBe(201);
  expect(res.body.data.created).toBe(true);
  expect(typeof res.body.data.record.id).toBe('string');
  return res.body.data;
}

function expectNotUnderstood(res: HttpResult): any {
  expect(res.status, res.text).toBe(422);
  expect(res.body.ok).toBe(false);
  expect(res.body.error.code).toBe('NOT_UNDERSTOOD');
  return res.body.error;
}

const count = async (table: string, userId: string) => Number((await sql(app.databaseUrl, `select count(*)::int as n from ${table} where user_id = $1`, [userId]))[0]!.n);

beforeAll(async () => {
  app = await sharedTestApp();
  [alice, bob] = await Promise.all([signUp(app.url), signUp(app.url)]);
  for (const user of [alice, bob]) expect((await user.client.patch('/api/v1/settings', { timezone: TZ })).status).toBe(200);
  await created(alice.client, '/api/v1/task-categories', { name: 'Work' });
  await created(alice.client, '/api/v1/accounts', { name: 'Checking', type: 'checking', currency: 'EUR' });
  await created(alice.client, '/api/v1/accounts', { name: 'Savings', type: 'savings', currency: 'EUR' });
  await created(alice.client, '/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 600 });
  await created(alice.client, '/api/v1/people', { name: 'Anna Schmidt' });
  await created(bob.client, '/api/v1/task-categories', { name: 'Secret' });
  await created(bob.client, '/api/v1/accounts', { name: 'Bobbank', type: 'checking', currency: 'EUR' });
  await created(bob.client, '/api/v1/books', { title: 'Bobs Book', author: 'Bob', totalPages: 100 });
  await created(bob.client, '/api/v1/people', { name: 'Zed' });
  expect((await quick(bob.client, 'stretching every day')).status).toBe(201);
});

describe('POST /api/v1/quick', () => {
  it('answers a dry run token by token with the record it would make, and writes nothing', async () => {
    const before = await count('tasks', alice.id);
    const res = await quick(alice.client, 'write report tomorrow 9am ~90m #work', { dryRun: true });
    expect(res.status, res.text).toBe(200);
    const answer = res.body.data;
    expect(answer).toMatchObject({ dryRun: true, created: false, kind: 'task', record: { type: 'Task', id: null } });
    expect(answer.record.fields).toMatchObject({ title: 'write report', startTime: '09:00', timebox: 90, categoryName: 'work', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(typeof answer.record.fields.categoryId).toBe('string');
    expect(answer.tokens.map((t: any) => [t.text, t.field ?? null])).toEqual([
      ['write report', 'title'],
      ['tomorrow 9am', 'date'],
      ['~90m', 'timebox'],
      ['#work', 'category'],
    ]);
    expect(await count('tasks', alice.id)).toBe(before);
  });

  it('writes a task on the day said, in the person\'s time zone, with its category', async () => {
    const answer = await added(alice.client, 'write report tomorrow 9am ~90m #work');
    const task = (await alice.client.get(`/api/v1/tasks/${answer.record.id}`)).body.data;
    expect(task).toMatchObject({ title: 'write report', timebox: 90, startTime: '09:00', categoryId: answer.record.fields.categoryId });
    const [{ date }] = await sql(app.databaseUrl, 'select to_char(d.date, \'YYYY-MM-DD\') as date from tasks t join days d on d.id = t.day_id where t.id = $1', [answer.record.id]);
    const tomorrow = new Date(`${todayIn(TZ)}T00:00:00Z`);
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    expect(date).toBe(tomorrow.toISOString().slice(0, 10));
  });

  it('writes a recurring task through the recurrence core, starting on the rule\'s first date', async () => {
    const answer = await added(alice.client, 'pay rent every month on the 1st');
    expect(answer.kind).toBe('recurring_task');
    expect(answer.record.fields.startDate).toMatch(/-01$/);
    const task = (await alice.client.get(`/api/v1/tasks/${answer.record.id}`)).body.data;
    expect(task.recurrence).toBe('FREQ=MONTHLY;BYMONTHDAY=1');
  });

  it('writes water, steps, sleep, mood and weight on today', async () => {
    for (const line of ['water 500ml', 'steps 8400', 'slept 7h20', 'mood 7 energy 6', 'weight 81.4kg']) await added(alice.client, line);
    const today = (await alice.client.graphql('{ today { mood energy sleepHours waterIntakes { volume } stepsEntries { steps } bodyMeasurements { weight } } }')).body.data.today;
    expect(today).toMatchObject({ mood: 7, energy: 6, sleepHours: 7.33, waterIntakes: [{ volume: 500 }], stepsEntries: [{ steps: 8400 }], bodyMeasurements: [{ weight: 81.4 }] });
    const mood = await added(alice.client, 'mood 8');
    expect(mood.assumptions).toEqual(["no energy: the day's energy, 6"]);
  });

  it('books an expense on the account named, in its currency, with its category', async () => {
    const answer = await added(alice.client, 'coffee 3.50 eur #food from checking');
    expect(answer).toMatchObject({ kind: 'expense', record: { type: 'FinanceTransaction', fields: { amount: '-3.50', currency: 'EUR', accountName: 'Checking', category: 'food' } } });
    const account = (await alice.client.get(`/api/v1/accounts/${answer.record.fields.accountId}`)).body.data;
    expect(Number(account.balance)).toBe(-3.5);
    const income = await added(alice.client, 'salary 2500 eur to savings');
    expect(income.record.fields).toMatchObject({ amount: '2500.00', accountName: 'Savings' });
  });

  it('asks which account when none is said and several fit', async () => {
    const error = expectNotUnderstood(await quick(alice.client, 'lunch 12.80 eur'));
    expect(error.details.candidates.map((c: any) => c.name).sort()).toEqual(['Checking', 'Savings']);
  });

  it('logs a training session by exercise names, a reading session and a happening with a person', async () => {
    const training = await added(alice.client, 'bench 3x5 80kg, squat 5x5 100kg');
    expect(training.record.fields.exercises.map((e: any) => e.exercise)).toEqual(['Bench Press', 'Barbell Back Squat']);
    const sets = await sql(app.databaseUrl, 'select count(*)::int as n from training_sets s join training_exercises e on e.id = s.training_exercise_id where e.session_id = $1', [training.record.id]);
    expect(sets[0]!.n).toBe(8);

    const reading = await added(alice.client, 'read 30 pages of Dune');
    expect(reading.assumptions).toEqual(['no duration: 60 minutes (2 minutes a page)']);
    const books = (await alice.client.get('/api/v1/books')).body.data;
    expect(books[0].currentPage).toBe(30);

    const lunch = await added(alice.client, 'lunch with Anna friday');
    expect(lunch.record.fields).toMatchObject({ title: 'Lunch with Anna', people: ['Anna Schmidt'], startTime: '12:30', endTime: '13:30' });
    expect(lunch.alternatives.map((a: any) => a.kind)).toContain('social');
    const happening = (await alice.client.get(`/api/v1/social-happenings/${lunch.record.id}`)).body.data;
    expect(happening.guestIds).toHaveLength(1);
  });

  it('makes habits and logs their entries through the habits domain', async () => {
    const floss = await added(alice.client, 'floss every day');
    expect(floss).toMatchObject({ kind: 'habit', record: { type: 'Habit', fields: { schedule: 'DAILY' } } });
    const run = await added(alice.client, 'run 3x per week');
    expect(run.record.fields).toMatchObject({ schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3 });
    await added(alice.client, 'habit: yoga every monday and thursday');
    const entry = await added(alice.client, 'did yoga 20 min');
    expect(entry).toMatchObject({ kind: 'habit_entry', record: { type: 'HabitEntry', fields: { habitName: 'yoga' } } });
    expect(await count('habit_entries', alice.id)).toBe(1);
  });

  it('answers 422 with what was understood for text it does not understand, and writes nothing', async () => {
    const before = await count('tasks', alice.id);
    const error = expectNotUnderstood(await quick(alice.client, 'blah blah'));
    expect(error.details.unknown.map((t: any) => t.text)).toEqual(['blah', 'blah']);
    const onlyParts = expectNotUnderstood(await quick(alice.client, 'tomorrow #work'));
    expect(onlyParts.details.tokens.map((t: any) => [t.text, t.field])).toEqual([
      ['tomorrow', 'date'],
      ['#work', 'category'],
    ]);
    expect(await count('tasks', alice.id)).toBe(before);
  });

  it('refuses values out of bounds (400 naming the field) and a line over 500 characters', async () => {
    const mood = await quick(alice.client, 'mood 11');
    expect(mood.status, mood.text).toBe(400);
    expect(mood.body.error.details.errors).toEqual([{ path: ['mood'], message: 'mood must be 1 to 10' }]);
    const long = await quick(alice.client, `buy ${'x'.repeat(500)} today`);
    expect(long.status, long.text).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_ERROR');
    const bad = await quick(alice.client, 'water 500ml', { locale: 'xx' });
    expect(bad.status, bad.text).toBe(400);
  });

  it('matches only the person\'s own categories, accounts, books, people and habits', async () => {
    for (const [line, name] of [
      ['plan offsite tomorrow #secret', 'Secret'],
      ['coffee 3 eur from bobbank', 'Bobbank'],
      ['read 10 pages of Bobs Book', 'Bobs Book'],
      ['lunch with Zed friday', 'Zed'],
      ['did stretching', 'stretching'],
    ] as const) {
      const error = expectNotUnderstood(await quick(alice.client, line));
      expect(JSON.stringify(error.details.candidates ?? []), line).not.toContain(name);
      expect(error.details.unknown.length, line).toBeGreaterThan(0);
    }
    expect(await count('social_happenings', bob.id)).toBe(0);
  });

  it('needs a session', async () => {
    const res = await fetch(`${app.url}/api/v1/quick`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'water 500ml' }) });
    expect(res.status).toBe(401);
  });
});

describe('the GraphQL mutation and the Public API', () => {
  it('quickAdd answers the same through GraphQL', async () => {
    const res = await alice.client.graphql('mutation($text: String!) { quickAdd(text: $text, dryRun: true) { kind created record { type id fields } tokens { start end text meaning field } assumptions alternatives { kind summary } } }', { text: 'water 330ml at 3pm' });
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.quickAdd).toMatchObject({ kind: 'water', created: false, record: { type: 'WaterIntake', id: null, fields: { volume: 330, time: '15:00' } } });
  });

  it('POST /api/public/v1/quick writes for the key\'s owner; no key: 401', async () => {
    const holder = await keyHolder(app);
    const res = await holder.api.post('/quick', { text: 'water 250 ml' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'water', created: true, record: { type: 'WaterIntake' } });
    expect(await count('water_intakes', holder.id)).toBe(1);
    const dry = await holder.api.post('/quick', { text: 'steps 9000', dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    const anon = new KeyClient(app.url, `svc_${'x'.repeat(43)}`);
    expect((await anon.post('/quick', { text: 'water 250 ml' })).status).toBe(401);
  });
});

describe('undo of a quick add (docs/undo.md)', () => {
  const sessionRows = async (sessionId: string) =>
    (await sql(app.databaseUrl, `select (select count(*)::int from training_sessions where id = $1) as sessions, (select count(*)::int from training_exercises where session_id = $1) as exercises,
      (select count(*)::int from training_sets s join training_exercises e on e.id = s.training_exercise_id where e.session_id = $1) as sets`, [sessionId]))[0];

  function tokenOf(res: HttpResult): string {
    const token = res.headers.get('undo-token')!;
    expect(token).toMatch(UNDO_TOKEN_SHAPE);
    return token;
  }

  it('takes back every record the line made (a session, its exercises and sets) with its XP; edited since: 409 and nothing undone; another person: 404', async () => {
    const xp = await xpOf(alice.client);
    const res = await quick(alice.client, 'bench 3x5 80kg, squat 5x5 100kg');
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.record.id;
    expect(await sessionRows(id)).toEqual({ sessions: 1, exercises: 2, sets: 8 });
    expect(await xpOf(alice.client)).toBeGreaterThan(xp);
    const token = tokenOf(res);
    expectNotFound(await bob.client.post('/api/v1/undo', { token }));
    const undone = await alice.client.post('/api/v1/undo', { token });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.data).toEqual({ kind: 'quick_add', recordId: id });
    expect(await sessionRows(id)).toEqual({ sessions: 0, exercises: 0, sets: 0 });
    expect(await xpOf(alice.client)).toBe(xp);

    const edited = await quick(alice.client, 'bench 3x5 80kg');
    expect(edited.status, edited.text).toBe(201);
    expect((await alice.client.patch(`/api/v1/training/sessions/${edited.body.data.record.id}`, { split: 'Push' })).status).toBe(200);
    expectStatus(await alice.client.post('/api/v1/undo', { token: tokenOf(edited) }), 409, 'UNDO_CONFLICT');
    expect(await sessionRows(edited.body.data.record.id)).toEqual({ sessions: 1, exercises: 1, sets: 3 });
    // A dry run wrote nothing: no token.
    expect((await quick(alice.client, 'water 300ml', { dryRun: true })).headers.get('undo-token')).toBeNull();
  });

  it("the Public API's quick add answers the key owner's token, and its undo (with the key) takes the record back", async () => {
    const holder = await keyHolder(app);
    const res = await holder.api.post('/quick', { text: 'mood 4 energy 5' });
    expect(res.status, res.text).toBe(201);
    expect(await count('mood_entries', holder.id)).toBe(1);
    const undone = await holder.api.post('/undo', { token: tokenOf(res) });
    expect(undone.status, undone.text).toBe(200);
    expect(await count('mood_entries', holder.id)).toBe(0);
    const day = (await holder.client.get('/api/v1/days/today')).body.data;
    expect([day.mood ?? null, day.energy ?? null]).toEqual([null, null]);

    // An entry of a habit: its XP and the habit's longest streak exact after the undo.
    expect((await holder.api.post('/quick', { text: 'floss every day' })).status).toBe(201);
    const xp = await xpOf(holder.client);
    const entry = await holder.api.post('/quick', { text: 'floss done' });
    expect(entry.status, entry.text).toBe(201);
    expect(await xpOf(holder.client)).toBeGreaterThan(xp);
    expect((await holder.api.post('/undo', { token: tokenOf(entry) })).status).toBe(200);
    expect(await xpOf(holder.client)).toBe(xp);
    expect(await count('habit_entries', holder.id)).toBe(0);
    expect((await sql(app.databaseUrl, 'select longest_streak from habits where user_id = $1', [holder.id]))[0]!.longest_streak).toBe(0);
  });
});
