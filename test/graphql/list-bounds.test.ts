import 'reflect-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpClient, type HttpResult } from '../support/http-client.js';
import { sql } from '../support/db.js';
import { weekDayIds } from '../support/fixtures.js';
import { buildAppSchema } from '../../src/app/schema.js';
import { isPageItems, isPaged, listBound, listFields } from '../../src/graphql/list-bounds.js';
import { MAX_ANSWER_BYTES, MAX_ANSWER_ITEMS } from '../../src/graphql/answer-size.js';
import { OPERATION_LIMITS } from '../../src/graphql/operation-limits.js';
import { DAY_TASKS_MAX } from '../../src/tasks/task.types.js';
import { DAY_ENTRIES_MAX, DAY_TRAINING_SESSIONS_MAX } from '../../src/planning/day-record.entity.js';
import { COLUMN_TASKS_MAX } from '../../src/projects/projects.types.js';
import { LIST_ITEMS_MAX } from '../../src/nutrition/nutrition.types.js';
import { MAX_DATABASES } from '../../src/brain/databases/properties.js';
import { MAX_FORMS } from '../../src/brain/forms/form-config.js';
import { HABITS_MAX } from '../../src/habits/habit-limits.js';
import { keyHolder } from '../../src/public-api/public-api.test-helpers.js';
import { PERSON_HAPPENINGS_SHOWN } from '../../src/social/social.types.js';
import { MAX_AGENDA_ENTRIES } from '../../src/agenda/agenda.service.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const db = <T extends Record<string, any> = Record<string, any>>(text: string, params: unknown[] = []) => sql<T>(app.databaseUrl, text, params);

/** Copies the row `id` of `table` `times` times (new ids, `overrides` as SQL expressions): a parent filled in one statement. */
async function copyRow(table: string, id: string, times: number, overrides: Record<string, string> = {}): Promise<void> {
  const columns = (await db(`select column_name from information_schema.columns where table_name = $1 and is_generated = 'NEVER' and column_name <> 'id'`, [table])).map((c) => String(c.column_name));
  const values = columns.map((c) => overrides[c] ?? `t."${c}"`);
  await db(`insert into "${table}" (id, ${columns.map((c) => `"${c}"`).join(', ')}) select gen_random_uuid(), ${values.join(', ')} from "${table}" as t, generate_series(1, $2) where t.id = $1`, [id, times]);
}

const count = async (table: string, column: string, parent: string) => Number((await db(`select count(*)::int as n from "${table}" where "${column}" = $1`, [parent]))[0]!.n);

function expectCapRefusal(res: HttpResult, rule: string, message: RegExp) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.ok).toBe(false);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.rule).toBe(rule);
  expect(res.body.error.message).toMatch(message);
}

