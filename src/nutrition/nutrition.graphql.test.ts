import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectGraphQLError } from '../../test/support/expectations.js';
import { createTemplate, dinnerWeek, freshWeek } from './nutrition.test-helpers.js';

/** The same rules hold on /graphql: another user's records answer NOT_FOUND, bad input VALIDATION_ERROR. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

describe('nutrition over GraphQL', () => {
  it('creates a template and plans a week; a cook day\'s meal covers the next day', async () => {
    const created = await alice.graphql(
      `mutation($i: [IngredientInput!]) { createMealTemplate(name: "Stew", ingredients: $i, servings: 2) { id name ingredients { name quantity unit section } } }`,
      { i: [{ name: 'Potato', quantity: 1, unit: 'kg', section: 'produce' }] },
    );
    expect(created.body.errors).toBeUndefined();
    const template = created.body.data.createMealTemplate;
    expect(template.ingredients).toEqual([{ name: 'Potato', quantity: 1, unit: 'kg', section: 'produce' }]);
    const week = await freshWeek(alice);
    const gen = await alice.graphql(`mutation($w: UUID!) { generateDinnerWeek(weekId: $w) { id isCookDay } }`, { w: week.id });
    const monday = gen.body.data.generateDinnerWeek[0];
    const upd = await alice.graphql(`mutation($p: UUID!, $t: UUID) { updateDinnerPlan(dinnerPlanId: $p, mealTemplateId: $t) { mealTemplateId } }`, { p: monday.id, t: template.id });
    expect(upd.body.data.updateDinnerPlan.mealTemplateId).toBe(template.id);
    const list = await alice.graphql(`mutation($w: UUID!) { generateGroceryList(weekId: $w) { items { name quantity source } } }`, { w: week.id });
    expect(list.body.data.generateGroceryList.items).toEqual([{ name: 'Potato', quantity: 1, source: 'plan' }]);
  });

  it("refuses another user's template, plan, week and list with NOT_FOUND", async () => {
    const template = await createTemplate(alice, { name: 'Private' });
    const week = await freshWeek(alice);
    const [mon] = await dinnerWeek(alice, week.id);
    const list = (await alice.post('/api/v1/grocery/generate', { weekId: week.id })).body.data;
    const bobWeek = await freshWeek(bob);
    const [bobMon] = await dinnerWeek(bob, bobWeek.id);

    expectGraphQLError(await bob.graphql(`query($id: UUID!) { mealTemplate(mealTemplateId: $id) { id } }`, { id: template.id }), 'NOT_FOUND');
    expectGraphQLError(await bob.graphql(`mutation($p: UUID!) { updateDinnerPlan(dinnerPlanId: $p, cooked: true) { id } }`, { p: mon.id }), 'NOT_FOUND');
    const foreign = expectGraphQLError(
      await bob.graphql(`mutation($p: UUID!, $t: UUID) { updateDinnerPlan(dinnerPlanId: $p, mealTemplateId: $t) { id } }`, { p: bobMon.id, t: template.id }),
      'NOT_FOUND',
    );
    expect(foreign.extensions.details.field).toBe('mealTemplateId');
    expectGraphQLError(await bob.graphql(`query($w: UUID!) { groceryList(weekId: $w) { id } }`, { w: week.id }), 'NOT_FOUND');
    expectGraphQLError(await bob.graphql(`mutation($l: UUID!) { addGroceryItem(groceryListId: $l, name: "x") { id } }`, { l: list.id }), 'NOT_FOUND');
    expectGraphQLError(await alice.graphql(`mutation { createMealTemplate(name: "x", servings: 0) { id } }`), 'VALIDATION_ERROR');
  });
});
