import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { allOutboxEvents } from '../../test/support/expectations.js';
import { signUp } from '../../test/support/http-client.js';
import { ACHIEVEMENTS, achievementId } from './achievement-catalog.seed.js';
import { SHOP_ITEMS, shopItemId } from './shop-catalog.seed.js';
import { completeTask, earn, expectNotFound, expectValidation, farDays, MISSING_ID, outboxEvents, stats } from './gamification.test-helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const POTION = shopItemId('energy_potion'); // 5 coins
const CAP = shopItemId('leather_cap'); // 10 coins

describe('the shop', () => {
  it('lists the seeded items with their price and whether the coins cover it', async () => {
    const { client } = await signUp(app.url);
    await earn(client, 120); // 12 coins
    const res = await client.get('/api/v1/gamification/shop');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(SHOP_ITEMS.length);
    expect(res.body.data[0]).toEqual({
      id: POTION, key: 'energy_potion', name: 'Energy Potion', description: expect.any(String), slot: 'consumable', price: 5, affordable: true,
    });
    expect(res.body.data.filter((i: any) => i.affordable).map((i: any) => i.key)).toEqual(['energy_potion', 'leather_cap']);
  });

  it('20 concurrent purchases of an item the coins cover 3 times: 3 succeed, 17 answer 400, coins never below 0', async () => {
    const { client, id } = await signUp(app.url);
    await earn(client, 160); // 16 coins: 3 potions of 5, 1 left
    expect((await stats(client)).coins).toBe(16);
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {})));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 400);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const a of refused) expect(a.body).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect(ok.map((a) => a.body.data.coins).sort((x, y) => x - y)).toEqual([1, 6, 11]);
    expect(ok[0]!.body.data).toMatchObject({ item: { id: POTION, price: 5 }, price: 5 });
    expect(ok[0]!.body.data.purchasedAt).toMatch(ISO);
    const after = await stats(client);
    expect(after).toMatchObject({ coins: 1, coinsSpent: 15, xp: 160 });
    const rows = await app.server.orm.em.fork().getConnection().execute('select count(*)::int as n from gamification_purchases where user_id = ?', [id]);
    expect(rows[0].n).toBe(3);
    // first_purchase unlocked exactly once despite the race.
    expect((await outboxEvents(app, id, 'achievement_unlocked')).filter((e) => e.data.achievementKey === 'first_purchase')).toHaveLength(1);
  });

  it('answers 400 when the coins are short and changes nothing', async () => {
    const { client } = await signUp(app.url);
    await earn(client, 90); // 9 coins
    const res = await client.post(`/api/v1/gamification/shop/${CAP}/purchase`, {});
    expectValidation(res);
    expect(await stats(client)).toMatchObject({ coins: 9, coinsSpent: 0 });
    expect((await client.get('/api/v1/gamification/character')).body.data.equipment).toEqual([]);
  });

  it('the character shows the stats, the equipment bought and an avatar description', async () => {
    const { client } = await signUp(app.url);
    await earn(client, 200);
    expect((await client.post(`/api/v1/gamification/shop/${CAP}/purchase`, {})).status).toBe(200);
    expect((await client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {})).status).toBe(200);
    expect((await client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {})).status).toBe(200);
    const res = await client.get('/api/v1/gamification/character');
    expect(res.status).toBe(200);
    expect(res.body.data.stats).toMatchObject({ xp: 200, level: 2, coins: 0, coinsSpent: 20, streaks: { checklist: 0, training: 0 } });
    expect(res.body.data.equipment).toEqual([
      { itemId: POTION, key: 'energy_potion', name: 'Energy Potion', slot: 'consumable', quantity: 2 },
      { itemId: CAP, key: 'leather_cap', name: 'Leather Cap', slot: 'head', quantity: 1 },
    ]);
    expect(res.body.data.avatar).toBe('A level 2 novice equipped with Leather Cap.');
  });

  it('bad input: a non-uuid item id is 400, an unknown one 404', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post('/api/v1/gamification/shop/not-a-uuid/purchase', {}));
    expectNotFound(await client.post(`/api/v1/gamification/shop/${MISSING_ID}/purchase`, {}));
    expect((await client.withoutCookie().get('/api/v1/gamification/stats')).status).toBe(401);
    expect((await client.withoutCookie().post(`/api/v1/gamification/shop/${POTION}/purchase`, {})).status).toBe(401);
  });
});