function created(res: HttpResult): any {
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('every list has a known bound', () => {
  it('gives each list field of the schema a page size or a declared bound, so a new unbounded list fails here', async () => {
    const schema = await buildAppSchema();
    const unbounded = listFields(schema)
      .filter(({ field, parentFields }) => !isPaged(field) && !isPageItems(field, parentFields) && listBound(field) === undefined)
      .map(({ key }) => key);
    expect(unbounded).toEqual([]);
    // The walk sees the lists it must: a paged one, a page's items, and the Day lists with their caps.
    const byKey = new Map(listFields(schema).map((entry) => [entry.key, entry.field]));
    expect(isPaged(schema.getQueryType()!.getFields().trainingSessions!)).toBe(true);
    expect(byKey.has('TrainingSessionPage.items')).toBe(true);
    expect(listBound(byKey.get('Day.tasks')!)).toBe(DAY_TASKS_MAX);
    expect(listBound(byKey.get('Day.waterIntakes')!)).toBe(DAY_ENTRIES_MAX);
    expect(listBound(byKey.get('BoardColumn.tasks')!)).toBe(COLUMN_TASKS_MAX);
  });

  it('keeps the database caps equal to the documented constants', async () => {
    const rows = await db(
      `select c.relname as "table", encode(t.tgargs, 'escape') as args from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like '%\\_cap\\_insert'`,
    );
    const caps = Object.fromEntries(rows.map((r) => [r.table, Number(String(r.args).split('\\000')[1])]));
    expect(caps).toEqual({
      tasks: DAY_TASKS_MAX,
      ...Object.fromEntries(
        ['body_measurements', 'mobility_sessions', 'cardio_sessions', 'water_intakes', 'steps_entries', 'meditation_sessions', 'mood_entries', 'sleep_entries', 'journal_entries', 'reading_sessions', 'social_happenings'].map(
          (table) => [table, DAY_ENTRIES_MAX],
        ),
      ),
      training_sessions: DAY_TRAINING_SESSIONS_MAX,
      project_tasks: COLUMN_TASKS_MAX,
      grocery_items: LIST_ITEMS_MAX,
      brain_database: MAX_DATABASES,
      brain_form: MAX_FORMS,
      habits: HABITS_MAX,
    });
  });
});

describe('caps on what a parent holds (400 in the documented envelope)', () => {
  let client: HttpClient;
  let days: string[];
  beforeAll(async () => {
    ({ client } = await signUp(app.url));
    days = await weekDayIds(client, '2026-11-23');
  });

  it('refuses the task past the day cap, for exactly one of two concurrent creates, and a move onto a full day', async () => {
    const first = created(await client.post('/api/v1/tasks', { title: 'First', timebox: 30, dayId: days[0] }));
    await copyRow('tasks', first.id, DAY_TASKS_MAX - 2);
    const answers = await Promise.all([1, 2].map((n) => client.post('/api/v1/tasks', { title: `Race ${n}`, timebox: 30, dayId: days[0] })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    expectCapRefusal(answers.find((r) => r.status === 400)!, 'day_task_limit', /A day can hold at most 200 tasks/);
    expect(answers.find((r) => r.status === 400)!.body.error.details.errors[0].path).toEqual(['dayId']);
    expect(await count('tasks', 'day_id', days[0]!)).toBe(DAY_TASKS_MAX);

    const other = created(await client.post('/api/v1/tasks', { title: 'Elsewhere', timebox: 30, dayId: days[1] }));
    expectCapRefusal(await client.patch(`/api/v1/tasks/${other.id}`, { dayId: days[0] }), 'day_task_limit', /200 tasks/);
    expect((await client.get(`/api/v1/tasks/${other.id}`)).body.data.dayId).toBe(days[1]);
    // A task without a day (the backlog) is not counted against any day.
    created(await client.post('/api/v1/tasks', { title: 'Someday', timebox: 30 }));
  });

  it('refuses the log entry past the day cap on GraphQL and on the Public API alike', async () => {
    const { client: owner, api } = await keyHolder(app);
    const today = (await owner.get('/api/v1/days/today')).body.data.id;
    expect((await api.post('/water', { volume: 250 })).status).toBe(200);
    const [intake] = await db('select id from water_intakes where day_id = $1', [today]);
    await copyRow('water_intakes', intake!.id, DAY_ENTRIES_MAX - 1);
    expectCapRefusal(await api.post('/water', { volume: 250 }), 'day_entry_limit', /A day can hold at most 100 water intakes/);
    const gql = await owner.graphql('mutation ($d: UUID!) { logWater(dayId: $d, volume: 250) { id } }', { d: today });
    expect(gql.status, gql.text).toBe(200);
    expect(gql.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: { rule: 'day_entry_limit' } });
    expect(await count('water_intakes', 'day_id', today)).toBe(DAY_ENTRIES_MAX);
  });

  it('refuses the eleventh training session of a day', async () => {
    const first = created(await client.post('/api/v1/training/sessions', { dayId: days[2], split: 'Push' }));
    await copyRow('training_sessions', first.id, DAY_TRAINING_SESSIONS_MAX - 1);
    expectCapRefusal(await client.post('/api/v1/training/sessions', { dayId: days[2], split: 'Pull' }), 'day_entry_limit', /at most 10 training sessions/);
  });

  it('refuses the card past the column cap, on create and on a move', async () => {
    const project = created(await client.post('/api/v1/projects', { title: 'Launch' }));
    const board = (await client.get(`/api/v1/projects/${project.id}/board`)).body.data;
    const [todo, , done] = board.columns.map((c: any) => c.id);
    const card = created(await client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Card' }));
    expect(card.columnId).toBe(todo);
    await copyRow('project_tasks', card.id, COLUMN_TASKS_MAX - 1, { position: 't.position + generate_series' });
    expectCapRefusal(await client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'One more' }), 'column_task_limit', /at most 500 tasks/);

    await db(`update project_tasks set column_id = $1 where column_id = $2 and id <> $3`, [done, todo, card.id]);
    await copyRow('project_tasks', card.id, 1, { column_id: `'${done}'::uuid` });
    expect(await count('project_tasks', 'column_id', done)).toBe(COLUMN_TASKS_MAX);
    expectCapRefusal(await client.post(`/api/v1/projects/${project.id}/tasks/${card.id}/move`, { columnId: done, order: 0 }), 'column_task_limit', /500 tasks/);
    expect(await count('project_tasks', 'column_id', todo)).toBe(1);
  });

  it('refuses the Brain database and the Brain form past the per-user caps', async () => {
    const { client: brain, id: userId } = await signUp(app.url);
    const database = created(await brain.post('/api/v1/brain/databases', { name: 'Books' }));
    const form = created(await brain.post('/api/v1/brain/forms', { name: 'Signup', databaseId: database.id, config: { fields: [{ key: 'name', label: 'Name', type: 'text' }] } }));
    await copyRow('brain_database', database.id, MAX_DATABASES - 1);
    expectCapRefusal(await brain.post('/api/v1/brain/databases', { name: 'One more' }), 'brain_database_limit', /at most 200 Brain databases/);
    await copyRow('brain_form', form.id, MAX_FORMS - 1, { public_slug: 'null' });
    expectCapRefusal(await brain.post('/api/v1/brain/forms', { name: 'One more', databaseId: database.id }), 'brain_form_limit', /at most 200 Brain forms/);
    expect(await count('brain_form', 'user_id', userId)).toBe(MAX_FORMS);
  });

  it('refuses the grocery item past the list cap', async () => {
    const week = (await client.get('/api/v1/weeks/2026-11-23')).body.data;
    const list = created(await client.post('/api/v1/grocery/generate', { weekId: week.id }));
    const item = created(await client.post(`/api/v1/grocery/${list.id}/items`, { name: 'Milk' }));
    await copyRow('grocery_items', item.id, LIST_ITEMS_MAX - 1, { name: `t.name || generate_series` });
    expectCapRefusal(await client.post(`/api/v1/grocery/${list.id}/items`, { name: 'Bread' }), 'grocery_item_limit', /at most 500 items/);
  });
});

describe('lists cut by the read', () => {
  it(`answers the ${PERSON_HAPPENINGS_SHOWN} most recent happenings of a person, whatever their history`, async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDayIds(client, '2026-11-23');
    const ada = created(await client.post('/api/v1/people', { name: 'Ada' }));
    const latest = created(
      await client.post('/api/v1/social-happenings', { dayId: day, title: 'Dinner', startTime: '2026-11-23T18:00:00.000Z', endTime: '2026-11-23T20:00:00.000Z', guestIds: [ada.id] }),
    );
    // Older ones, copied onto the same day row past its cap (the trigger is off for the copy): a long history in one statement.
    await db(`alter table social_happenings disable trigger social_happenings_cap_insert`);
    await copyRow('social_happenings', latest.id, PERSON_HAPPENINGS_SHOWN + 5, { start_time: `t.start_time - make_interval(days => generate_series)`, end_time: `t.end_time - make_interval(days => generate_series)` });
    await db(`alter table social_happenings enable trigger social_happenings_cap_insert`);
    const res = await client.graphql('query ($p: UUID!) { person(personId: $p) { happenings { id startTime } } }', { p: ada.id });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const happenings = res.body.data.person.happenings;
    expect(happenings).toHaveLength(PERSON_HAPPENINGS_SHOWN);
    expect(happenings[0].id).toBe(latest.id);
    expect(happenings.map((h: any) => h.startTime)).toEqual([...happenings.map((h: any) => h.startTime)].sort().reverse());
  });

  it(`refuses an agenda range holding more than ${MAX_AGENDA_ENTRIES} entries (400 naming end), and answers a shorter one`, async () => {
    const { client } = await signUp(app.url);
    const account = created(await client.post('/api/v1/accounts', { name: 'Cash', type: 'cash', balance: 0, currency: 'EUR' }));
    const spent = created(await client.post('/api/v1/transactions', { accountId: account.id, amount: -5, description: 'Coffee', date: '2026-06-01' }));
    await copyRow('finance_transactions', spent.id, MAX_AGENDA_ENTRIES);
    const refused = await client.get('/api/v1/agenda/range?start=2026-05-01&end=2026-07-01&showAllTransactions=true');
    expect(refused.status, refused.text.slice(0, 300)).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/more than 5000 entries/) });
    expect(refused.body.error.details.errors[0].path).toEqual(['end']);
    const shorter = await client.get('/api/v1/agenda/range?start=2026-06-02&end=2026-07-01&showAllTransactions=true');
    expect(shorter.status, shorter.text.slice(0, 300)).toBe(200);
    expect(shorter.body.data).toEqual([]);
  });
});

