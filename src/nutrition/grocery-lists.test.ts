import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createTemplate, dinnerWeek, expectNotFound, expectValidation, freshWeek, mondayAfter, MISSING_ID, setMeal } from './nutrition.test-helpers.js';

let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

/** A week whose three cook days have meals: Monday `a`, Wednesday `b`, Friday `c` (and Sunday `sunday`). */
async function plannedWeek(client: HttpClient, meals: { a?: any; b?: any; c?: any; sunday?: any }, startDate?: string): Promise<any> {
  const week = await freshWeek(client, startDate);
  const [mon, , wed, , fri, , sun] = await dinnerWeek(client, week.id);
  if (meals.a) await setMeal(client, mon.id, meals.a.id);
  if (meals.b) await setMeal(client, wed.id, meals.b.id);
  if (meals.c) await setMeal(client, fri.id, meals.c.id);
  if (meals.sunday) await setMeal(client, sun.id, meals.sunday.id);
  return week;
}

async function generate(client: HttpClient, weekId: string, status: number): Promise<any> {
  const res = await client.post('/api/v1/grocery/generate', { weekId });
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}

const view = (items: any[]) => items.map((i) => [i.name, i.quantity, i.unit, i.section, i.source, i.purchased]);

describe('POST /grocery/generate', () => {
  it('merges the cook days\' ingredients by name and unit (any case), adds quantities, keeps units apart, groups by section', async () => {
    const chili = await createTemplate(alice, {
      name: 'Chili',
      ingredients: [
        { name: 'Onion', quantity: 2, unit: 'pcs', section: 'produce' },
        { name: 'Beans', quantity: 400, unit: 'g', section: 'pantry' },
        { name: 'Salt' },
      ],
    });
    const curry = await createTemplate(alice, {
      name: 'Curry',
      ingredients: [
        { name: 'onion ', quantity: 1, unit: 'PCS', section: 'produce' },
        { name: 'Onion', quantity: 100, unit: 'g', section: 'produce' },
        { name: 'Coconut milk', quantity: 400, unit: 'ml', section: 'pantry' },
        { name: 'salt', unit: '' },
      ],
    });
    const sundayOnly = await createTemplate(alice, { name: 'Roast', ingredients: [{ name: 'Chicken', quantity: 1, unit: 'pcs', section: 'meat' }] });
    const week = await plannedWeek(alice, { a: chili, b: curry, c: chili, sunday: sundayOnly });

    const list = await generate(alice, week.id, 201);
    expect(list.weekId).toBe(week.id);
    expect(view(list.items)).toEqual([
      ['Beans', 800, 'g', 'pantry', 'plan', false],
      ['Coconut milk', 400, 'ml', 'pantry', 'plan', false],
      ['Onion', 100, 'g', 'produce', 'plan', false],
      ['Onion', 5, 'pcs', 'produce', 'plan', false],
      ['Salt', null, '', '', 'plan', false],
    ]);
    // Items as operations.md lists them; the list they belong to (`listId`) is GraphQL's (issue 36, item 6).
    for (const item of list.items) expect(Object.keys(item).sort()).toEqual(['id', 'name', 'purchased', 'quantity', 'section', 'source', 'unit']);
    const linked = await alice.graphql(`{ groceryList(weekId: "${week.id}") { items { listId } } }`);
    expect(linked.body.data.groceryList.items.every((i: any) => i.listId === list.id)).toBe(true);
    expect((await alice.get(`/api/v1/grocery?weekId=${week.id}`)).body.data).toEqual(list);
  });

  it('again refreshes the same list (200): plan items follow the templates, purchased and manual items stay', async () => {
    const soup = await createTemplate(alice, {
      name: 'Soup',
      ingredients: [
        { name: 'Carrot', quantity: 3, unit: 'pcs', section: 'produce' },
        { name: 'Leek', quantity: 1, unit: 'pcs', section: 'produce' },
        { name: 'Stock', quantity: 1, unit: 'l', section: 'pantry' },
      ],
    });
    const week = await plannedWeek(alice, { a: soup });
    const first = await generate(alice, week.id, 201);
    const byName = (items: any[], name: string) => items.find((i: any) => i.name === name);
    const leek = byName(first.items, 'Leek');
    const bought = await alice.patch(`/api/v1/grocery/${first.id}/items/${leek.id}`, { purchased: true });
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body.data).toMatchObject({ id: leek.id, purchased: true, source: 'plan' });
    const manual = await alice.post(`/api/v1/grocery/${first.id}/items`, { name: 'Dish soap', section: 'household' });
    expect(manual.status, manual.text).toBe(201);
    expect(manual.body.data).toMatchObject({ name: 'Dish soap', quantity: null, unit: '', section: 'household', purchased: false, source: 'manual' });

    // The week changes: Monday's soup loses its stock and Wednesday cooks soup too.
    await alice.patch(`/api/v1/meal-templates/${soup.id}`, { ingredients: [{ name: 'Carrot', quantity: 3, unit: 'pcs', section: 'produce' }, { name: 'Leek', quantity: 1, unit: 'pcs', section: 'produce' }] });
    const plans = (await alice.get(`/api/v1/dinner?weekId=${week.id}`)).body.data;
    await setMeal(alice, plans[2].id, soup.id);

    const second = await generate(alice, week.id, 200);
    expect(second.id).toBe(first.id);
    expect(view(second.items)).toEqual([
      ['Dish soap', null, '', 'household', 'manual', false],
      ['Carrot', 6, 'pcs', 'produce', 'plan', false],
      ['Leek', 1, 'pcs', 'produce', 'plan', true],
    ]);
    expect(byName(second.items, 'Carrot').id).toBe(byName(first.items, 'Carrot').id);
    expect(byName(second.items, 'Leek').id).toBe(leek.id);
    const rows = await app.server.orm.em.fork().getConnection().execute('select count(*)::int as n from grocery_lists where week_id = ?', [week.id]);
    expect(rows[0].n).toBe(1);
  });

  it('carries the previous week\'s unpurchased items once (source carried), not purchased ones, not again on refresh', async () => {
    const { client } = await signUp(app.url);
    const rice = await createTemplate(client, { name: 'Rice bowl', ingredients: [{ name: 'Rice', quantity: 500, unit: 'g', section: 'pantry' }, { name: 'Tofu', quantity: 2, unit: 'pcs', section: 'chilled' }] });
    const first = mondayAfter('2035-06-04', 0);
    const week1 = await plannedWeek(client, { a: rice }, first);
    const list1 = await generate(client, week1.id, 201);
    const tofu = list1.items.find((i: any) => i.name === 'Tofu');
    await client.patch(`/api/v1/grocery/${list1.id}/items/${tofu.id}`, { purchased: true });
    await client.post(`/api/v1/grocery/${list1.id}/items`, { name: 'Batteries', quantity: 4, unit: 'pcs' });

    const week2 = await plannedWeek(client, { a: rice }, mondayAfter(first, 1));
    const list2 = await generate(client, week2.id, 201);
    expect(view(list2.items)).toEqual([
      ['Tofu', 2, 'pcs', 'chilled', 'plan', false],
      ['Rice', 500, 'g', 'pantry', 'plan', false],
      ['Rice', 500, 'g', 'pantry', 'carried', false],
      ['Batteries', 4, 'pcs', '', 'carried', false],
    ]);
    const again = await generate(client, week2.id, 200);
    expect(view(again.items)).toEqual(view(list2.items));
    expect(again.items.map((i: any) => i.id).sort()).toEqual(list2.items.map((i: any) => i.id).sort());

    // A week without a previous list carries nothing; a week with no meals has an empty list.
    const lone = await freshWeek(client, mondayAfter(first, 5));
    expect((await generate(client, lone.id, 201)).items).toEqual([]);
  });

  it("refuses a missing, malformed or another user's week", async () => {
    const bobWeek = await freshWeek(bob);
    expectNotFound(await alice.post('/api/v1/grocery/generate', { weekId: bobWeek.id }), 'weekId');
    expectNotFound(await alice.post('/api/v1/grocery/generate', { weekId: MISSING_ID }), 'weekId');
    expectValidation(await alice.post('/api/v1/grocery/generate', { weekId: 'x' }));
    expectValidation(await alice.post('/api/v1/grocery/generate', {}));
    expectNotFound(await bob.get(`/api/v1/grocery?weekId=${bobWeek.id}`));
  });
});

