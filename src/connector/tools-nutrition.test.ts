import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { addDays } from '../core/dates.js';
import { XP } from '../gamification/gamification-rules.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 25: the nutrition tools (area food): dinner plans, meal templates, grocery lists, on the real service. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;
let bob: Awaited<ReturnType<typeof connectedUser>>;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
});
afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
  await app?.close();
});

const events = async (userId: string) =>
  (await sql(app.databaseUrl, 'select event, data from event_outbox where user_id = $1 order by occurred_at, id', [userId])) as { event: string; data: any }[];

async function xpOf(user: typeof alice): Promise<number> {
  const res = await user.user.client.get('/api/v1/gamification/stats');
  expect(res.status, res.text).toBe(200);
  return res.body.data.xp;
}

async function restGet(user: typeof alice, path: string): Promise<any> {
  const res = await user.user.client.get(`/api/v1${path}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

const chiliIngredients = [
  { name: 'Beans', quantity: 400, unit: 'g', section: 'pantry' },
  { name: 'Onion', quantity: 2, unit: 'pcs', section: 'produce' },
  { name: 'Salt' },
];

describe('dinner plans', () => {
  // 2031-03-03 is a Monday.
  const monday = '2031-03-03';
  let week: any;

  it('nutrition_generate_dinner_plan makes the 7 dinners under the cooking rule, once; nutrition_dinner_plan reads them', async () => {
    const before = await events(alice.user.id);
    expect(await callError(alice.client, 'nutrition_dinner_plan', { date: '2031-03-05' })).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Week' } });

    week = await callOk(alice.client, 'nutrition_generate_dinner_plan', { date: '2031-03-05' });
    expect(week).toMatchObject({ startDate: monday, created: true });
    expect(week.dinners.map((d: any) => [d.date, d.weekday, d.isCookDay, d.eatsMealOf, d.meal, d.cooked])).toEqual([
      ['2031-03-03', 'Monday', true, null, null, false],
      ['2031-03-04', 'Tuesday', false, '2031-03-03', null, false],
      ['2031-03-05', 'Wednesday', true, null, null, false],
      ['2031-03-06', 'Thursday', false, '2031-03-05', null, false],
      ['2031-03-07', 'Friday', true, null, null, false],
      ['2031-03-08', 'Saturday', false, '2031-03-07', null, false],
      ['2031-03-09', 'Sunday', false, null, null, false],
    ]);

    const again = await callOk(alice.client, 'nutrition_generate_dinner_plan', { weekId: week.weekId });
    expect(again).toEqual({ ...week, created: false });
    const rest = await restGet(alice, `/dinner?weekId=${week.weekId}`);
    expect(rest.map((p: any) => p.id)).toEqual(week.dinners.map((d: any) => d.dinnerPlanId));

    const read = await callOk(alice.client, 'nutrition_dinner_plan', { date: '2031-03-09' });
    expect(read).toEqual({ weekId: week.weekId, startDate: monday, generated: true, dinners: week.dinners });
    // Generating records no event.
    expect(await events(alice.user.id)).toEqual(before);
  });

  it('refuses bad arguments and answers another user NOT_FOUND', async () => {
    expect(await callError(alice.client, 'nutrition_generate_dinner_plan', { date: '2031-02-30' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['date'] }] } });
    expect(await callError(alice.client, 'nutrition_dinner_plan', { weekId: 'week-1' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['weekId'] }] } });
    expect(await callError(bob.client, 'nutrition_dinner_plan', { weekId: week.weekId })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'nutrition_generate_dinner_plan', { weekId: week.weekId })).toMatchObject({ code: 'NOT_FOUND' });
  });

  describe('meal templates and setting dinners', () => {
    let chili: any;
    let curry: any;

    it('nutrition_add_meal_template adds a template the app shows; nutrition_meal_templates lists the user\'s own', async () => {
      chili = await callOk(alice.client, 'nutrition_add_meal_template', { name: ' Chili ', ingredients: chiliIngredients, servings: 4, instructions: 'Simmer.' });
      expect(chili).toMatchObject({
        name: 'Chili',
        servings: 4,
        instructions: 'Simmer.',
        ingredients: [
          { name: 'Beans', quantity: 400, unit: 'g', section: 'pantry' },
          { name: 'Onion', quantity: 2, unit: 'pcs', section: 'produce' },
          { name: 'Salt', quantity: null, unit: '', section: '' },
        ],
      });
      curry = await callOk(alice.client, 'nutrition_add_meal_template', { name: 'Curry' });
      expect(curry).toMatchObject({ name: 'Curry', ingredients: [], servings: null, instructions: null });
      expect(await restGet(alice, `/meal-templates/${chili.id}`)).toMatchObject({ id: chili.id, name: 'Chili', servings: 4 });

      const list = await callOk(alice.client, 'nutrition_meal_templates', { limit: 1, page: 2 });
      expect(list).toEqual({ mealTemplates: [curry], meta: { page: 2, limit: 1, total: 2 } });
      expect((await callOk(alice.client, 'nutrition_meal_templates')).mealTemplates.map((t: any) => t.name)).toEqual(['Chili', 'Curry']);
      expect(await callOk(bob.client, 'nutrition_meal_templates')).toEqual({ mealTemplates: [], meta: { page: 1, limit: 50, total: 0 } });

      expect(await callError(alice.client, 'nutrition_add_meal_template', { name: 'Stew', servings: 0 })).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { errors: [{ path: ['servings'], message: 'servings must be at least 1' }] },
      });
      expect(await callError(alice.client, 'nutrition_add_meal_template', { name: 'Stew', ingredients: [{ name: 'Rice', quantity: 0 }] })).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { errors: [{ path: ['ingredients', 0, 'quantity'], message: 'quantity must be above 0' }] },
      });
      expect(await callError(alice.client, 'nutrition_meal_templates', { limit: 0 })).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect((await callOk(alice.client, 'nutrition_meal_templates')).meta.total).toBe(2);
      // Adding a template records no event.
      expect((await events(alice.user.id)).length).toBe(0);
    });

    it('nutrition_set_dinner sets a cook day\'s meal by name on the covered day too; a covered day takes none of its own', async () => {
      const [mon, tue, , , , , sun] = week.dinners;
      const set = await callOk(alice.client, 'nutrition_set_dinner', { date: mon.date, mealTemplateName: 'chili' });
      expect(set).toEqual({ dinner: { ...mon, mealTemplateId: chili.id, meal: 'Chili' }, alsoEatenOn: [tue.date] });
      const rest = await restGet(alice, `/dinner?weekId=${week.weekId}`);
      expect(rest.slice(0, 2).map((p: any) => p.mealTemplateId)).toEqual([chili.id, chili.id]);

      const rule = await callError(alice.client, 'nutrition_set_dinner', { date: tue.date, mealTemplateId: curry.id });
      expect(rule).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'cooking_rule', errors: [{ path: ['mealTemplateId'] }] } });

      expect(await callOk(alice.client, 'nutrition_set_dinner', { dinnerPlanId: sun.dinnerPlanId, mealTemplateId: curry.id })).toEqual({ dinner: { ...sun, mealTemplateId: curry.id, meal: 'Curry' }, alsoEatenOn: [] });
      expect((await callOk(alice.client, 'nutrition_set_dinner', { dinnerPlanId: sun.dinnerPlanId, mealTemplateId: null })).dinner.meal).toBeNull();

      const unknown = await callError(alice.client, 'nutrition_set_dinner', { date: mon.date, mealTemplateName: 'Lasagne' });
      expect(unknown).toMatchObject({ code: 'NOT_FOUND', details: { candidates: [{ id: chili.id, name: 'Chili' }, { id: curry.id, name: 'Curry' }] } });
      expect(await callError(alice.client, 'nutrition_set_dinner', { date: mon.date, mealTemplateName: 'c' })).toMatchObject({ code: 'AMBIGUOUS_NAME' });
      expect(await callError(alice.client, 'nutrition_set_dinner', { date: mon.date })).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await callError(alice.client, 'nutrition_set_dinner', { date: '2031-05-07', cooked: true })).toMatchObject({ code: 'NOT_FOUND' });
      expect((await callOk(alice.client, 'nutrition_dinner_plan', { weekId: week.weekId })).dinners[0].meal).toBe('Chili');
    });

    it('nutrition_set_dinner answers another user\'s dinner or template NOT_FOUND, changing nothing', async () => {
      const [mon] = week.dinners;
      expect(await callError(bob.client, 'nutrition_set_dinner', { dinnerPlanId: mon.dinnerPlanId, cooked: true })).toMatchObject({ code: 'NOT_FOUND' });
      const own = await callOk(bob.client, 'nutrition_generate_dinner_plan', { date: mon.date });
      const bobMonday = own.dinners[0].dinnerPlanId;
      expect(await callError(bob.client, 'nutrition_set_dinner', { dinnerPlanId: bobMonday, mealTemplateId: chili.id })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'mealTemplateId' } });
      expect(await callError(bob.client, 'nutrition_set_dinner', { dinnerPlanId: bobMonday, mealTemplateName: 'Chili' })).toMatchObject({ code: 'NOT_FOUND', details: { candidates: [] } });
      expect((await restGet(alice, `/dinner?weekId=${week.weekId}`))[0]).toMatchObject({ cooked: false, mealTemplateId: chili.id });
      expect(await events(bob.user.id)).toEqual([]);
    });

    it('nutrition_set_dinner cooked on a cook day completes COOK (checklist_completed, XP); on a covered day it is only noted', async () => {
      const [mon, tue] = week.dinners;
      const xp = await xpOf(alice);
      const cooked = await callOk(alice.client, 'nutrition_set_dinner', { dinnerPlanId: mon.dinnerPlanId, cooked: true });
      expect(cooked.dinner).toMatchObject({ date: mon.date, cooked: true, meal: 'Chili' });
      const completed = (await events(alice.user.id)).filter((e) => e.event === 'checklist_completed');
      expect(completed.map((e) => [e.data.dayId, e.data.itemKey])).toEqual([[mon.dayId, 'COOK']]);
      expect(await xpOf(alice)).toBe(xp + XP.checklist_item);

      expect((await callOk(alice.client, 'nutrition_set_dinner', { date: tue.date, cooked: true })).dinner.cooked).toBe(true);
      expect((await events(alice.user.id)).filter((e) => e.event === 'checklist_completed')).toHaveLength(1);

      await callOk(alice.client, 'nutrition_set_dinner', { dinnerPlanId: mon.dinnerPlanId, cooked: false });
      expect(await xpOf(alice)).toBe(xp);
    });
  });
});

describe('grocery lists', () => {
  const monday = '2031-03-17';
  let list: any;
  let baseline: unknown[];

  it('nutrition_generate_grocery_list makes the list from the cook days\' meals, grouped by section; nutrition_grocery_list reads it', async () => {
    const chili = await callOk(alice.client, 'nutrition_add_meal_template', { name: 'Bean chili', ingredients: chiliIngredients });
    await callOk(alice.client, 'nutrition_generate_dinner_plan', { date: monday });
    await callOk(alice.client, 'nutrition_set_dinner', { date: monday, mealTemplateId: chili.id });
    expect(await callError(alice.client, 'nutrition_grocery_list', { date: monday })).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Grocery list' } });
    baseline = await events(alice.user.id);

    list = await callOk(alice.client, 'nutrition_generate_grocery_list', { date: monday });
    expect(list).toMatchObject({ created: true, total: 3, missing: 3 });
    expect(list.sections.map((s: any) => [s.section, s.items.map((i: any) => [i.name, i.quantity, i.unit, i.purchased, i.source])])).toEqual([
      ['pantry', [['Beans', 400, 'g', false, 'plan']]],
      ['produce', [['Onion', 2, 'pcs', false, 'plan']]],
      [null, [['Salt', null, '', false, 'plan']]],
    ]);
    expect(await callOk(alice.client, 'nutrition_generate_grocery_list', { weekId: list.weekId })).toEqual({ ...list, created: false });
    expect({ ...(await callOk(alice.client, 'nutrition_grocery_list', { weekId: list.weekId })), created: true }).toEqual(list);
    expect((await restGet(alice, `/grocery?weekId=${list.weekId}`)).items.map((i: any) => i.id)).toEqual(list.sections.flatMap((s: any) => s.items.map((i: any) => i.id)));
    expect(await events(alice.user.id)).toEqual(baseline);

    expect(await callError(alice.client, 'nutrition_grocery_list', { date: '17/03/2031' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['date'] }] } });
    expect(await callError(alice.client, 'nutrition_generate_grocery_list', { weekId: 'x' })).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await callError(bob.client, 'nutrition_grocery_list', { weekId: list.weekId })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'nutrition_generate_grocery_list', { weekId: list.weekId })).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('nutrition_add_grocery_items adds several manual items at once, all or none', async () => {
    const added = await callOk(alice.client, 'nutrition_add_grocery_items', {
      date: addDays(monday, 3),
      items: [{ name: 'Milk', quantity: 1, unit: 'l', section: 'dairy' }, { name: 'Bread' }],
    });
    expect(added.groceryListId).toBe(list.groceryListId);
    expect(added.added.map((i: any) => [i.name, i.quantity, i.unit, i.purchased, i.source])).toEqual([
      ['Milk', 1, 'l', false, 'manual'],
      ['Bread', null, '', false, 'manual'],
    ]);
    const read = await callOk(alice.client, 'nutrition_grocery_list', { weekId: list.weekId });
    expect(read).toMatchObject({ total: 5, missing: 5 });
    expect(read.sections.map((s: any) => [s.section, s.items.map((i: any) => i.name)])).toEqual([
      ['dairy', ['Milk']],
      ['pantry', ['Beans']],
      ['produce', ['Onion']],
      [null, ['Bread', 'Salt']],
    ]);

    expect(await callError(alice.client, 'nutrition_add_grocery_items', { weekId: list.weekId, items: [] })).toMatchObject({ code: 'VALIDATION_ERROR' });
    const blank = await callError(alice.client, 'nutrition_add_grocery_items', { weekId: list.weekId, items: [{ name: 'Eggs' }, { name: '  ' }] });
    expect(blank).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['items', 1, 'name'], message: 'name must not be blank' }] } });
    expect(await callError(bob.client, 'nutrition_add_grocery_items', { groceryListId: list.groceryListId, items: [{ name: 'Eggs' }] })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'nutrition_add_grocery_items', { weekId: list.weekId, items: [{ name: 'Eggs' }] })).toMatchObject({ code: 'NOT_FOUND' });
    expect((await callOk(alice.client, 'nutrition_grocery_list', { weekId: list.weekId })).total).toBe(5);
  });

  it('nutrition_tick_grocery_item ticks and unticks by name or id; another user\'s item is NOT_FOUND', async () => {
    const ticked = await callOk(alice.client, 'nutrition_tick_grocery_item', { date: monday, name: 'milk' });
    expect(ticked).toMatchObject({ groceryListId: list.groceryListId, item: { name: 'Milk', purchased: true }, missing: 4 });
    const beans = list.sections[0].items[0];
    expect(await callOk(alice.client, 'nutrition_tick_grocery_item', { groceryListId: list.groceryListId, itemId: beans.id })).toMatchObject({ item: { id: beans.id, purchased: true }, missing: 3 });
    expect(await callOk(alice.client, 'nutrition_tick_grocery_item', { weekId: list.weekId, itemId: beans.id, purchased: false })).toMatchObject({ item: { purchased: false }, missing: 4 });
    const rest = await restGet(alice, `/grocery?weekId=${list.weekId}`);
    expect(rest.items.filter((i: any) => i.purchased).map((i: any) => i.name)).toEqual(['Milk']);
    const missing = await callOk(alice.client, 'nutrition_grocery_list', { weekId: list.weekId, onlyMissing: true });
    expect(missing).toMatchObject({ total: 5, missing: 4 });
    expect(missing.sections.flatMap((s: any) => s.items.map((i: any) => i.name))).toEqual(['Beans', 'Onion', 'Bread', 'Salt']);

    await callOk(alice.client, 'nutrition_add_grocery_items', { weekId: list.weekId, items: [{ name: 'Onion', quantity: 100, unit: 'g' }] });
    expect(await callError(alice.client, 'nutrition_tick_grocery_item', { weekId: list.weekId, name: 'onion' })).toMatchObject({ code: 'AMBIGUOUS_NAME', details: { candidates: [{ name: 'Onion' }, { name: 'Onion' }] } });
    expect(await callError(alice.client, 'nutrition_tick_grocery_item', { weekId: list.weekId, name: 'Caviar' })).toMatchObject({ code: 'NOT_FOUND', details: { name: 'Caviar' } });
    expect(await callError(alice.client, 'nutrition_tick_grocery_item', { weekId: list.weekId })).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await callError(alice.client, 'nutrition_tick_grocery_item', { weekId: list.weekId, itemId: 'milk' })).toMatchObject({ code: 'VALIDATION_ERROR' });

    expect(await callError(bob.client, 'nutrition_tick_grocery_item', { groceryListId: list.groceryListId, itemId: beans.id })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callError(bob.client, 'nutrition_tick_grocery_item', { groceryListId: list.groceryListId, name: 'Beans' })).toMatchObject({ code: 'NOT_FOUND' });
    const bobList = await callOk(bob.client, 'nutrition_generate_grocery_list', { date: monday });
    expect(await callError(bob.client, 'nutrition_tick_grocery_item', { groceryListId: bobList.groceryListId, itemId: beans.id })).toMatchObject({ code: 'NOT_FOUND' });
    expect((await restGet(alice, `/grocery?weekId=${list.weekId}`)).items.find((i: any) => i.id === beans.id).purchased).toBe(false);
    // Grocery lists record no event.
    expect(await events(alice.user.id)).toEqual(baseline);
  });
});

it('conversation: "what do I cook tomorrow and what is missing from the grocery list?"', async () => {
  const carol = await connectedUser(app);
  const c = carol.client;
  try {
    const today = (await restGet(carol, '/days/today')).date;
    const tomorrow = addDays(today, 1);
    // What the user set up in the app before asking: a recipe, the week's dinners, the list.
    const stew = await carol.user.client.post('/api/v1/meal-templates', { name: 'Lentil stew', ingredients: [{ name: 'Lentils', quantity: 250, unit: 'g', section: 'pantry' }] });
    expect(stew.status, stew.text).toBe(201);

    // "What do I cook tomorrow?": this week's plan, then the week holding tomorrow (tomorrow may be next Monday).
    const thisWeek = await callOk(c, 'nutrition_dinner_plan');
    expect(thisWeek.dinners.map((d: any) => d.date)).toEqual([]);
    expect(thisWeek.generated).toBe(false);
    const generated = await callOk(c, 'nutrition_generate_dinner_plan', { date: tomorrow });
    expect(generated.dinners.map((d: any) => d.date)).toContain(tomorrow);
    const tomorrowDinner = generated.dinners.find((d: any) => d.date === tomorrow);
    // The meal is set where the rule wants it: tomorrow's cook day when tomorrow eats another day's cook.
    const cookDate = tomorrowDinner.eatsMealOf ?? tomorrow;
    await callOk(c, 'nutrition_set_dinner', { date: cookDate, mealTemplateName: 'lentil' });
    const plan = await callOk(c, 'nutrition_dinner_plan', { date: tomorrow });
    expect(plan.dinners.find((d: any) => d.date === tomorrow)).toMatchObject({ meal: 'Lentil stew', mealTemplateId: stew.body.data.id });

    // "What is missing from the grocery list?"
    const list = await callOk(c, 'nutrition_generate_grocery_list', { date: tomorrow });
    const fromPlan = plan.dinners.find((d: any) => d.date === cookDate).isCookDay ? ['Lentils'] : [];
    expect(list.sections.flatMap((s: any) => s.items.map((i: any) => i.name))).toEqual(fromPlan);
    expect(list.missing).toBe(fromPlan.length);

    // "Add rice, I bought it already."
    const added = await callOk(c, 'nutrition_add_grocery_items', { date: tomorrow, items: [{ name: 'Rice', quantity: 1, unit: 'kg', section: 'pantry' }] });
    const tick = await callOk(c, 'nutrition_tick_grocery_item', { date: tomorrow, name: 'rice' });
    expect(tick).toMatchObject({ item: { id: added.added[0].id, name: 'Rice', purchased: true }, missing: fromPlan.length });

    const after = await callOk(c, 'nutrition_grocery_list', { date: tomorrow });
    expect(after.sections.find((s: any) => s.section === 'pantry').items.find((i: any) => i.name === 'Rice')).toMatchObject({ purchased: true, source: 'manual' });
    const rest = await restGet(carol, `/grocery?weekId=${after.weekId}`);
    expect(rest.items.find((i: any) => i.name === 'Rice')).toMatchObject({ id: added.added[0].id, purchased: true, quantity: 1, unit: 'kg' });
  } finally {
    await c.close();
  }
});
