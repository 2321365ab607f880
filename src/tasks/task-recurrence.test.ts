import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, expectRule, expectValidation, outboxEvents } from '../../test/support/expectations.js';
import { addDays } from '../core/dates.js';
import { MISSING_ID, createCategory } from './tasks.test-helpers.js';

/**
 * Recurring tasks through HTTP: a task with an RRULE is the first of a series whose occurrences are real
 * tasks on their days, made in the weeks that exist (8 weeks ahead), when a week is generated, and when
 * one is completed or deferred; "this" and "this and following" edits and deletes work as calendar
 * apps do.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
});
afterAll(async () => {
  await app?.close();
});

/** Monday of week `n` from Monday 2031-01-06. */
const W = (n: number) => addDays('2031-01-06', 7 * n);
const TU = (n: number) => addDays(W(n), 1);
const WE = (n: number) => addDays(W(n), 2);
const TH = (n: number) => addDays(W(n), 3);
const FR = (n: number) => addDays(W(n), 4);

async function generate(client: HttpClient, monday: string): Promise<any> {
  const res = await client.post('/api/v1/weeks/generate', { startDate: monday });
  expect([200, 201], res.text).toContain(res.status);
  return res.body.data;
}

const dayOn = (week: any, date: string): string => week.days.find((d: any) => d.date === date).id;