describe('the cost estimate counts each list at its bound', () => {
  it('refuses aliased day reads down to the sets of every session, which the estimate of 10 per list let through', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDayIds(client, '2026-11-23');
    const sets = 'id setNumber reps load rir restTime rpe tempo tut rom pauseDuration velocity notes e1rm percent1rm';
    const read = (n: number) => `query ($d: UUID!) { ${Array.from({ length: n }, (_, i) => `a${i}: day(dayId: $d) { trainingSessions { exercises { sets { ${sets} } } } }`).join(' ')} }`;
    const refused = await client.graphql(read(15), { d: day });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors![0].message).toMatch(new RegExp(`Cost limit of ${OPERATION_LIMITS.maxCost} exceeded`));
    expect((await client.graphql(read(1), { d: day })).status).toBe(200);
  });
});

describe('the answer-size ceiling', () => {
  it(`refuses an operation resolving more than ${MAX_ANSWER_ITEMS} list items, and answers one within`, async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDayIds(client, '2026-11-23');
    const exerciseId = (await client.get('/api/v1/exercises?limit=1')).body.data[0].id;
    const exercises = Array.from({ length: 50 }, () => ({ exerciseId, sets: Array.from({ length: 50 }, () => ({ reps: 5, load: 100 })) }));
    const session = created(await client.post('/api/v1/training/sessions', { dayId: day, split: 'Full', exercises }));
    // Nine copies of the session with its exercises and sets: the fullest day the caps allow (25,000 sets).
    const columns = async (table: string) =>
      (await db(`select column_name from information_schema.columns where table_name = $1 and is_generated = 'NEVER' and column_name <> 'id'`, [table])).map((c) => `"${c.column_name}"`);
    const exerciseColumns = (await columns('training_exercises')).filter((c) => c !== '"session_id"');
    const setColumns = (await columns('training_sets')).filter((c) => c !== '"training_exercise_id"');
    const sessionColumns = await columns('training_sessions');
    await db(`do $$
      declare s uuid; e record; ne uuid;
      begin
        for i in 1..9 loop
          insert into training_sessions (id, ${sessionColumns.join(', ')}) select gen_random_uuid(), ${sessionColumns.join(', ')} from training_sessions where id = '${session.id}' returning id into s;
          for e in select * from training_exercises where session_id = '${session.id}' loop
            insert into training_exercises (id, session_id, ${exerciseColumns.join(', ')}) select gen_random_uuid(), s, ${exerciseColumns.join(', ')} from training_exercises where id = e.id returning id into ne;
            insert into training_sets (id, training_exercise_id, ${setColumns.join(', ')}) select gen_random_uuid(), ne, ${setColumns.join(', ')} from training_sets where training_exercise_id = e.id;
          end loop;
        end loop;
      end $$`);
    const read = (n: number) => `query ($d: UUID!) { ${Array.from({ length: n }, (_, i) => `a${i}: day(dayId: $d) { trainingSessions { exercises { sets { id } } } }`).join(' ')} }`;
    const one = await client.graphql(read(1), { d: day });
    expect(one.status, one.text.slice(0, 300)).toBe(200);
    expect(one.body.data.a0.trainingSessions.flatMap((s: any) => s.exercises.flatMap((e: any) => e.sets))).toHaveLength(25_000);
    const two = await client.graphql(read(2), { d: day });
    expect(two.status, two.text.slice(0, 300)).toBe(400);
    expect(two.body.data).toBeUndefined();
    expect(two.body.errors).toHaveLength(1);
    expect(two.body.errors![0]).toMatchObject({ message: expect.stringMatching(/Answer size limit of 50000 list items exceeded/), extensions: { code: 'VALIDATION_ERROR' } });
    // The day route answers that fullest day whole (about 8 MB), within both ceilings.
    const rest = await client.get(`/api/v1/days/${day}`);
    expect(rest.status).toBe(200);
  });

  it(`refuses an answer over ${MAX_ANSWER_BYTES / 1024 / 1024} MB (on GraphQL and on REST), and answers a smaller page`, async () => {
    const { client } = await signUp(app.url);
    const note = created(await client.post('/api/v1/brain/notes', { title: 'Long', content: 'x'.repeat(450_000) }));
    await copyRow('brain_note', note.id, 39);
    const page = (limit: number) => client.graphql(`{ brainNotes(limit: ${limit}) { items { id content } } }`);
    const refused = await page(100);
    expect(refused.status, refused.text.slice(0, 300)).toBe(400);
    expect(refused.text.length).toBeLessThan(1000);
    expect(refused.body.errors![0].message).toMatch(/Answer size limit of 16 MB exceeded/);
    const rest = await client.get('/api/v1/brain/notes?limit=100');
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/Answer size limit/) });
    const small = await page(10);
    expect(small.status).toBe(200);
    expect(small.body.data.brainNotes.items).toHaveLength(10);
  });
});