describe('GET /grocery', () => {
  it("answers 404 before the list is generated, for another user's week (naming weekId), and 400 for a malformed id", async () => {
    const week = await freshWeek(alice);
    const res = await alice.get(`/api/v1/grocery?weekId=${week.id}`);
    expectNotFound(res);
    expect(res.body.error.details.resource).toBe('Grocery list');
    await generate(alice, week.id, 201);
    expect((await alice.get(`/api/v1/grocery?weekId=${week.id}`)).status).toBe(200);
    expectNotFound(await bob.get(`/api/v1/grocery?weekId=${week.id}`), 'weekId');
    expectValidation(await alice.get('/api/v1/grocery?weekId=abc'));
    expectValidation(await alice.get('/api/v1/grocery'));
  });
});

describe('grocery items', () => {
  it("answer 404 for another user's list or item, an item of another list, a missing item; 400 for malformed ids and bodies; nothing changes", async () => {
    const t = await createTemplate(alice, { name: 'Oats', ingredients: [{ name: 'Oats', quantity: 1, unit: 'kg', section: 'pantry' }] });
    const aliceList = await generate(alice, (await plannedWeek(alice, { a: t })).id, 201);
    const aliceItem = aliceList.items[0];
    const otherAliceList = await generate(alice, (await plannedWeek(alice, { a: t })).id, 201);
    const bobList = await generate(bob, (await freshWeek(bob)).id, 201);

    expectNotFound(await bob.patch(`/api/v1/grocery/${aliceList.id}/items/${aliceItem.id}`, { purchased: true }));
    expectNotFound(await bob.patch(`/api/v1/grocery/${bobList.id}/items/${aliceItem.id}`, { purchased: true }));
    expectNotFound(await bob.post(`/api/v1/grocery/${aliceList.id}/items`, { name: 'Spam' }));
    expectNotFound(await alice.patch(`/api/v1/grocery/${otherAliceList.id}/items/${aliceItem.id}`, { purchased: true }));
    expectNotFound(await alice.patch(`/api/v1/grocery/${aliceList.id}/items/${MISSING_ID}`, { purchased: true }));
    expectNotFound(await alice.post(`/api/v1/grocery/${MISSING_ID}/items`, { name: 'Milk' }));
    expectValidation(await alice.patch(`/api/v1/grocery/${aliceList.id}/items/not-a-uuid`, { purchased: true }));
    expectValidation(await alice.patch(`/api/v1/grocery/not-a-uuid/items/${aliceItem.id}`, { purchased: true }));
    expectValidation(await alice.patch(`/api/v1/grocery/${aliceList.id}/items/${aliceItem.id}`, { purchased: 'true' }));
    expectValidation(await alice.patch(`/api/v1/grocery/${aliceList.id}/items/${aliceItem.id}`, {}));
    expectValidation(await alice.post(`/api/v1/grocery/${aliceList.id}/items`, {}), 'name');
    expectValidation(await alice.post(`/api/v1/grocery/${aliceList.id}/items`, { name: ' ' }), 'name');
    expectValidation(await alice.post(`/api/v1/grocery/${aliceList.id}/items`, { name: 'Milk', quantity: 0 }), 'quantity');
    expectValidation(await alice.post(`/api/v1/grocery/${aliceList.id}/items`, { name: 'Milk', quantity: '1' }));

    const after = (await alice.get(`/api/v1/grocery?weekId=${aliceList.weekId}`)).body.data;
    expect(after).toEqual(aliceList);
    expect((await bob.get(`/api/v1/grocery?weekId=${bobList.weekId}`)).body.data.items).toEqual([]);
  });

  it('PATCH purchased flips back and forth; a manual item takes quantity, unit and section', async () => {
    const list = await generate(alice, (await freshWeek(alice)).id, 201);
    const added = await alice.post(`/api/v1/grocery/${list.id}/items`, { name: ' Milk ', quantity: 2, unit: 'l', section: 'dairy' });
    expect(added.body.data).toMatchObject({ name: 'Milk', quantity: 2, unit: 'l', section: 'dairy', source: 'manual', purchased: false });
    const on = await alice.patch(`/api/v1/grocery/${list.id}/items/${added.body.data.id}`, { purchased: true });
    expect(on.body.data.purchased).toBe(true);
    const off = await alice.patch(`/api/v1/grocery/${list.id}/items/${added.body.data.id}`, { purchased: false });
    expect(off.body.data.purchased).toBe(false);
  });
});