describe('achievements', () => {
  it('lists the whole catalog (at least 20) with unlockedAt set only for the unlocked, each unlocked once', async () => {
    const { client, id } = await signUp(app.url);
    const before = (await client.get('/api/v1/gamification/achievements')).body.data;
    expect(ACHIEVEMENTS.length).toBeGreaterThanOrEqual(20);
    expect(before).toHaveLength(ACHIEVEMENTS.length);
    expect(before.every((a: any) => a.unlockedAt === null)).toBe(true);
    expect(Object.keys(before[0]).sort()).toEqual(['description', 'id', 'key', 'name', 'unlockedAt']);

    await completeTask(client, 30);
    await completeTask(client, 30);
    const after = (await client.get('/api/v1/gamification/achievements')).body.data;
    const unlocked = after.filter((a: any) => a.unlockedAt !== null);
    expect(unlocked.map((a: any) => a.key)).toEqual(['first_task']);
    expect(unlocked[0].unlockedAt).toMatch(ISO);
    expect((await stats(client)).achievementCount).toBe(1);

    const events = await outboxEvents(app, id, 'achievement_unlocked');
    expect(events.map((e) => e.data)).toEqual([{ achievementId: achievementId('first_task'), achievementKey: 'first_task', unlockedAt: unlocked[0].unlockedAt }]);
  });

  it('100 km of cardio and a first book finished unlock theirs', async () => {
    const { client } = await signUp(app.url);
    const days = await farDays(client);
    await client.post('/api/v1/cardio/sessions', { dayId: days[0].id, type: 'bike', duration: 200, distance: 60 });
    const keys = async () => (await client.get('/api/v1/gamification/achievements')).body.data.filter((a: any) => a.unlockedAt).map((a: any) => a.key);
    expect(await keys()).toEqual(['first_cardio']);
    await client.post('/api/v1/cardio/sessions', { dayId: days[1].id, type: 'bike', duration: 150, distance: 40 });
    expect(await keys()).toEqual(['first_cardio', 'cardio_100km']);

    const book = (await client.post('/api/v1/books', { title: 'Short', author: 'A', totalPages: 50 })).body.data;
    expect((await client.patch(`/api/v1/books/${book.id}`, { currentPage: 49 })).status).toBe(200);
    expect(await keys()).not.toContain('first_book_finished');
    expect((await client.patch(`/api/v1/books/${book.id}`, { currentPage: 50 })).status).toBe(200);
    expect(await keys()).toContain('first_book_finished');
  });
});

describe('isolation', () => {
  it("stats, achievements and purchases never mix users; another user's task earns nothing", async () => {
    const alice = await signUp(app.url);
    const bob = await signUp(app.url);
    await earn(alice.client, 100);
    expect((await alice.client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {})).status).toBe(200);
    const aliceTask = (await alice.client.post('/api/v1/tasks', { title: 'mine', timebox: 120 })).body.data;

    expectNotFound(await bob.client.patch(`/api/v1/tasks/${aliceTask.id}`, { status: 'done' }));
    expect(await stats(bob.client)).toMatchObject({ xp: 0, level: 1, coins: 0, coinsSpent: 0, achievementCount: 0 });
    expect((await bob.client.get('/api/v1/gamification/character')).body.data.equipment).toEqual([]);
    expect((await bob.client.get('/api/v1/gamification/achievements')).body.data.some((a: any) => a.unlockedAt)).toBe(false);
    expect((await bob.client.get('/api/v1/gamification/shop')).body.data.some((i: any) => i.affordable)).toBe(false);
    expectValidation(await bob.client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {}));
    expect(await allOutboxEvents(app, bob.id)).toEqual([]);
    expect(await stats(alice.client)).toMatchObject({ xp: 100, level: 2, coins: 5, coinsSpent: 5 });
  });
});

describe('GraphQL', () => {
  it('answers the same stats as REST', async () => {
    const { client } = await signUp(app.url);
    await earn(client, 40);
    const res = await client.graphql('{ gamificationStats { xp level xpToNextLevel coins streaks { checklist training } achievementCount } }');
    expect(res.body.data).toEqual({
      gamificationStats: { xp: 40, level: 1, xpToNextLevel: 60, coins: 4, streaks: { checklist: 0, training: 0 }, achievementCount: 1 },
    });
  });
});

describe('read cost', () => {
  async function gamificationStatements(client: any): Promise<number[]> {
    const counts: number[] = [];
    for (const path of ['stats', 'character', 'achievements', 'shop']) {
      const recorder = recordStatements();
      const res = await client.get(`/api/v1/gamification/${path}`);
      recorder.stop();
      expect(res.status).toBe(200);
      counts.push(recorder.statements.filter((sql) => /gamification_|user_settings|from "?days"?|training_sessions/.test(sql)).length);
    }
    return counts;
  }

  it('each read costs the same statements with 1 or many purchases and achievements', async () => {
    const small = await signUp(app.url);
    await earn(small.client, 50);
    expect((await small.client.post(`/api/v1/gamification/shop/${POTION}/purchase`, {})).status).toBe(200);
    const large = await signUp(app.url);
    await earn(large.client, 400);
    for (const item of [POTION, CAP, shopItemId('wooden_sword'), shopItemId('leather_cap')]) {
      expect((await large.client.post(`/api/v1/gamification/shop/${item}/purchase`, {})).status).toBe(200);
    }
    const [few, many] = [await gamificationStatements(small.client), await gamificationStatements(large.client)];
    expect(many).toEqual(few);
    expect(few).toEqual([5, 6, 1, 2]);
  });
});
