import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, expectRule, expectValidation } from '../../test/support/expectations.js';
import { sql } from '../../test/support/db.js';
import { addDays } from '../core/dates.js';
import { copyRow, createHabit, dayIdOn, logEntry, MISSING_ID, setTimezone, today, habitsTestApp } from './habits.test-helpers.js';
import { HABIT_ENTRIES_PER_DAY_MAX, HABITS_MAX } from './habit-limits.js';

/** Habits (issue 37): definitions, entries, isolation, caps, paging, the day and week reads. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await habitsTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  await setTimezone(alice, 'UTC');
  await setTimezone(bob, 'UTC');
});
afterAll(async () => {
  await app?.close();
});

describe('habits', () => {
  it('creates (201) with defaults, gets, lists in order, patches, archives, unarchives, reorders and deletes', async () => {
    const { client } = await signUp(app.url);
    await setTimezone(client, 'UTC');
    const floss = await createHabit(client, { name: '  Floss ', icon: '🦷', colour: '#33AA77' });
    expect(floss).toMatchObject({ name: 'Floss', icon: '🦷', colour: '#33AA77', kind: 'CHECK', target: 1, unit: null, schedule: 'DAILY', weekdays: [], timesPerPeriod: null, recurrence: null, startDate: today(), position: 0, archivedAt: null });
    expect(floss.streak).toMatchObject({ unit: 'DAY', current: 0, longest: 0, freezesLeftThisMonth: 2 });
    const run = await createHabit(client, { name: 'Run', kind: 'AMOUNT', unit: 'km', target: 5, schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3 });
    expect(run).toMatchObject({ kind: 'AMOUNT', unit: 'km', target: 5, schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3, position: 1 });
    const yoga = await createHabit(client, { name: 'Yoga', kind: 'DURATION', target: 20, schedule: 'WEEKDAYS', weekdays: [5, 1, 3] });
    expect(yoga).toMatchObject({ weekdays: [1, 3, 5], target: 20, unit: null });

    const list = await client.get('/api/v1/habits');
    expect(list.status).toBe(200);
    expect(list.body.data.map((h: any) => h.name)).toEqual(['Floss', 'Run', 'Yoga']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const paged = await client.get('/api/v1/habits?limit=2&page=2');
    expect(paged.body.data.map((h: any) => h.name)).toEqual(['Yoga']);
    expect(paged.body.meta).toEqual({ page: 2, limit: 2, total: 3 });

    const patched = await client.patch(`/api/v1/habits/${run.id}`, { name: 'Run far', schedule: 'TIMES_PER_MONTH', timesPerPeriod: 12, colour: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Run far', schedule: 'TIMES_PER_MONTH', timesPerPeriod: 12, colour: null, kind: 'AMOUNT' });
    // A new schedule drops the old one's fields.
    const daily = await client.patch(`/api/v1/habits/${run.id}`, { schedule: 'DAILY' });
    expect(daily.body.data).toMatchObject({ schedule: 'DAILY', timesPerPeriod: null });

    const archived = await client.post(`/api/v1/habits/${floss.id}/archive`, {});
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.data.archivedAt).toEqual(expect.any(String));
    expect((await client.get('/api/v1/habits')).body.data.map((h: any) => h.name)).toEqual(['Run far', 'Yoga']);
    expect((await client.get('/api/v1/habits?archived=true')).body.data.map((h: any) => h.name)).toEqual(['Floss']);
    expectRule(await client.post(`/api/v1/habits/${floss.id}/entries`, {}), 'habit_archived');
    expect((await client.post(`/api/v1/habits/${floss.id}/unarchive`, {})).body.data.archivedAt).toBeNull();

    const reordered = await client.post('/api/v1/habits/reorder', { habitIds: [yoga.id, floss.id] });
    expect(reordered.status, reordered.text).toBe(200);
    expect(reordered.body.data.map((h: any) => [h.name, h.position])).toEqual([['Yoga', 0], ['Floss', 1], ['Run far', 2]]);
    expect((await client.get('/api/v1/habits')).body.data.map((h: any) => h.name)).toEqual(['Yoga', 'Floss', 'Run far']);

    const gone = await client.delete(`/api/v1/habits/${run.id}`);
    expect(gone.body.data).toEqual({ id: run.id, message: 'Habit deleted' });
    expectNotFound(await client.get(`/api/v1/habits/${run.id}`));

    const gql = await client.graphql('{ habits { items { name streak { current unit } } meta { total } } }');
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.habits).toEqual({ items: [{ name: 'Yoga', streak: { current: 0, unit: 'DAY' } }, { name: 'Floss', streak: { current: 0, unit: 'DAY' } }], meta: { total: 2 } });
  });

  it('takes an RRULE through the recurrence core: normalised, and a start off the rule moves to its first date', async () => {
    const monday = '2031-03-03';
    const habit = await createHabit(alice, { name: 'Sauna', schedule: 'RRULE', recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=WE,SA', startDate: monday });
    expect(habit).toMatchObject({ schedule: 'RRULE', recurrence: 'FREQ=WEEKLY;BYDAY=WE,SA', startDate: '2031-03-05' });
    const week = await alice.get(`/api/v1/habits/week/${monday}`);
    const sauna = week.body.data.find((h: any) => h.habitId === habit.id);
    expect(sauna.days.map((d: any) => d.state)).toEqual(['NOT_DUE', 'NOT_DUE', 'PENDING', 'NOT_DUE', 'NOT_DUE', 'PENDING', 'NOT_DUE']);
    expectValidation(await alice.post('/api/v1/habits', { name: 'Bad', schedule: 'RRULE', recurrence: 'FREQ=HOURLY' }), 'recurrence');
    expectValidation(await alice.post('/api/v1/habits', { name: 'Bad', schedule: 'RRULE' }), 'recurrence');
    await alice.delete(`/api/v1/habits/${habit.id}`);
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const { client, id } = await signUp(app.url);
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'A', colour: 'red' }, 'colour'],
      [{ name: 'A', kind: 'SOMETIMES' }, 'kind'],
      [{ name: 'A', kind: 'CHECK', target: 2 }, 'target'],
      [{ name: 'A', kind: 'CHECK', unit: 'km' }, 'unit'],
      [{ name: 'A', kind: 'AMOUNT', target: 5 }, 'unit'],
      [{ name: 'A', kind: 'AMOUNT', unit: 'km' }, 'target'],
      [{ name: 'A', kind: 'DURATION' }, 'target'],
      [{ name: 'A', kind: 'DURATION', target: 2000 }, 'target'],
      [{ name: 'A', kind: 'COUNT', target: 2.5 }, 'target'],
      [{ name: 'A', target: 0 }, 'target'],
      [{ name: 'A', target: '1' }, 'target'],
      [{ name: 'A', schedule: 'WEEKDAYS' }, 'weekdays'],
      [{ name: 'A', schedule: 'WEEKDAYS', weekdays: [0, 8] }, 'weekdays'],
      [{ name: 'A', schedule: 'WEEKDAYS', weekdays: [1, 1] }, 'weekdays'],
      [{ name: 'A', weekdays: [1] }, 'weekdays'],
      [{ name: 'A', schedule: 'TIMES_PER_WEEK' }, 'timesPerPeriod'],
      [{ name: 'A', schedule: 'TIMES_PER_WEEK', timesPerPeriod: 8 }, 'timesPerPeriod'],
      [{ name: 'A', schedule: 'TIMES_PER_MONTH', timesPerPeriod: 29 }, 'timesPerPeriod'],
      [{ name: 'A', timesPerPeriod: 3 }, 'timesPerPeriod'],
      [{ name: 'A', recurrence: 'FREQ=DAILY' }, 'recurrence'],
      [{ name: 'A', startDate: '2031-02-30' }, 'startDate'],
    ] as const) {
      const res = await client.post('/api/v1/habits', body);
      expect(res.status, `${JSON.stringify(body)} ${res.text}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      if (field !== 'startDate') expect(res.body.error.details.errors.map((e: any) => e.path[0]), JSON.stringify(body)).toContain(field);
    }
    expect(await sql(app.databaseUrl, 'select id from habits where user_id = $1', [id])).toEqual([]);
    expectValidation(await client.get('/api/v1/habits/not-a-uuid'));
    const habit = await createHabit(client, { kind: 'DURATION', target: 10 });
    expectRule(await client.post(`/api/v1/habits/${habit.id}/entries`, {}), 'value_required');
    expectValidation(await client.post(`/api/v1/habits/${habit.id}/entries`, { value: 10.5 }), 'value');
    expectValidation(await client.post(`/api/v1/habits/${habit.id}/entries`, { value: -1 }), 'value');
    expectValidation(await client.post(`/api/v1/habits/${habit.id}/entries`, { value: 10, note: 'x'.repeat(1001) }), 'note');
    expectRule(await client.post(`/api/v1/habits/${habit.id}/entries`, { value: 10, date: '2020-01-01' }), 'before_habit_start');
    expectValidation(await client.post('/api/v1/habits/reorder', { habitIds: [habit.id, habit.id] }), 'habitIds');
  });

  it("answers another user's habit, entry or day with 404 like a missing one (path and body); nothing changes", async () => {
    const habit = await createHabit(alice, { name: 'Private' });
    const entry = await logEntry(alice, habit.id);
    const aliceDay = entry.dayId;
    for (const id of [habit.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/habits/${id}`));
      expectNotFound(await bob.patch(`/api/v1/habits/${id}`, { name: 'Mine' }));
      expectNotFound(await bob.delete(`/api/v1/habits/${id}`));
      expectNotFound(await bob.post(`/api/v1/habits/${id}/archive`, {}));
      expectNotFound(await bob.get(`/api/v1/habits/${id}/entries`), 'habitId');
      expectNotFound(await bob.get(`/api/v1/habits/${id}/streak`));
      expectNotFound(await bob.post(`/api/v1/habits/${id}/entries`, {}), 'habitId');
      expectNotFound(await bob.post('/api/v1/habits/reorder', { habitIds: [id] }), 'habitIds');
    }
    expectNotFound(await bob.delete(`/api/v1/habits/entries/${entry.id}`));
    const bobHabit = await createHabit(bob, { name: 'Mine' });
    expectNotFound(await bob.post(`/api/v1/habits/${bobHabit.id}/entries`, { dayId: aliceDay }), 'dayId');
    expectNotFound(await bob.post(`/api/v1/habits/${bobHabit.id}/days/${aliceDay}/mark`, { mark: 'SKIP' }), 'dayId');
    expectNotFound(await bob.post(`/api/v1/habits/${habit.id}/days/${aliceDay}/mark`, { mark: 'SKIP' }));
    expectNotFound(await bob.get(`/api/v1/habits/day/${aliceDay}`));
    expectNotFound(await bob.get(`/api/v1/habits/${bobHabit.id}/entries?dayId=${aliceDay}`));
    const gql = await bob.graphql('mutation($h: UUID!) { logHabitEntry(habitId: $h) { id } }', { h: habit.id });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await bob.get('/api/v1/habits')).body.data.map((h: any) => h.id)).toEqual([bobHabit.id]);
    expect((await bob.get('/api/v1/habits/streaks')).body.data.map((s: any) => s.habitId)).toEqual([bobHabit.id]);
    expect((await alice.get(`/api/v1/habits/${habit.id}`)).body.data.name).toBe('Private');
    expect((await alice.get(`/api/v1/habits/${habit.id}/entries`)).body.data.map((e: any) => e.id)).toEqual([entry.id]);
  });
});

describe('entries', () => {
  it('logs several entries a day (counts add up), lists them paged, and deleting one takes it back', async () => {
    const { client } = await signUp(app.url);
    await setTimezone(client, 'UTC');
    const water = await createHabit(client, { name: 'Water', kind: 'COUNT', target: 3, unit: 'glasses' });
    const first = await logEntry(client, water.id, { note: 'breakfast' });
    expect(first).toMatchObject({ habitId: water.id, date: today(), value: 1, note: 'breakfast', habit: { id: water.id, name: 'Water' } });
    await logEntry(client, water.id, { value: 1, dayId: first.dayId });
    let day = (await client.get(`/api/v1/habits/day/${first.dayId}`)).body.data.find((h: any) => h.habitId === water.id);
    expect(day).toMatchObject({ state: 'PARTIAL', value: 2, target: 3, date: today() });
    const third = await logEntry(client, water.id, { value: 2 });
    day = (await client.get(`/api/v1/habits/day/${first.dayId}`)).body.data[0];
    expect(day).toMatchObject({ state: 'DONE', value: 4 });
    const entries = await client.get(`/api/v1/habits/${water.id}/entries?limit=2`);
    expect(entries.body.data).toHaveLength(2);
    expect(entries.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect((await client.get(`/api/v1/habits/${water.id}/entries?dayId=${first.dayId}&page=2&limit=2`)).body.data.map((e: any) => e.id)).toEqual([third.id]);
    const gone = await client.delete(`/api/v1/habits/entries/${third.id}`);
    expect(gone.body.data).toEqual({ id: third.id, message: 'Habit entry deleted' });
    expect((await client.get(`/api/v1/habits/day/${first.dayId}`)).body.data[0]).toMatchObject({ state: 'PARTIAL', value: 2 });
    expectNotFound(await client.delete(`/api/v1/habits/entries/${third.id}`));
  });

  it('caps entries per habit and day (400 habit_entry_limit) and habits per person (400 habit_limit)', async () => {
    const { client, id } = await signUp(app.url);
    await setTimezone(client, 'UTC');
    const habit = await createHabit(client, { kind: 'COUNT' });
    const entry = await logEntry(client, habit.id);
    await copyRow(app, 'habit_entries', entry.id, HABIT_ENTRIES_PER_DAY_MAX - 2);
    await logEntry(client, habit.id);
    const refused = await client.post(`/api/v1/habits/${habit.id}/entries`, {});
    expectRule(refused, 'habit_entry_limit');
    expect(refused.body.error.message).toMatch(/at most 50 entries a day/);
    // Another day is not counted against this one.
    expect((await logEntry(client, habit.id, { date: '2031-01-01' })).date).toBe('2031-01-01');

    await copyRow(app, 'habits', habit.id, HABITS_MAX - 2);
    const answers = await Promise.all([1, 2].map((n) => client.post('/api/v1/habits', { name: `Race ${n}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    const capped = answers.find((r) => r.status === 400)!;
    expectRule(capped, 'habit_limit');
    expect(capped.body.error.message).toBe('A person can have at most 100 habits');
    expect((await sql(app.databaseUrl, 'select count(*)::int as n from habits where user_id = $1', [id]))[0]!.n).toBe(HABITS_MAX);
  });
});

describe('the day and week reads', () => {
  it('show the active habits with their state: GraphQL Day.habits and Week.habits, REST GET /days/:dayId beside the checklist', async () => {
    const { client } = await signUp(app.url);
    await setTimezone(client, 'UTC');
    const monday = '2031-05-05';
    const dayIds: string[] = [];
    for (let i = 0; i < 7; i++) dayIds.push(await dayIdOn(client, addDays(monday, i)));
    const floss = await createHabit(client, { name: 'Floss', startDate: '2031-05-01' });
    const gym = await createHabit(client, { name: 'Gym', schedule: 'TIMES_PER_WEEK', timesPerPeriod: 2, startDate: '2031-05-01' });
    const archived = await createHabit(client, { name: 'Old', startDate: '2031-05-01' });
    await client.post(`/api/v1/habits/${archived.id}/archive`, {});
    await logEntry(client, floss.id, { dayId: dayIds[0] });
    await logEntry(client, gym.id, { dayId: dayIds[0] });
    await logEntry(client, gym.id, { dayId: dayIds[2] });
    await client.post(`/api/v1/habits/${floss.id}/days/${dayIds[1]}/mark`, { mark: 'SKIP' });

    const rest = await client.get(`/api/v1/days/${dayIds[0]}`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.data.checklist).toHaveLength(10);
    expect(rest.body.data.habits.map((h: any) => [h.habit.name, h.state, h.value])).toEqual([['Floss', 'DONE', 1], ['Gym', 'DONE', 1]]);

    const gql = await client.graphql(
      'query($s: LocalDate!) { week(startDate: $s) { habits { habit { name } done days { state periodDone periodRequired } } days { date habits { habit { name } state mark } } } }',
      { s: monday },
    );
    expect(gql.body.errors).toBeUndefined();
    const [flossWeek, gymWeek] = gql.body.data.week.habits;
    expect(flossWeek.habit.name).toBe('Floss');
    // 2031 is in the future: the days after Monday are still open.
    expect(flossWeek.days.map((d: any) => d.state)).toEqual(['DONE', 'SKIPPED', 'PENDING', 'PENDING', 'PENDING', 'PENDING', 'PENDING']);
    expect(gymWeek).toMatchObject({ done: 2 });
    expect(gymWeek.days.map((d: any) => d.state)).toEqual(['DONE', 'NOT_DUE', 'DONE', 'NOT_DUE', 'NOT_DUE', 'NOT_DUE', 'NOT_DUE']);
    expect(gymWeek.days[0]).toMatchObject({ periodDone: 2, periodRequired: 2 });
    expect(gql.body.data.week.days[1].habits.map((h: any) => [h.habit.name, h.state, h.mark])).toEqual([['Floss', 'SKIPPED', 'SKIP'], ['Gym', 'NOT_DUE', null]]);

    // The REST week answers the spec's shape: no habits there (GET /habits/week/:startDate has them).
    const week = await client.get(`/api/v1/weeks/${monday}`);
    expect(week.body.data.days[0]).not.toHaveProperty('habits');
    expect(week.body.data).not.toHaveProperty('habits');
    const restWeek = await client.get(`/api/v1/habits/week/${monday}`);
    expect(restWeek.body.data.map((h: any) => h.habit.name)).toEqual(['Floss', 'Gym']);
    expect(restWeek.body.meta).toEqual({ page: 1, limit: 50, total: 2 });
    const onDay = await client.get(`/api/v1/habits/day/${dayIds[0]}?limit=1&page=2`);
    expect(onDay.body.data.map((h: any) => h.habit.name)).toEqual(['Gym']);
    expect(onDay.body.meta).toEqual({ page: 2, limit: 1, total: 2 });

    // Clearing the mark.
    const cleared = await client.post(`/api/v1/habits/${floss.id}/days/${dayIds[1]}/mark`, { mark: null });
    expect(cleared.body.data).toMatchObject({ state: 'PENDING', mark: null });
  });
});
