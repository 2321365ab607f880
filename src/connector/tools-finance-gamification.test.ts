import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { sql } from '../../test/support/db.js';
import { addDays } from '../core/dates.js';
import { shopItemId } from '../gamification/shop-catalog.seed.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 25: the finance (area money) and gamification (area planning) tools, on the real service. */
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

async function account(user: typeof alice, body: Record<string, unknown>): Promise<any> {
  const res = await user.user.client.post('/api/v1/accounts', { type: 'checking', balance: 0, currency: 'EUR', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const events = async (userId: string) =>
  (await sql(app.databaseUrl, 'select event, data from event_outbox where user_id = $1 order by occurred_at, id', [userId])) as { event: string; data: any }[];

describe('finance', () => {
  let checking: any;
  let card: any;
  let today: string;

  it('conversation: "how much did I spend on restaurants this month?" across two accounts, last month left out', async () => {
    const c = alice.client;
    checking = await account(alice, { name: 'Checking', balance: 1000 });
    card = await account(alice, { name: 'Credit Card', type: 'credit_card' });
    const before = (await events(alice.user.id)).length;

    // The assistant records what the person tells it, naming the accounts.
    const lunch = await callOk(c, 'finance_add_transaction', { accountName: 'checking', amount: -42.5, description: 'Lunch at Luigi', category: 'Restaurants' });
    today = lunch.date;
    expect(lunch).toMatchObject({ accountId: checking.id, accountName: 'Checking', currency: 'EUR', amount: -42.5, category: 'restaurants', recurring: false, balance: 957.5 });
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const lastMonth = addDays(`${today.slice(0, 7)}-01`, -1);
    await callOk(c, 'finance_add_transaction', { accountName: 'credit', amount: -17.25, category: 'restaurants', date: today });
    await callOk(c, 'finance_add_transaction', { accountId: card.id, amount: -60, category: 'groceries' });
    await callOk(c, 'finance_add_transaction', { accountName: 'Checking', amount: -99, category: 'restaurants', date: lastMonth });
    await callOk(c, 'finance_add_transaction', { accountName: 'Checking', amount: 2000, category: 'salary', recurring: true });
    await callOk(c, 'finance_add_transaction', { accountName: 'Checking', amount: -3.1 });

    const summary = await callOk(c, 'finance_spending_summary', {});
    expect(summary.startDate).toBe(`${today.slice(0, 7)}-01`);
    expect(summary.endDate.slice(0, 7)).toBe(today.slice(0, 7));
    expect(addDays(summary.endDate, 1).slice(8)).toBe('01');
    expect(summary.currencies).toEqual([
      {
        currency: 'EUR',
        spent: 122.85,
        count: 4,
        categories: [
          { category: 'groceries', spent: 60, count: 1 },
          { category: 'restaurants', spent: 59.75, count: 2 },
          { category: null, spent: 3.1, count: 1 },
        ],
        categoriesOmitted: 0,
      },
    ]);
    // Only restaurants, as the person asked.
    const restaurants = await callOk(c, 'finance_spending_summary', { category: 'RESTAURANTS' });
    expect(restaurants.currencies).toEqual([{ currency: 'EUR', spent: 59.75, count: 2, categories: [{ category: 'restaurants', spent: 59.75, count: 2 }], categoriesOmitted: 0 }]);
    // Last month's dinner is there when asked for.
    const previous = await callOk(c, 'finance_spending_summary', { endDate: lastMonth });
    expect(previous.startDate).toBe(`${lastMonth.slice(0, 7)}-01`);
    expect(previous.currencies[0]).toMatchObject({ spent: 99, categories: [{ category: 'restaurants', spent: 99, count: 1 }] });

    // Transactions record no event (the catalog has none for finance), and they earn no XP.
    expect((await events(alice.user.id)).length).toBe(before);
  });

  it('finance_accounts: the balances as the app computes them, filtered and paginated', async () => {
    const all = await callOk(alice.client, 'finance_accounts', {});
    expect(all.meta).toEqual({ page: 1, limit: 50, total: 2 });
    expect(all.accounts).toEqual([
      { id: checking.id, name: 'Checking', type: 'checking', currency: 'EUR', balance: 1000 - 42.5 - 99 + 2000 - 3.1, isActive: true },
      { id: card.id, name: 'Credit Card', type: 'credit_card', currency: 'EUR', balance: -77.25, isActive: true },
    ]);
    const rest = (await alice.user.client.get(`/api/v1/accounts/${checking.id}`)).body.data;
    expect(all.accounts[0].balance).toBe(rest.balance);
    expect((await callOk(alice.client, 'finance_accounts', { type: 'CREDIT_CARD', limit: 1 })).accounts.map((a: any) => a.name)).toEqual(['Credit Card']);
    expect((await callError(alice.client, 'finance_accounts', { limit: 0 })).code).toBe('VALIDATION_ERROR');
    // Another user sees only their own (none).
    expect(await callOk(bob.client, 'finance_accounts', {})).toEqual({ accounts: [], meta: { page: 1, limit: 50, total: 0 } });
  });

  it('finance_add_transaction: refuses bad amounts and unknown or ambiguous names; another user’s account is NOT_FOUND and moves nothing', async () => {
    const c = alice.client;
    const cents = await callError(c, 'finance_add_transaction', { accountName: 'Checking', amount: -1.005 });
    expect(cents).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['amount'] }] } });
    const long = await callError(c, 'finance_add_transaction', { accountName: 'Checking', amount: -1, category: 'x'.repeat(101) });
    expect(long.details.errors).toEqual([{ path: ['category'], message: 'category must be at most 100 characters' }]);
    expect((await callError(c, 'finance_add_transaction', { amount: -1 })).code).toBe('VALIDATION_ERROR');
    expect((await callError(c, 'finance_add_transaction', { accountName: 'Checking', amount: -1, date: '2027-02-30' })).details.errors[0].path).toEqual(['date']);
    const unknown = await callError(c, 'finance_add_transaction', { accountName: 'Savings', amount: -1 });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates.map((a: any) => a.name)).toEqual(['Checking', 'Credit Card']);
    const ambiguous = await callError(c, 'finance_add_transaction', { accountName: 'c', amount: -1 });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');

    const stranger = await callError(bob.client, 'finance_add_transaction', { accountId: checking.id, amount: -500 });
    expect(stranger.code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'finance_add_transaction', { accountName: 'Checking', amount: -500 })).code).toBe('NOT_FOUND');
    const [row] = await sql(app.databaseUrl, 'select balance::text as balance, (select count(*)::int from finance_transactions where account_id = $1) as n from finance_accounts where id = $1', [checking.id]);
    expect(row).toEqual({ balance: '2855.40', n: 4 });
  });

  it('finance_transactions: newest first over a range, an account by name and a category; bounded pages; another user’s account is NOT_FOUND', async () => {
    const c = alice.client;
    const restaurants = await callOk(c, 'finance_transactions', { category: 'Restaurants' });
    expect(restaurants.meta.total).toBe(3);
    expect(restaurants.transactions.map((t: any) => t.amount)).toEqual([-17.25, -42.5, -99]);
    expect(restaurants.transactions[2]).toMatchObject({ accountName: 'Checking', currency: 'EUR', category: 'restaurants', description: null });
    const thisMonth = await callOk(c, 'finance_transactions', { accountName: 'checking', startDate: `${today.slice(0, 7)}-01`, endDate: today, limit: 2 });
    expect(thisMonth.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect(thisMonth.transactions.every((t: any) => t.accountId === checking.id && t.date >= `${today.slice(0, 7)}-01`)).toBe(true);
    expect((await callOk(c, 'finance_transactions', { accountId: card.id, limit: 500 })).meta).toEqual({ page: 1, limit: 100, total: 2 });

    const backwards = await callError(c, 'finance_transactions', { startDate: '2027-02-01', endDate: '2027-01-01' });
    expect(backwards).toMatchObject({ code: 'VALIDATION_ERROR', message: 'startDate must not be after endDate' });
    expect((await callError(bob.client, 'finance_transactions', { accountId: checking.id })).code).toBe('NOT_FOUND');
    expect((await callOk(bob.client, 'finance_transactions', {})).transactions).toEqual([]);
  });

  it('finance_spending_summary: one entry per currency; refuses a range over a year; another user’s account is NOT_FOUND', async () => {
    const { client } = bob;
    const usd = await account(bob, { name: 'Dollars', currency: 'USD' });
    const eur = await account(bob, { name: 'Euros' });
    await callOk(client, 'finance_add_transaction', { accountId: usd.id, amount: -10, category: 'taxi', date: '2027-03-05' });
    await callOk(client, 'finance_add_transaction', { accountId: eur.id, amount: -20.5, category: 'taxi', date: '2027-03-06' });
    await callOk(client, 'finance_add_transaction', { accountId: eur.id, amount: -1, category: 'taxi', date: '2027-04-01' });
    const march = await callOk(client, 'finance_spending_summary', { startDate: '2027-03-01', endDate: '2027-03-31' });
    expect(march).toEqual({
      startDate: '2027-03-01',
      endDate: '2027-03-31',
      currencies: [
        { currency: 'EUR', spent: 20.5, count: 1, categories: [{ category: 'taxi', spent: 20.5, count: 1 }], categoriesOmitted: 0 },
        { currency: 'USD', spent: 10, count: 1, categories: [{ category: 'taxi', spent: 10, count: 1 }], categoriesOmitted: 0 },
      ],
    });
    expect((await callOk(client, 'finance_spending_summary', { startDate: '2027-03-01', endDate: '2027-03-31', accountName: 'dollars' })).currencies.map((x: any) => x.currency)).toEqual(['USD']);

    const tooLong = await callError(client, 'finance_spending_summary', { startDate: '2026-01-01', endDate: '2027-01-02' });
    expect(tooLong).toMatchObject({ code: 'VALIDATION_ERROR', message: 'The range must cover at most 366 days' });
    expect((await callError(client, 'finance_spending_summary', { startDate: '2027-01-01', endDate: '2027-01-01', accountId: checking.id })).code).toBe('NOT_FOUND');
  });
});

