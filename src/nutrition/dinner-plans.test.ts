import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createTemplate, dinnerWeek, expectNotFound, expectRule, expectValidation, freshWeek, MISSING_ID, outboxEvents, setMeal } from './nutrition.test-helpers.js';

let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

async function cookItem(client: HttpClient, dayId: string): Promise<any> {
  const res = await client.get(`/api/v1/checklist/${dayId}`);
  return res.body.data.find((i: any) => i.key === 'COOK');
}

async function dbCount(table: string, userId: string): Promise<number> {
  const rows = await app.server.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table} where user_id = ?`, [userId]);
  return rows[0].n;
}

describe('POST /dinner/generate-week', () => {
  it('makes the 7 plans under the cooking rule (201); again returns the same 7 (200) and makes none', async () => {
    const week = await freshWeek(alice);
    const res = await alice.post('/api/v1/dinner/generate-week', { weekId: week.id });
    expect(res.status, res.text).toBe(201);
    const plans = res.body.data;
    expect(plans).toHaveLength(7);
    expect(plans.map((p: any) => p.dayId)).toEqual(week.days.map((d: any) => d.id));
    expect(plans.map((p: any) => p.date)).toEqual(week.days.map((d: any) => d.date));
    expect(plans.map((p: any) => p.isCookDay)).toEqual([true, false, true, false, true, false, false]);
    const [mon, tue, wed, thu, fri, sat, sun] = plans;
    expect([mon, wed, fri, sun].map((p: any) => p.coveredByDinnerPlanId)).toEqual([null, null, null, null]);
    expect(tue.coveredByDinnerPlanId).toBe(mon.id);
    expect(thu.coveredByDinnerPlanId).toBe(wed.id);
    expect(sat.coveredByDinnerPlanId).toBe(fri.id);
    for (const p of plans) expect(p).toMatchObject({ weekId: week.id, mealTemplateId: null, cooked: false, cookedAt: null });

    const before = await dbCount('dinner_plans', aliceId);
    const again = await alice.post('/api/v1/dinner/generate-week', { weekId: week.id });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.map((p: any) => p.id)).toEqual(plans.map((p: any) => p.id));
    expect(await dbCount('dinner_plans', aliceId)).toBe(before);
  });

  it('racing generations of one week leave 7 plans', async () => {
    const week = await freshWeek(alice);
    const answers = await Promise.all([0, 1, 2].map(() => alice.post('/api/v1/dinner/generate-week', { weekId: week.id })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    const list = await alice.get(`/api/v1/dinner?weekId=${week.id}`);
    expect(list.body.data).toHaveLength(7);
  });

  it("refuses a missing, malformed or another user's week", async () => {
    const bobWeek = await freshWeek(bob);
    expectNotFound(await alice.post('/api/v1/dinner/generate-week', { weekId: bobWeek.id }), 'weekId');
    expectNotFound(await alice.post('/api/v1/dinner/generate-week', { weekId: MISSING_ID }), 'weekId');
    expectValidation(await alice.post('/api/v1/dinner/generate-week', { weekId: 'monday' }));
    expectValidation(await alice.post('/api/v1/dinner/generate-week', {}));
    expect((await bob.get(`/api/v1/dinner?weekId=${bobWeek.id}`)).body.data).toEqual([]);
  });
});

describe('GET /dinner', () => {
  it('lists by week or by day, by date, with pagination meta', async () => {
    const week = await freshWeek(alice);
    const plans = await dinnerWeek(alice, week.id);
    const byWeek = await alice.get(`/api/v1/dinner?weekId=${week.id}`);
    expect(byWeek.status).toBe(200);
    expect(byWeek.body.data.map((p: any) => p.id)).toEqual(plans.map((p: any) => p.id));
    expect(byWeek.body.meta).toEqual({ page: 1, limit: 50, total: 7 });
    const byDay = await alice.get(`/api/v1/dinner?dayId=${week.days[2].id}`);
    expect(byDay.body.data).toEqual([plans[2]]);
    const both = await alice.get(`/api/v1/dinner?weekId=${week.id}&dayId=${week.days[6].id}`);
    expect(both.body.data.map((p: any) => p.id)).toEqual([plans[6].id]);
  });

  it("answers 404 for another user's week or day, 400 for a malformed id", async () => {
    const bobWeek = await freshWeek(bob);
    await dinnerWeek(bob, bobWeek.id);
    expectNotFound(await alice.get(`/api/v1/dinner?weekId=${bobWeek.id}`), 'weekId');
    expectNotFound(await alice.get(`/api/v1/dinner?dayId=${bobWeek.days[0].id}`), 'dayId');
    expectValidation(await alice.get('/api/v1/dinner?weekId=abc'));
    expectValidation(await alice.get('/api/v1/dinner?dayId=abc'));
    expect((await alice.get('/api/v1/dinner?limit=100')).body.data.every((p: any) => p.weekId !== bobWeek.id)).toBe(true);
  });
});

describe('PATCH /dinner/:dinnerPlanId', () => {
  it("sets a cook day's meal on the covered day too; a covered day cannot take its own (400 cooking_rule); Sunday is free", async () => {
    const week = await freshWeek(alice);
    const [mon, tue, wed, thu, , , sun] = await dinnerWeek(alice, week.id);
    const chili = await createTemplate(alice, { name: 'Chili' });
    const soup = await createTemplate(alice, { name: 'Soup' });

    expect(await setMeal(alice, mon.id, chili.id)).toMatchObject({ id: mon.id, mealTemplateId: chili.id });
    let list = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    expect(list.map((p: any) => p.mealTemplateId)).toEqual([chili.id, chili.id, null, null, null, null, null]);

    await setMeal(alice, mon.id, soup.id);
    await setMeal(alice, wed.id, chili.id);
    await setMeal(alice, sun.id, soup.id);
    list = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    expect(list.map((p: any) => p.mealTemplateId)).toEqual([soup.id, soup.id, chili.id, chili.id, null, null, soup.id]);

    expectRule(await alice.patch(`/api/v1/dinner/${tue.id}`, { mealTemplateId: chili.id }), 'cooking_rule');
    expectRule(await alice.patch(`/api/v1/dinner/${thu.id}`, { mealTemplateId: null }), 'cooking_rule');
    // sending back the meal a covered day already eats is accepted and changes nothing
    expect(await setMeal(alice, thu.id, chili.id)).toMatchObject({ id: thu.id, mealTemplateId: chili.id, coveredByDinnerPlanId: wed.id });

    // null clears the cook day and its covered day
    await setMeal(alice, mon.id, null);
    list = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    expect(list.map((p: any) => p.mealTemplateId)).toEqual([null, null, chili.id, chili.id, null, null, soup.id]);

    // deleting a template leaves its plans without a meal
    await alice.delete(`/api/v1/meal-templates/${chili.id}`);
    list = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    expect(list.map((p: any) => p.mealTemplateId)).toEqual([null, null, null, null, null, null, soup.id]);
  });

  it('cooked on a cook day completes COOK once, with checklist_completed; false reopens it; other days leave the checklist alone', async () => {
    const week = await freshWeek(alice);
    const [mon, tue, , , fri, , sun] = await dinnerWeek(alice, week.id);
    const before = (await outboxEvents(app, aliceId, 'checklist_completed')).length;

    const res = await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: mon.id, cooked: true });
    expect(typeof res.body.data.cookedAt).toBe('string');
    expect(await cookItem(alice, mon.dayId)).toMatchObject({ completed: true });
    let events = await outboxEvents(app, aliceId, 'checklist_completed');
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)!.data).toMatchObject({ dayId: mon.dayId, itemKey: 'COOK' });
    expect(events.at(-1)!.data.completedAt).toBe((await cookItem(alice, mon.dayId)).completedAt);

    // cooked again: nothing changes, no second event
    expect((await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: true })).status).toBe(200);
    expect(await outboxEvents(app, aliceId, 'checklist_completed')).toHaveLength(before + 1);

    // un-cooking reopens COOK
    const undone = await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: false });
    expect(undone.body.data).toMatchObject({ cooked: false, cookedAt: null });
    expect(await cookItem(alice, mon.dayId)).toMatchObject({ completed: false, completedAt: null });

    // a covered day and Sunday: noted on the plan, checklist untouched
    for (const plan of [tue, sun]) {
      const r = await alice.patch(`/api/v1/dinner/${plan.id}`, { cooked: true });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.cooked).toBe(true);
      expect(await cookItem(alice, plan.dayId)).toMatchObject({ completed: false });
    }
    expect(await outboxEvents(app, aliceId, 'checklist_completed')).toHaveLength(before + 1);

    // Friday: meal and cooked in one request
    const pasta = await createTemplate(alice, { name: 'Pasta' });
    const both = await alice.patch(`/api/v1/dinner/${fri.id}`, { mealTemplateId: pasta.id, cooked: true });
    expect(both.body.data).toMatchObject({ mealTemplateId: pasta.id, cooked: true });
    expect(await cookItem(alice, fri.dayId)).toMatchObject({ completed: true });
    events = await outboxEvents(app, aliceId, 'checklist_completed');
    expect(events.at(-1)!.data).toMatchObject({ dayId: fri.dayId, itemKey: 'COOK' });
  });

  it('cooking can complete the day (day_completed), exactly like a toggle of COOK', async () => {
    const week = await freshWeek(alice);
    const [mon] = await dinnerWeek(alice, week.id);
    const dayId = mon.dayId;
    const perimeter = [];
    for (let i = 0; i < 3; i++) perimeter.push((await alice.post('/api/v1/perimeter/tasks', { title: `P${i}` })).body.data.id);
    expect((await alice.post(`/api/v1/perimeter/${dayId}`, { taskIds: perimeter })).status).toBe(200);
    for (const key of ['MAKE_BED', 'GYM', 'MOBILITY', 'CARDIO', 'READING', 'MEDITATION', 'JOURNAL', 'PERIMETER']) {
      const value = key === 'READING' ? MISSING_ID : key === 'MEDITATION' ? 10 : undefined;
      const r = await alice.post(`/api/v1/checklist/${dayId}/toggle/${key}`, value === undefined ? {} : { value });
      expect(r.status, r.text).toBe(200);
    }
    await alice.post(`/api/v1/checklist/${dayId}/toggle/WATER`, { value: 500 });
    const completedBefore = (await outboxEvents(app, aliceId, 'day_completed')).filter((e) => e.data.dayId === dayId);
    expect(completedBefore).toHaveLength(0);
    await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: true });
    const day = await alice.get(`/api/v1/days/${dayId}`);
    expect(typeof day.body.data.completedAt).toBe('string');
    expect((await outboxEvents(app, aliceId, 'day_completed')).filter((e) => e.data.dayId === dayId)).toHaveLength(1);
  });

  it("refuses another user's plan or template (404), bad input (400), and changes nothing", async () => {
    const week = await freshWeek(alice);
    const [mon] = await dinnerWeek(alice, week.id);
    const bobWeek = await freshWeek(bob);
    const [bobMon] = await dinnerWeek(bob, bobWeek.id);
    const bobTemplate = await createTemplate(bob, { name: 'Bob stew' });

    expectNotFound(await alice.patch(`/api/v1/dinner/${bobMon.id}`, { cooked: true }));
    expectNotFound(await alice.patch(`/api/v1/dinner/${MISSING_ID}`, { cooked: true }));
    expectNotFound(await alice.patch(`/api/v1/dinner/${mon.id}`, { mealTemplateId: bobTemplate.id }), 'mealTemplateId');
    expectNotFound(await alice.patch(`/api/v1/dinner/${mon.id}`, { mealTemplateId: MISSING_ID, cooked: true }), 'mealTemplateId');
    expectValidation(await alice.patch('/api/v1/dinner/not-a-uuid', { cooked: true }));
    expectValidation(await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: 'yes' }));
    expectValidation(await alice.patch(`/api/v1/dinner/${mon.id}`, { cooked: null }), 'cooked');
    expectValidation(await alice.patch(`/api/v1/dinner/${mon.id}`, { mealTemplateId: 'abc' }));

    const list = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    expect(list[0]).toMatchObject({ mealTemplateId: null, cooked: false });
    expect(await cookItem(alice, mon.dayId)).toMatchObject({ completed: false });
    expect((await bob.get(`/api/v1/dinner?weekId=${bobWeek.id}`)).body.data[0]).toMatchObject({ cooked: false });
    expect(await cookItem(bob, bobMon.dayId)).toMatchObject({ completed: false });
  });
});

describe('Day.dinnerPlan', () => {
  it('is on GET /days/:dayId and on the GraphQL Day (null before generation)', async () => {
    const week = await freshWeek(alice);
    const query = `query($s: LocalDate!) { week(startDate: $s) { days { date dinnerPlan { id isCookDay coveredByDinnerPlanId mealTemplateId } } } }`;
    const before = await alice.graphql(query, { s: week.startDate });
    expect(before.body.data.week.days.map((d: any) => d.dinnerPlan)).toEqual([null, null, null, null, null, null, null]);
    const plans = await dinnerWeek(alice, week.id);
    const after = await alice.graphql(query, { s: week.startDate });
    expect(after.body.data.week.days.map((d: any) => d.dinnerPlan.id)).toEqual(plans.map((p: any) => p.id));
    expect(after.body.data.week.days[1].dinnerPlan.coveredByDinnerPlanId).toBe(plans[0].id);
    const day = await alice.get(`/api/v1/days/${week.days[0].id}`);
    expect(day.body.data.dinnerPlan).toMatchObject({ id: plans[0].id, isCookDay: true });
  });
});