async function create(client: HttpClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/api/v1/tasks', { title: 'Gym', timebox: 60, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function getTask(client: HttpClient, id: string): Promise<any> {
  const res = await client.get(`/api/v1/tasks/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The tasks of a series, by date. */
async function seriesOf(client: HttpClient, seriesId: string): Promise<any[]> {
  const res = await client.get(`/api/v1/tasks?seriesId=${seriesId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.sort((a: any, b: any) => a.occurrenceDate.localeCompare(b.occurrenceDate));
}

const datesOf = (tasks: any[]) => tasks.map((t) => t.occurrenceDate);

async function patch(client: HttpClient, id: string, body: Record<string, unknown>): Promise<any> {
  const res = await client.patch(`/api/v1/tasks/${id}`, body);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function remove(client: HttpClient, id: string, applyTo?: string): Promise<void> {
  const res = await client.delete(`/api/v1/tasks/${id}`, applyTo ? { body: { applyTo } } : {});
  expect(res.status, res.text).toBe(200);
}

describe('a weekly series', () => {
  let client: HttpClient;
  let userId: string;
  let first: any;
  let category: any;
  let weeks: any[];

  beforeAll(async () => {
    ({ client, id: userId } = await signUp(app.url));
    category = await createCategory(client, { name: 'Training', color: '#336699' });
    weeks = [await generate(client, W(0)), await generate(client, W(1))];
    first = await create(client, {
      title: 'Gym',
      description: 'Legs and back',
      timebox: 75,
      categoryId: category.id,
      dayId: dayOn(weeks[0], TU(0)),
      startTime: '07:30',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH',
    });
  });

  it('starts on its day: the task is the first occurrence (seriesId its own id, occurrenceDate its date)', () => {
    expect(first).toMatchObject({
      title: 'Gym',
      status: 'todo',
      recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH',
      seriesId: first.id,
      occurrenceDate: TU(0),
      recurrenceExceptions: [],
      startTime: '07:30',
      dayId: dayOn(weeks[0], TU(0)),
    });
  });

  it('has its occurrences in the weeks that exist, as real tasks copying the first one', async () => {
    const tasks = await seriesOf(client, first.id);
    expect(datesOf(tasks)).toEqual([TU(0), TH(0), TU(1), TH(1)]);
    for (const task of tasks.slice(1)) {
      expect(task).toMatchObject({
        title: 'Gym',
        description: 'Legs and back',
        timebox: 75,
        categoryId: category.id,
        startTime: '07:30',
        status: 'todo',
        recurrence: null,
        seriesId: first.id,
        recurrenceExceptions: [],
        completedAt: null,
      });
      expect(task.id).not.toBe(first.id);
      const week = weeks.find((w) => w.days.some((d: any) => d.date === task.occurrenceDate));
      expect(task.dayId).toBe(dayOn(week, task.occurrenceDate));
    }
  });

  it('gets its occurrences on their days when the next week is generated', async () => {
    const week = await generate(client, W(2));
    const read = await client.get(`/api/v1/weeks/${W(2)}`);
    const onDays = read.body.data.days.map((d: any) => [d.date, d.tasks.map((t: any) => [t.title, t.occurrenceDate, t.seriesId])]);
    expect(onDays.filter(([, tasks]: any) => tasks.length)).toEqual([
      [TU(2), [['Gym', TU(2), first.id]]],
      [TH(2), [['Gym', TH(2), first.id]]],
    ]);
    expect(read.body.data.days.find((d: any) => d.date === TU(2)).tasks[0].category).toMatchObject({ id: category.id });
    expect(week.days).toHaveLength(7);
  });

  it('generating the same week again, or a new one concurrently, never makes an occurrence twice', async () => {
    const again = await client.post('/api/v1/weeks/generate', { startDate: W(2) });
    expect(again.status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 6 }, () => client.post('/api/v1/weeks/generate', { startDate: W(3) })));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(datesOf(await seriesOf(client, first.id))).toEqual([TU(0), TH(0), TU(1), TH(1), TU(2), TH(2), TU(3), TH(3)]);
  });

  it('records task_created for the first task and for each occurrence made, once', async () => {
    const created = await outboxEvents(app, userId, 'task_created');
    const ids = (await seriesOf(client, first.id)).map((t) => t.id).sort();
    expect(created.map((e) => e.data.taskId).sort()).toEqual(ids);
    const one = created.find((e) => e.data.taskId !== first.id)!;
    expect(Object.keys(one.data).sort()).toEqual(['createdAt', 'taskId', 'title']);
    expect(one.data.title).toBe('Gym');
  });
});

describe('how far ahead, and the next occurrence', () => {
  let client: HttpClient;

  beforeAll(async () => {
    ({ client } = await signUp(app.url));
  });

  it('a new series fills the weeks that exist up to 8 weeks ahead; completing the last makes the next, with its week', async () => {
    const weeks: any[] = [];
    for (let n = 10; n < 20; n++) weeks.push(await generate(client, W(n)));
    const first = await create(client, { title: 'Review', dayId: dayOn(weeks[0], W(10)), recurrence: 'FREQ=WEEKLY' });
    const tasks = await seriesOf(client, first.id);
    expect(datesOf(tasks)).toEqual([10, 11, 12, 13, 14, 15, 16, 17].map(W));
    // Weeks 18 and 19 exist but are past the 8 weeks: completing week 17's occurrence makes week 18's.
    await patch(client, tasks.at(-1).id, { status: 'done' });
    expect(datesOf(await seriesOf(client, first.id)).at(-1)).toBe(W(18));
  });

  it('completing or deferring an occurrence makes the next one exist, generating its week', async () => {
    const week = await generate(client, W(30));
    const first = await create(client, { title: 'Plan the week', dayId: dayOn(week, W(30)), recurrence: 'FREQ=WEEKLY;BYDAY=MO' });
    expect(datesOf(await seriesOf(client, first.id))).toEqual([W(30)]);
    expect((await client.get(`/api/v1/weeks/${W(31)}`)).status).toBe(404);

    const done = await patch(client, first.id, { status: 'done' });
    expect(done).toMatchObject({ status: 'done', seriesId: first.id, recurrence: 'FREQ=WEEKLY;BYDAY=MO' });
    const afterDone = await seriesOf(client, first.id);
    expect(datesOf(afterDone)).toEqual([W(30), W(31)]);
    const week31 = await client.get(`/api/v1/weeks/${W(31)}`);
    expect(week31.status).toBe(200);
    // The week was generated: this user's other weekly series (Review, above) got its Monday there too.
    expect(week31.body.data.days[0].tasks.map((t: any) => [t.title, t.id === afterDone[1].id])).toEqual([
      ['Plan the week', true],
      ['Review', false],
    ]);

    await patch(client, afterDone[1].id, { status: 'deferred', nextStep: 'Block an hour on Monday' });
    expect(datesOf(await seriesOf(client, first.id))).toEqual([W(30), W(31), W(32)]);
    // Done again, reopened and done: still one occurrence a date.
    await patch(client, first.id, { status: 'todo' });
    await patch(client, first.id, { status: 'done' });
    expect(datesOf(await seriesOf(client, first.id))).toEqual([W(30), W(31), W(32)]);
  });

  it('completing an occurrence while its next week is generated concurrently makes the next one once', async () => {
    const week = await generate(client, W(140));
    const head = await create(client, { title: 'Inbox zero', dayId: dayOn(week, W(140)), recurrence: 'FREQ=WEEKLY;BYDAY=MO,FR' });
    const friday = (await seriesOf(client, head.id))[1];
    const results = await Promise.all([
      client.patch(`/api/v1/tasks/${friday.id}`, { status: 'done' }),
      ...Array.from({ length: 4 }, () => client.post('/api/v1/weeks/generate', { startDate: W(141) })),
    ]);
    expect(results[0]!.status, results[0]!.text).toBe(200);
    // The week is made once: by one of the generations, or by the completion (then every generation answers 200).
    for (const res of results.slice(1)) expect([200, 201], res.text).toContain(res.status);
    expect(results.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
    expect(datesOf(await seriesOf(client, head.id))).toEqual([W(140), FR(140), W(141), FR(141)]);
  });

  it('a series that has ended makes nothing more (COUNT)', async () => {
    const week = await generate(client, W(40));
    const first = await create(client, { title: 'Course', dayId: dayOn(week, W(40)), recurrence: 'FREQ=WEEKLY;COUNT=2' });
    await patch(client, first.id, { status: 'done' });
    const tasks = await seriesOf(client, first.id);
    expect(datesOf(tasks)).toEqual([W(40), W(41)]);
    await patch(client, tasks[1].id, { status: 'done' });
    expect(datesOf(await seriesOf(client, first.id))).toEqual([W(40), W(41)]);
    expect((await client.get(`/api/v1/weeks/${W(42)}`)).status).toBe(404);
  });
});

describe('"this" edits and deletes', () => {
  let client: HttpClient;
  let week: any;
  let first: any;

  beforeAll(async () => {
    ({ client } = await signUp(app.url));
    week = await generate(client, W(50));
    first = await create(client, { title: 'Stretch', timebox: 15, dayId: dayOn(week, W(50)), recurrence: 'FREQ=DAILY' });
  });

  it('an edit of one occurrence changes that one only (moved to another day, it keeps its date in the series)', async () => {
    const tasks = await seriesOf(client, first.id);
    expect(tasks).toHaveLength(7);
    const wednesday = tasks[2];
    const saturday = dayOn(week, addDays(W(50), 5));
    const changed = await patch(client, wednesday.id, { title: 'Stretch long', timebox: 40, dayId: saturday, startTime: '18:00' });
    expect(changed).toMatchObject({ title: 'Stretch long', timebox: 40, dayId: saturday, occurrenceDate: WE(50), seriesId: first.id, startTime: '18:00' });
    const after = await seriesOf(client, first.id);
    expect(after.map((t) => t.title)).toEqual(['Stretch', 'Stretch', 'Stretch long', 'Stretch', 'Stretch', 'Stretch', 'Stretch']);
    expect(await getTask(client, first.id)).toMatchObject({ title: 'Stretch', timebox: 15, startTime: null, recurrenceExceptions: [] });
  });

  it('a delete of one occurrence makes its date an exception of the series, never made again', async () => {
    const thursday = (await seriesOf(client, first.id))[3];
    await remove(client, thursday.id);
    expect((await getTask(client, first.id)).recurrenceExceptions).toEqual([TH(50)]);
    expect(datesOf(await seriesOf(client, first.id))).not.toContain(TH(50));
    // Completing the day before: the next date is Friday (Thursday is an exception), which exists.
    const wednesday = (await seriesOf(client, first.id))[2];
    await patch(client, wednesday.id, { status: 'done' });
    expect(datesOf(await seriesOf(client, first.id))).toEqual([0, 1, 2, 4, 5, 6].map((i) => addDays(W(50), i)));
  });

  it('a week generated again makes the missing dates of the series but not its exceptions', async () => {
    // The week and Friday's occurrence removed behind the service's back (as a restore of old data
    // would), then the week generated again through the API.
    const friday = (await seriesOf(client, first.id)).find((t) => t.occurrenceDate === FR(50));
    const connection = app.server.orm.em.getConnection();
    await connection.execute('delete from tasks where id = ?', [friday.id]);
    await connection.execute('delete from weeks where id = ?', [week.id]);
    const again = await generate(client, W(50));
    const tasks = await seriesOf(client, first.id);
    expect(datesOf(tasks)).toEqual([0, 1, 2, 4, 5, 6].map((i) => addDays(W(50), i)));
    const remade = tasks.find((t) => t.occurrenceDate === FR(50));
    expect(remade.id).not.toBe(friday.id);
    expect(remade.dayId).toBe(dayOn(again, FR(50)));
    const read = await client.get(`/api/v1/weeks/${W(50)}`);
    expect(read.body.data.days.find((d: any) => d.date === TH(50)).tasks).toEqual([]);
  });

  it('a "this and following" edit keeps the exceptions after it: the deleted date is not made again', async () => {
    const tuesday = (await seriesOf(client, first.id))[1];
    const split = await patch(client, tuesday.id, { title: 'Stretch (evening)', applyTo: 'following' });
    expect(split).toMatchObject({ seriesId: tuesday.id, recurrenceExceptions: [TH(50)], recurrence: 'FREQ=DAILY' });
    expect((await getTask(client, first.id)).recurrence).toContain(`UNTIL=${W(50).replace(/-/g, '')}`);
    expect((await seriesOf(client, tuesday.id)).map((t) => [t.occurrenceDate, t.title])).toEqual([
      [TU(50), 'Stretch (evening)'],
      // Wednesday was changed alone and is done: it keeps its own title.
      [WE(50), 'Stretch long'],
      [FR(50), 'Stretch (evening)'],
      [addDays(W(50), 5), 'Stretch (evening)'],
      [addDays(W(50), 6), 'Stretch (evening)'],
    ]);
  });

  it('an edit of the first task alone in a field its occurrences copy passes the series on to the next occurrence', async () => {
    const week60 = await generate(client, W(60));
    await generate(client, W(61));
    const head = await create(client, { title: 'Call mum', dayId: dayOn(week60, WE(60)), recurrence: 'FREQ=WEEKLY;BYDAY=WE' });
    const [, next] = await seriesOf(client, head.id);
    const alone = await patch(client, head.id, { title: 'Call mum (from the train)' });
    expect(alone).toMatchObject({ title: 'Call mum (from the train)', seriesId: null, recurrence: null, occurrenceDate: null, dayId: dayOn(week60, WE(60)) });
    const heir = await getTask(client, next.id);
    expect(heir).toMatchObject({ title: 'Call mum', seriesId: next.id, recurrence: 'FREQ=WEEKLY;BYDAY=WE', occurrenceDate: WE(61) });
    await generate(client, W(62));
    const tasks = await seriesOf(client, next.id);
    expect(tasks.map((t) => [t.occurrenceDate, t.title])).toEqual([
      [WE(61), 'Call mum'],
      [WE(62), 'Call mum'],
    ]);
    // A change that only concerns the first task (its status) keeps it the first.
    const again = await patch(client, next.id, { status: 'doing' });
    expect(again).toMatchObject({ seriesId: next.id, recurrence: 'FREQ=WEEKLY;BYDAY=WE' });
  });

  it('deleting the first task alone passes the series on, COUNT lowered by the dates before', async () => {
    const week70 = await generate(client, W(70));
    const head = await create(client, { title: 'Antibiotics', timebox: 5, dayId: dayOn(week70, W(70)), recurrence: 'FREQ=DAILY;COUNT=4' });
    const [, second] = await seriesOf(client, head.id);
    await remove(client, head.id, 'this');
    expectNotFound(await client.get(`/api/v1/tasks/${head.id}`));
    expect(await getTask(client, second.id)).toMatchObject({ seriesId: second.id, recurrence: 'FREQ=DAILY;COUNT=3', occurrenceDate: addDays(W(70), 1) });
    expect(datesOf(await seriesOf(client, second.id))).toEqual([1, 2, 3].map((i) => addDays(W(70), i)));
  });
});

describe('"this and following" edits and deletes', () => {
  let client: HttpClient;
  let first: any;
  /** The series split off in the first test. */
  let heavy: any;

  beforeAll(async () => {
    ({ client } = await signUp(app.url));
    const week = await generate(client, W(80));
    await generate(client, W(81));
    await generate(client, W(82));
    first = await create(client, { title: 'Gym', dayId: dayOn(week, TU(80)), recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH' });
  });

  it('splits the series at the occurrence: the old one ends the day before, the occurrence starts the new one with the change', async () => {
    const tasks = await seriesOf(client, first.id);
    expect(datesOf(tasks)).toEqual([TU(80), TH(80), TU(81), TH(81), TU(82), TH(82)]);
    // Week 82's Tuesday is done already: it keeps its fields but follows the new series.
    await patch(client, tasks[4].id, { status: 'done' });
    const split = await patch(client, tasks[3].id, { title: 'Gym (heavy)', timebox: 90, applyTo: 'following' });
    heavy = split;
    expect(split).toMatchObject({ title: 'Gym (heavy)', timebox: 90, seriesId: tasks[3].id, recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH', occurrenceDate: TH(81) });

    const old = await getTask(client, first.id);
    expect(old.recurrence).toMatch(/^FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=\d{8}T\d{6}Z$/);
    expect(old.recurrence).toContain(`UNTIL=${WE(81).replace(/-/g, '')}`);
    expect((await seriesOf(client, first.id)).map((t) => [t.occurrenceDate, t.title])).toEqual([
      [TU(80), 'Gym'],
      [TH(80), 'Gym'],
      [TU(81), 'Gym'],
    ]);
    expect((await seriesOf(client, split.id)).map((t) => [t.occurrenceDate, t.title, t.timebox, t.status])).toEqual([
      [TH(81), 'Gym (heavy)', 90, 'todo'],
      [TU(82), 'Gym', 60, 'done'],
      [TH(82), 'Gym (heavy)', 90, 'todo'],
    ]);
    // A week generated now gets the new series' dates only.
    await generate(client, W(83));
    expect(datesOf(await seriesOf(client, first.id))).toEqual([TU(80), TH(80), TU(81)]);
    expect((await seriesOf(client, split.id)).slice(-2).map((t) => [t.occurrenceDate, t.title])).toEqual([
      [TU(83), 'Gym (heavy)'],
      [TH(83), 'Gym (heavy)'],
    ]);
  });

  it('a new rule from the first task on replaces the series: later undone occurrences go, the new dates are made', async () => {
    const head = heavy;
    const changed = await patch(client, head.id, { recurrence: 'FREQ=WEEKLY;BYDAY=TH', applyTo: 'following' });
    expect(changed).toMatchObject({ seriesId: head.id, recurrence: 'FREQ=WEEKLY;BYDAY=TH', occurrenceDate: TH(81) });
    expect((await seriesOf(client, head.id)).map((t) => [t.occurrenceDate, t.status])).toEqual([
      [TH(81), 'todo'],
      [TH(82), 'todo'],
      [TH(83), 'todo'],
    ]);
    // The done Tuesday is not a date of the new rule: it stays, outside any series.
    const list = await client.get('/api/v1/tasks?status=done&limit=100');
    expect(list.body.data.map((t: any) => [t.title, t.seriesId, t.occurrenceDate])).toEqual([['Gym', null, null]]);
  });

  it('a new rule needs applyTo following on a task of a series', async () => {
    const [, second] = await seriesOf(client, first.id);
    expectValidation(await client.patch(`/api/v1/tasks/${second.id}`, { recurrence: 'FREQ=DAILY' }), 'recurrence');
    expectValidation(await client.patch(`/api/v1/tasks/${second.id}`, { recurrence: 'FREQ=DAILY', applyTo: 'this' }), 'recurrence');
    expectValidation(await client.patch(`/api/v1/tasks/${second.id}`, { title: 'x', applyTo: 'sometimes' }), 'applyTo');
    expect((await getTask(client, second.id)).title).toBe('Gym');
  });

  it('a delete of this and the following ends the series there: undone later occurrences go, done ones stay alone', async () => {
    const week = await generate(client, W(90));
    const head = await create(client, { title: 'Walk', dayId: dayOn(week, W(90)), recurrence: 'FREQ=DAILY' });
    const tasks = await seriesOf(client, head.id);
    expect(tasks).toHaveLength(7);
    const friday = await patch(client, tasks[4].id, { status: 'done' });
    await remove(client, tasks[2].id, 'following');
    expect(datesOf(await seriesOf(client, head.id))).toEqual([W(90), TU(90)]);
    expect((await getTask(client, head.id)).recurrence).toContain(`UNTIL=${TU(90).replace(/-/g, '')}`);
    expect(await getTask(client, friday.id)).toMatchObject({ status: 'done', seriesId: null, occurrenceDate: null });
    for (const gone of [tasks[2], tasks[3], tasks[5], tasks[6]]) expectNotFound(await client.get(`/api/v1/tasks/${gone.id}`));
    await generate(client, W(91));
    expect(datesOf(await seriesOf(client, head.id))).toEqual([W(90), TU(90)]);

    // From the first task: the whole series goes.
    await remove(client, head.id, 'following');
    expect(await seriesOf(client, head.id)).toEqual([]);
  });

  it('a "following" edit giving the rule the series already has from there keeps the later occurrences', async () => {
    const week = await generate(client, W(95));
    const head = await create(client, { title: 'Pills', timebox: 5, dayId: dayOn(week, W(95)), recurrence: 'FREQ=DAILY;COUNT=5' });
    const tasks = await seriesOf(client, head.id);
    expect(datesOf(tasks)).toEqual([0, 1, 2, 3, 4].map((i) => addDays(W(95), i)));
    const split = await patch(client, tasks[2].id, { recurrence: 'FREQ=DAILY;COUNT=3', applyTo: 'following', timebox: 10 });
    expect(split).toMatchObject({ seriesId: tasks[2].id, recurrence: 'FREQ=DAILY;COUNT=3', timebox: 10 });
    expect((await seriesOf(client, split.id)).map((t) => [t.id, t.timebox])).toEqual([
      [tasks[2].id, 10],
      [tasks[3].id, 10],
      [tasks[4].id, 10],
    ]);
    expect((await seriesOf(client, head.id)).map((t) => t.id)).toEqual([tasks[0].id, tasks[1].id]);
  });

  it('"this and following" moved to another day starts the new series there', async () => {
    const week = await generate(client, W(100));
    await generate(client, W(101));
    const head = await create(client, { title: 'Swim', dayId: dayOn(week, W(100)), recurrence: 'FREQ=WEEKLY;INTERVAL=1' });
    const [, second] = await seriesOf(client, head.id);
    const week101 = await generate(client, W(101));
    // The rule gives Mondays: moved to a Wednesday it needs a rule for Wednesdays too.
    expectValidation(await client.patch(`/api/v1/tasks/${second.id}`, { dayId: dayOn(week101, WE(101)), applyTo: 'following', recurrence: 'FREQ=WEEKLY;BYDAY=MO' }), 'recurrence');
    const moved = await patch(client, second.id, { dayId: dayOn(week101, WE(101)), applyTo: 'following', recurrence: 'FREQ=WEEKLY;BYDAY=WE' });
    expect(moved).toMatchObject({ seriesId: second.id, occurrenceDate: WE(101), recurrence: 'FREQ=WEEKLY;BYDAY=WE' });
    await generate(client, W(102));
    expect(datesOf(await seriesOf(client, second.id))).toEqual([WE(101), WE(102)]);
    expect(datesOf(await seriesOf(client, head.id))).toEqual([W(100)]);
    expectValidation(await client.patch(`/api/v1/tasks/${second.id}`, { dayId: null, applyTo: 'following', title: 'x' }), 'dayId');
  });
});

describe('validation', () => {
  let client: HttpClient;
  let week: any;

  beforeAll(async () => {
    ({ client } = await signUp(app.url));
    week = await generate(client, W(110));
  });

  it('refuses a sub-daily frequency, ending or not, and a COUNT beyond the horizon (400 naming recurrence; issue 34)', async () => {
    for (const recurrence of ['FREQ=HOURLY', 'FREQ=HOURLY;COUNT=30', 'FREQ=SECONDLY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;BYSECOND=0']) {
      const res = await client.post('/api/v1/tasks', { title: 'Drink', timebox: 1, dayId: dayOn(week, W(110)), recurrence });
      expectValidation(res, 'recurrence');
      expect(res.body.error.message).toMatch(/must repeat daily or less often/);
    }
    // 1,000 Mondays of a daily rule: past the horizon of a daily rule (COUNT_HORIZON_PERIODS days).
    const sparse = await client.post('/api/v1/tasks', { title: 'Drink', timebox: 1, dayId: dayOn(week, W(110)), recurrence: 'FREQ=DAILY;COUNT=1000;BYDAY=MO' });
    expectValidation(sparse, 'recurrence');
    expect(sparse.body.error.message).toMatch(/COUNT=1000 is not reached/);
    // A task changed into a series is held to the same rules.
    const single = await create(client, { title: 'Drink', timebox: 1, dayId: dayOn(week, W(110)) });
    expectValidation(await client.patch(`/api/v1/tasks/${single.id}`, { recurrence: 'FREQ=MINUTELY;COUNT=5' }), 'recurrence');
    expect((await client.delete(`/api/v1/tasks/${single.id}`)).status).toBe(200);
  });

  it('refuses what is not a rule, a rule without a day, a day the rule does not give, a bad start time', async () => {
    const monday = dayOn(week, W(110));
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, dayId: monday, recurrence: 'FREQ=FORTNIGHTLY' }), 'recurrence');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, dayId: monday, recurrence: '' }), 'recurrence');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, dayId: monday, recurrence: `FREQ=DAILY;${'A'.repeat(600)}` }), 'recurrence');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, recurrence: 'FREQ=DAILY' }), 'dayId');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, dayId: monday, recurrence: 'FREQ=WEEKLY;BYDAY=TU' }), 'recurrence');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, startTime: '25:00' }), 'startTime');
    expectValidation(await client.post('/api/v1/tasks', { title: 'x', timebox: 5, startTime: '7:30' }), 'startTime');
    expect((await client.get('/api/v1/tasks')).body.data.map((t: any) => t.title)).toEqual([]);
  });

  it('a series leaves out at most 1000 dates (400, rule recurrence_exception_limit)', async () => {
    const head = await create(client, { title: 'Water plants', dayId: dayOn(week, W(110)), recurrence: 'FREQ=DAILY;COUNT=7' });
    const many = Array.from({ length: 1000 }, (_, i) => addDays('2040-01-01', i));
    // 1000 deletions set up at once: the exceptions written behind the service's back.
    await app.server.orm.em.getConnection().execute('update tasks set recurrence_exceptions = ?::text[] where id = ?', [`{${many.join(',')}}`, head.id]);
    const [, second] = await seriesOf(client, head.id);
    expectRule(await client.delete(`/api/v1/tasks/${second.id}`), 'recurrence_exception_limit');
    expect((await getTask(client, second.id)).id).toBe(second.id);
    expect((await getTask(client, head.id)).recurrenceExceptions).toHaveLength(1000);
    // Ending the series there still works.
    await remove(client, second.id, 'following');
    expect(datesOf(await seriesOf(client, head.id))).toEqual([W(110)]);
  });

  it('ignores applyTo on a task outside a series; a rule given later makes it the first of one', async () => {
    const single = await create(client, { title: 'Single', dayId: dayOn(week, W(110)) });
    expect(await patch(client, single.id, { title: 'Still single', applyTo: 'following' })).toMatchObject({ title: 'Still single', seriesId: null });
    const series = await patch(client, single.id, { recurrence: 'FREQ=DAILY;COUNT=3', startTime: '06:45' });
    expect(series).toMatchObject({ seriesId: single.id, recurrence: 'FREQ=DAILY;COUNT=3', occurrenceDate: W(110), startTime: '06:45' });
    expect((await seriesOf(client, single.id)).map((t) => [t.occurrenceDate, t.startTime])).toEqual([
      [W(110), '06:45'],
      [TU(110), '06:45'],
      [WE(110), '06:45'],
    ]);
    const other = await create(client, { title: 'Other' });
    await remove(client, other.id, 'following');
    expectValidation(await client.patch(`/api/v1/tasks/${(await create(client, { title: 'No day' })).id}`, { recurrence: 'FREQ=DAILY' }), 'dayId');
  });
});