describe('gamification', () => {
  it('conversation: earn coins by finishing tasks, look at the shop, buy an item, see the coins spent', async () => {
    const c = alice.client;
    for (const title of ['Write the report', 'Clean the garage']) {
      const task = await callOk(c, 'tasks_create', { title, timebox: 120 });
      expect((await callOk(c, 'tasks_update_status', { taskId: task.id, status: 'done' })).status).toBe('done');
    }
    const stats = await callOk(c, 'gamification_stats', {});
    expect(stats).toMatchObject({ xp: 80, level: 1, xpToNextLevel: 20, nextLevelAt: 100, coins: 8, coinsSpent: 0, streaks: { checklist: 0, training: 0 }, equipment: [] });
    expect(stats.achievementsUnlocked).toBe(1); // first_task

    const shop = await callOk(c, 'gamification_shop', { affordableOnly: true });
    expect(shop).toEqual({ coins: 8, items: [{ id: shopItemId('energy_potion'), name: 'Energy Potion', description: expect.any(String), slot: 'consumable', price: 5, affordable: true }] });

    const bought = await callOk(c, 'gamification_purchase', { itemName: 'potion' });
    expect(bought).toMatchObject({ itemId: shopItemId('energy_potion'), itemName: 'Energy Potion', price: 5, coins: 3 });
    expect(Date.parse(bought.purchasedAt)).toBeGreaterThan(Date.now() - 60_000);

    const after = await callOk(c, 'gamification_stats', {});
    expect(after).toMatchObject({ xp: 80, coins: 3, coinsSpent: 5, achievementsUnlocked: 2, equipment: [{ name: 'Energy Potion', slot: 'consumable', quantity: 1 }] });
    expect(after.avatar).toContain('level 1');
    const rest = (await alice.user.client.get('/api/v1/gamification/stats')).body.data;
    expect(rest).toMatchObject({ coins: 3, coinsSpent: 5 });

    // The purchase recorded its event: the first purchase unlocks "Shopper".
    const unlocked = (await events(alice.user.id)).filter((e) => e.event === 'achievement_unlocked').map((e) => e.data.achievementKey);
    expect(unlocked).toEqual(['first_task', 'first_purchase']);
  });

  it('gamification_purchase: short coins is the service’s VALIDATION_ERROR and changes nothing; unknown items are NOT_FOUND', async () => {
    const short = await callError(alice.client, 'gamification_purchase', { itemName: 'Leather Cap' });
    expect(short).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'This item costs 10 coins; you have 3',
      details: { rule: 'insufficient_coins', errors: [{ path: ['itemId'], message: 'This item costs 10 coins; you have 3' }] },
    });
    expect(await callOk(alice.client, 'gamification_stats', {})).toMatchObject({ coins: 3, coinsSpent: 5 });
    // Another user has no coins of alice's: the same item is short for bob, and an unknown id is NOT_FOUND.
    expect((await callError(bob.client, 'gamification_purchase', { itemId: shopItemId('energy_potion') })).details.rule).toBe('insufficient_coins');
    expect((await callError(bob.client, 'gamification_purchase', { itemId: MISSING_ID })).code).toBe('NOT_FOUND');
    const unknown = await callError(bob.client, 'gamification_purchase', { itemName: 'Laser Sword' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates).toHaveLength(10);
    expect((await callError(bob.client, 'gamification_purchase', { itemName: 'sword' })).code).toBe('AMBIGUOUS_NAME');
    expect((await callError(bob.client, 'gamification_purchase', { itemId: 'not-a-uuid' })).code).toBe('VALIDATION_ERROR');
    expect((await events(bob.user.id)).filter((e) => e.event === 'achievement_unlocked')).toEqual([]);
  });

  it('gamification_achievements and gamification_shop: each user’s own state; bad arguments refused', async () => {
    const mine = await callOk(alice.client, 'gamification_achievements', { status: 'unlocked' });
    expect(mine.achievements.map((a: any) => a.key)).toEqual(['first_task', 'first_purchase']);
    expect(mine.unlocked).toBe(2);
    expect(mine.total).toBeGreaterThan(20);
    const locked = await callOk(alice.client, 'gamification_achievements', { status: 'locked' });
    expect(locked.achievements).toHaveLength(mine.total - 2);
    expect(locked.achievements.every((a: any) => a.unlockedAt === null)).toBe(true);
    const theirs = await callOk(bob.client, 'gamification_achievements', {});
    expect(theirs.unlocked).toBe(0);
    expect(theirs.achievements).toHaveLength(mine.total);
    expect((await callError(bob.client, 'gamification_achievements', { status: 'done' })).code).toBe('VALIDATION_ERROR');

    const shop = await callOk(bob.client, 'gamification_shop', {});
    expect(shop.coins).toBe(0);
    expect(shop.items).toHaveLength(10);
    expect(shop.items.some((i: any) => i.affordable)).toBe(false);
    expect((await callError(bob.client, 'gamification_shop', { affordableOnly: 'yes' })).code).toBe('VALIDATION_ERROR');
    expect(await callOk(bob.client, 'gamification_stats', {})).toMatchObject({ xp: 0, coins: 0, achievementsUnlocked: 0, equipment: [] });
  });
});
