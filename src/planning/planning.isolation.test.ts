import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createPerimeterTasks, expectGraphQLError, expectNotFound, generateWeek, outboxEvents } from './planning.test-helpers.js';

/** A user reaches only their own planning records: another user's id answers 404 exactly like a missing one. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let bobId: string;
let aliceWeek: any;
let aliceDay: any;
let aliceTasks: any[];
let bobDay: any;
let bobTasks: any[];

const START = '2032-02-02';

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
  aliceWeek = await generateWeek(alice, START);
  aliceDay = aliceWeek.days[0];
  await generateWeek(alice, '2032-02-09');
  aliceTasks = await createPerimeterTasks(alice, 3, 'Alice');
  const set = await alice.post(`/api/v1/perimeter/${aliceDay.id}`, { taskIds: aliceTasks.map((t) => t.id) });
  expect(set.status, set.text).toBe(200);
  await alice.patch(`/api/v1/days/${aliceDay.id}`, { notes: 'private' });
  bobDay = (await generateWeek(bob, '2032-03-01')).days[0];
  bobTasks = await createPerimeterTasks(bob, 3, 'Bob');
});

async function aliceUnchanged(): Promise<void> {
  const week = await alice.get(`/api/v1/weeks/${START}`);
  expect(week.body.data.isStressWeek).toBe(false);
  const day = week.body.data.days[0];
  expect(day).toMatchObject({ notes: 'private', minimumMode: false, mood: null });
  expect(day.checklist.every((i: any) => !i.completed)).toBe(true);
  expect(day.perimeterTasks.map((t: any) => t.title)).toEqual(['Alice 1', 'Alice 2', 'Alice 3']);
  const tasks = await alice.get('/api/v1/perimeter/tasks');
  expect(tasks.body.data.map((t: any) => t.title)).toEqual(['Alice 1', 'Alice 2', 'Alice 3']);
  expect((await outboxEvents(app, aliceId)).map((e) => e.event)).toEqual([]);
}

describe('REST', () => {
  it("hides another user's week: GET by start date and PATCH by id answer 404", async () => {
    expectNotFound(await bob.get(`/api/v1/weeks/${START}`));
    expectNotFound(await bob.patch(`/api/v1/weeks/${aliceWeek.id}`, { isStressWeek: true }));
    await aliceUnchanged();
  });

  it("hides another user's day: GET and PATCH (notes, mode, ratings) answer 404", async () => {
    expectNotFound(await bob.get(`/api/v1/days/${aliceDay.id}`));
    expectNotFound(await bob.patch(`/api/v1/days/${aliceDay.id}`, { notes: 'mine' }));
    expectNotFound(await bob.patch(`/api/v1/days/${aliceDay.id}`, { minimumMode: true }));
    expectNotFound(await bob.patch(`/api/v1/days/${aliceDay.id}`, { mood: 3, energy: 3, sleepHours: 3 }));
    await aliceUnchanged();
  });

  it("hides another user's checklist: GET and toggle answer 404", async () => {
    expectNotFound(await bob.get(`/api/v1/checklist/${aliceDay.id}`));
    expectNotFound(await bob.post(`/api/v1/checklist/${aliceDay.id}/toggle/MAKE_BED`));
    expectNotFound(await bob.post(`/api/v1/checklist/${aliceDay.id}/toggle/WATER`, { value: 500 }));
    expectNotFound(await bob.post(`/api/v1/checklist/${aliceDay.id}/toggle/WEIGHT_LOG`, { value: 80 }));
    await aliceUnchanged();
  });

  it("hides another user's perimeter tasks: PATCH, DELETE and setting them on a day answer 404; the list leaves them out", async () => {
    expectNotFound(await bob.patch(`/api/v1/perimeter/tasks/${aliceTasks[0].id}`, { title: 'Hijacked' }));
    expectNotFound(await bob.delete(`/api/v1/perimeter/tasks/${aliceTasks[0].id}`));
    const mixed = await bob.post(`/api/v1/perimeter/${bobDay.id}`, { taskIds: [bobTasks[0].id, bobTasks[1].id, aliceTasks[0].id] });
    expectNotFound(mixed);
    expect(mixed.body.error.details.field).toBe('taskIds');
    // Bob's own tasks on Alice's day: the day is not his.
    expectNotFound(await bob.post(`/api/v1/perimeter/${aliceDay.id}`, { taskIds: bobTasks.map((t) => t.id) }));
    expectNotFound(await bob.post(`/api/v1/perimeter/${aliceDay.id}`, { taskIds: aliceTasks.map((t) => t.id) }));
    expect((await bob.get('/api/v1/perimeter/tasks')).body.data.map((t: any) => t.title)).toEqual(['Bob 1', 'Bob 2', 'Bob 3']);
    expect((await bob.get(`/api/v1/days/${bobDay.id}`)).body.data.perimeterTasks).toEqual([]);
    await aliceUnchanged();
  });

  it('lets each user generate the same week for themselves, with separate records', async () => {
    const bobsWeek = await bob.post('/api/v1/weeks/generate', { startDate: START });
    expect(bobsWeek.status).toBe(201);
    expect(bobsWeek.body.data.id).not.toBe(aliceWeek.id);
    expect(bobsWeek.body.data.days.map((d: any) => d.id)).not.toContain(aliceDay.id);
    expect(bobsWeek.body.data.days[0].perimeterTasks).toEqual([]);
    expect(bobsWeek.body.data.days[0].notes).toBeNull();
    await aliceUnchanged();
  });
});

describe('GraphQL', () => {
  it("answers NOT_FOUND for another user's week, day, checklist and perimeter task", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['mutation($id: UUID!) { updateWeek(weekId: $id, isStressWeek: true) { id } }', { id: aliceWeek.id }],
      ['query($id: UUID!) { day(dayId: $id) { id notes } }', { id: aliceDay.id }],
      ['mutation($id: UUID!) { updateDay(dayId: $id, notes: "mine") { id } }', { id: aliceDay.id }],
      ['mutation($id: UUID!) { updateDay(dayId: $id, minimumMode: true) { id } }', { id: aliceDay.id }],
      ['query($id: UUID!) { checklist(dayId: $id) { key } }', { id: aliceDay.id }],
      ['mutation($id: UUID!) { toggleChecklistItem(dayId: $id, key: GYM) { key } }', { id: aliceDay.id }],
      ['mutation($id: UUID!) { updatePerimeterTask(taskId: $id, title: "x") { id } }', { id: aliceTasks[0].id }],
      ['mutation($id: UUID!) { deletePerimeterTask(taskId: $id) { id } }', { id: aliceTasks[0].id }],
      ['mutation($d: UUID!, $t: [UUID!]!) { setDayPerimeter(dayId: $d, taskIds: $t) { id } }', { d: aliceDay.id, t: bobTasks.map((t) => t.id) }],
      ['mutation($d: UUID!, $t: [UUID!]!) { setDayPerimeter(dayId: $d, taskIds: $t) { id } }', { d: bobDay.id, t: aliceTasks.map((t) => t.id) }],
    ];
    for (const [query, variables] of cases) {
      const res = await bob.graphql(query, variables);
      expectGraphQLError(res, 'NOT_FOUND');
      expect(res.body.data ?? null).toBeNull();
    }
    // Bob generated his own copy of START above; by start date he reaches only that one.
    const week = await bob.graphql(`{ week(startDate: "${START}") { id days { id } } }`);
    expect(week.body.data.week.id).not.toBe(aliceWeek.id);
    expect(week.body.data.week.days.map((d: any) => d.id)).not.toContain(aliceDay.id);
    // Alice's next week exists, but not for Bob.
    expectGraphQLError(await bob.graphql('{ week(startDate: "2032-02-09") { id } }'), 'NOT_FOUND');
    const list = await bob.graphql('{ perimeterTasks { items { title } meta { total } } }');
    expect(list.body.data.perimeterTasks.meta.total).toBe(3);
    await aliceUnchanged();
    // Bob's refused writes recorded nothing for him either.
    expect((await outboxEvents(app, bobId)).map((e) => e.event)).toEqual([]);
  });
});