describe('REST shape', () => {
  it('a delete takes applyTo in its JSON body (so described), never from the query string', async () => {
    const { client } = await signUp(app.url);
    const doc = parse((await client.get('/api/v1/openapi.yaml')).text);
    const remove = doc.paths['/tasks/{taskId}'].delete;
    // No query parameter: the path's id, the delete's optional If-Match (docs/concurrency.md) and Idempotency-Key (docs/idempotency.md) headers.
    expect(remove.parameters.map((p: any) => [p.name, p.in])).toEqual([['taskId', 'path'], ['If-Match', 'header'], ['Idempotency-Key', 'header']]);
    const body = remove.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['applyTo', 'expectedVersion']);
    expect(body.required ?? []).toEqual([]);
    expect(body.properties.applyTo).toMatchObject({ allOf: [{ $ref: '#/components/schemas/TaskApplyTo' }], default: 'this' });
    expect(doc.components.schemas.TaskApplyTo.enum).toEqual(['this', 'following']);
    const update = doc.paths['/tasks/{taskId}'].patch.requestBody.content['application/json'].schema.properties;
    expect(Object.keys(update)).toEqual(expect.arrayContaining(['applyTo', 'recurrence', 'startTime']));
    const create = doc.paths['/tasks'].post.requestBody.content['application/json'].schema.properties;
    expect(create.recurrence).toMatchObject({ maxLength: 500 });

    const week = await generate(client, W(125));
    const first = await create_(client, week);
    const refused = await client.delete(`/api/v1/tasks/${first.id}?applyTo=following`);
    expectValidation(refused, 'applyTo');
    expect(datesOf(await seriesOf(client, first.id))).toHaveLength(7);
  });
});

async function create_(client: HttpClient, week: any): Promise<any> {
  return create(client, { title: 'Daily', dayId: dayOn(week, week.days[0].date), recurrence: 'FREQ=DAILY' });
}

describe('isolation', () => {
  it("another user's series and occurrences answer 404 like missing ones, and change nothing", async () => {
    const { client: alice } = await signUp(app.url);
    const { client: bob } = await signUp(app.url);
    const week = await generate(alice, W(120));
    const bobWeek = await generate(bob, W(120));
    const first = await create(alice, { title: 'Alice gym', dayId: dayOn(week, TU(120)), recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH' });
    const [, occurrence] = await seriesOf(alice, first.id);

    for (const id of [first.id, occurrence.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/tasks/${id}`));
      expectNotFound(await bob.patch(`/api/v1/tasks/${id}`, { title: 'Mine', applyTo: 'following' }));
      expectNotFound(await bob.patch(`/api/v1/tasks/${id}`, { status: 'done' }));
      expectNotFound(await bob.patch(`/api/v1/tasks/${id}`, { recurrence: 'FREQ=DAILY', applyTo: 'following' }));
      expectNotFound(await bob.delete(`/api/v1/tasks/${id}`, { body: { applyTo: 'following' } }));
      expectNotFound(await bob.delete(`/api/v1/tasks/${id}`));
    }
    expect((await bob.get(`/api/v1/tasks?seriesId=${first.id}`)).body.data).toEqual([]);
    expectNotFound(await bob.post('/api/v1/tasks', { title: 'x', timebox: 5, dayId: dayOn(week, TU(120)), recurrence: 'FREQ=DAILY' }), 'dayId');

    // Bob's new week gets none of Alice's occurrences; Alice's series is untouched.
    await generate(bob, W(121));
    expect((await bob.get('/api/v1/tasks')).body.data).toEqual([]);
    expect(bobWeek.days.every((d: any) => d.tasks.length === 0)).toBe(true);
    const tasks = await seriesOf(alice, first.id);
    expect(tasks.map((t) => [t.occurrenceDate, t.title, t.status])).toEqual([
      [TU(120), 'Alice gym', 'todo'],
      [TH(120), 'Alice gym', 'todo'],
    ]);
    expect((await getTask(alice, first.id)).recurrence).toBe('FREQ=WEEKLY;BYDAY=TU,TH');
  });
});

describe('GraphQL', () => {
  it('takes applyTo as the TaskApplyTo enum on updateTask and deleteTask', async () => {
    const { client } = await signUp(app.url);
    const week = await generate(client, W(130));
    const first = await create(client, { title: 'Read', dayId: dayOn(week, W(130)), recurrence: 'FREQ=DAILY;COUNT=5' });
    const [, , third, fourth] = await seriesOf(client, first.id);
    const updated = await client.graphql(
      'mutation($id: UUID!) { updateTask(taskId: $id, title: "Read more", applyTo: following) { id title seriesId occurrenceDate recurrence } }',
      { id: third.id },
    );
    expect(updated.body.errors, updated.text).toBeUndefined();
    expect(updated.body.data!.updateTask).toEqual({ id: third.id, title: 'Read more', seriesId: third.id, occurrenceDate: WE(130), recurrence: 'FREQ=DAILY;COUNT=3' });
    const removed = await client.graphql('mutation($id: UUID!) { deleteTask(taskId: $id, applyTo: this) { id } }', { id: fourth.id });
    expect(removed.body.errors, removed.text).toBeUndefined();
    const series = await client.graphql('query($id: UUID!) { task(taskId: $id) { recurrenceExceptions } }', { id: third.id });
    expect(series.body.data!.task.recurrenceExceptions).toEqual([TH(130)]);
    const wrong = await client.graphql('mutation($id: UUID!) { deleteTask(taskId: $id, applyTo: all) { id } }', { id: third.id });
    expect(wrong.body.errors).toHaveLength(1);
  });
});
