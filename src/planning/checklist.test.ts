import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import {
  CORE_KEYS,
  MISSING_ID,
  NORMAL_KEYS,
  countRows,
  expectGraphQLError,
  expectNotFound,
  expectValidation,
  firstDay,
  outboxEvents,
} from './planning.test-helpers.js';

let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

const BOOK_ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

/** A value each key accepts (undefined: the key carries none). */
const VALUES: Record<string, unknown> = { WATER: 500, MEDITATION: 15, READING: BOOK_ID, WEIGHT_LOG: 72.4 };

async function toggle(client: HttpClient, dayId: string, key: string, value?: unknown) {
  return client.post(`/api/v1/checklist/${dayId}/toggle/${key}`, value === undefined ? undefined : { value });
}

async function fresh(): Promise<{ client: HttpClient; id: string; day: any }> {
  const { client, id } = await signUp(app.url);
  return { client, id, day: await firstDay(client) };
}

describe('POST /checklist/:dayId/toggle/:key', () => {
  it('toggles each of the 10 keys and WEIGHT_LOG on and off again', async () => {
    const { client, day } = await fresh();
    for (const key of [...NORMAL_KEYS, 'WEIGHT_LOG']) {
      const on = await toggle(client, day.id, key, VALUES[key]);
      expect(on.status, on.text).toBe(200);
      expect(on.body.data).toMatchObject({ key, completed: true, value: VALUES[key] ?? null });
      expect(new Date(on.body.data.completedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      const off = await toggle(client, day.id, key);
      expect(off.status, off.text).toBe(200);
      expect(off.body.data).toMatchObject({ key, completed: false, value: null, completedAt: null });
    }
    const list = await client.get(`/api/v1/checklist/${day.id}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: any) => i.key)).toEqual([...NORMAL_KEYS, 'WEIGHT_LOG']);
    expect(list.body.data.every((i: any) => !i.completed)).toBe(true);
    // WEIGHT_LOG is tracked but never required.
    expect(list.body.data.find((i: any) => i.key === 'WEIGHT_LOG').required).toBe(false);
  });

  it('keeps one row per day and key however often it is toggled', async () => {
    const { client, id, day } = await fresh();
    for (let i = 0; i < 4; i++) await toggle(client, day.id, 'WEIGHT_LOG', i % 2 ? undefined : 80);
    // Concurrent toggles of one day wait for each other (the day row is locked), none is refused.
    const racing = await Promise.all(Array.from({ length: 4 }, () => toggle(client, day.id, 'GYM')));
    expect(racing.map((r) => r.status), racing.map((r) => r.text).join('\n')).toEqual([200, 200, 200, 200]);
    expect(racing.filter((r) => r.body.data.completed)).toHaveLength(2);
    expect(await countRows(app, 'checklist_items', id)).toBe(7 * 10 + 1);
    // 4 serialized flips of GYM end where they started.
    const gym = (await client.get(`/api/v1/checklist/${day.id}`)).body.data.find((i: any) => i.key === 'GYM');
    expect(gym.completed).toBe(false);
  });

  it('checks values: WATER millilitres, MEDITATION minutes, READING a book id, WEIGHT_LOG kilograms', async () => {
    const { client, day } = await fresh();
    const refused: [string, unknown][] = [
      ['WATER', 0],
      ['WATER', -250],
      ['WATER', '500'],
      ['WATER', 20_001],
      ['WATER', true],
      ['MEDITATION', 0],
      ['MEDITATION', 10.5],
      ['MEDITATION', '10'],
      ['MEDITATION', 1441],
      ['READING', 'not-a-uuid'],
      ['READING', 42],
      ['READING', { bookId: BOOK_ID }],
      ['WEIGHT_LOG', 0],
      ['WEIGHT_LOG', -70],
      ['WEIGHT_LOG', '70'],
      ['WEIGHT_LOG', 1001],
      ['WATER', [500]],
    ];
    for (const [key, value] of refused) expectValidation(await toggle(client, day.id, key, value), 'value');
    const edges: [string, unknown][] = [
      ['WATER', 0.5],
      ['WATER', 20_000],
      ['MEDITATION', 1],
      ['MEDITATION', 1440],
      ['WEIGHT_LOG', 1000],
    ];
    for (const [key, value] of edges) {
      const on = await toggle(client, day.id, key, value);
      expect(on.status, `${key}=${value}: ${on.text}`).toBe(200);
      expect(on.body.data.value).toEqual(value);
      await toggle(client, day.id, key);
    }
    // Nothing was left done by the refused toggles.
    const list = await client.get(`/api/v1/checklist/${day.id}`);
    expect(list.body.data.filter((i: any) => i.completed)).toEqual([]);
  });

  it('refuses a value on the keys that carry none (400) and leaves the item as it was', async () => {
    const { client, day } = await fresh();
    for (const key of ['MAKE_BED', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'JOURNAL', 'PERIMETER']) {
      expectValidation(await toggle(client, day.id, key, 1), 'value');
      expectValidation(await toggle(client, day.id, key, 'x'), 'value');
    }
    const list = await client.get(`/api/v1/checklist/${day.id}`);
    expect(list.body.data.filter((i: any) => i.completed)).toEqual([]);
    // Without a value (or with null) these keys toggle fine.
    expect((await toggle(client, day.id, 'GYM', null)).body.data.completed).toBe(true);
  });

  it('refuses an unknown or lower-case key, a bad day id, and answers 404 for an unknown day', async () => {
    const { client, day } = await fresh();
    expectValidation(await toggle(client, day.id, 'SWIM'), 'key');
    expectValidation(await toggle(client, day.id, 'water'), 'key');
    expectValidation(await toggle(client, 'nope', 'WATER'), 'dayId');
    expectNotFound(await toggle(client, MISSING_ID, 'WATER'));
    expectNotFound(await client.get(`/api/v1/checklist/${MISSING_ID}`));
    expectValidation(await client.get('/api/v1/checklist/nope'), 'dayId');
  });

  it('records checklist_completed {dayId, itemKey, completedAt} each time an item becomes done, never when undone', async () => {
    const { client, id, day } = await fresh();
    await toggle(client, day.id, 'WATER', 300); // done
    await toggle(client, day.id, 'WATER'); // undone
    await toggle(client, day.id, 'WATER', 400); // done again
    await toggle(client, day.id, 'WEIGHT_LOG', 70);
    const events = await outboxEvents(app, id, 'checklist_completed');
    expect(events.map((e) => [e.data.itemKey, e.data.dayId])).toEqual([
      ['WATER', day.id],
      ['WATER', day.id],
      ['WEIGHT_LOG', day.id],
    ]);
    for (const e of events) {
      expect(Object.keys(e.data).sort()).toEqual(['completedAt', 'dayId', 'itemKey']);
      expect(new Date(e.data.completedAt as string).toISOString()).toBe(e.data.completedAt);
    }
  });

  it('marks the day completed and records day_completed once when all 10 items are done', async () => {
    const { client, id, day } = await fresh();
    for (const key of NORMAL_KEYS.slice(0, 9)) await toggle(client, day.id, key, VALUES[key]);
    expect((await client.get(`/api/v1/days/${day.id}`)).body.data.completed).toBe(false);
    expect(await outboxEvents(app, id, 'day_completed')).toEqual([]);

    await toggle(client, day.id, 'PERIMETER');
    const done = await client.get(`/api/v1/days/${day.id}`);
    expect(done.body.data.completed).toBe(true);
    expect(done.body.data.completedAt).toEqual(expect.any(String));
    // An optional item after completion records no second day_completed.
    await toggle(client, day.id, 'WEIGHT_LOG', 71);
    await toggle(client, day.id, 'WEIGHT_LOG');
    const events = await outboxEvents(app, id, 'day_completed');
    expect(events.map((e) => e.data)).toEqual([{ dayId: day.id, completedAt: done.body.data.completedAt }]);

    // Undoing a required item reopens the day.
    await toggle(client, day.id, 'GYM');
    expect((await client.get(`/api/v1/days/${day.id}`)).body.data).toMatchObject({ completed: false, completedAt: null });
    // Other days of the week were untouched.
    const week = await client.get(`/api/v1/weeks/${day.date}`);
    expect(week.body.data.days.slice(1).every((d: any) => !d.completed)).toBe(true);
  });

  it('in minimum mode the 3 core items complete the day', async () => {
    const { client, id, day } = await fresh();
    await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    await toggle(client, day.id, 'MAKE_BED');
    await toggle(client, day.id, 'WATER', 250);
    expect((await client.get(`/api/v1/days/${day.id}`)).body.data.completed).toBe(false);
    await toggle(client, day.id, 'PERIMETER');
    expect((await client.get(`/api/v1/days/${day.id}`)).body.data.completed).toBe(true);
    expect(await outboxEvents(app, id, 'day_completed')).toHaveLength(1);
  });

  it('switching mode can complete the day, and switching back reopens it', async () => {
    const { client, id, day } = await fresh();
    for (const key of CORE_KEYS) await toggle(client, day.id, key, VALUES[key]);
    expect((await client.get(`/api/v1/days/${day.id}`)).body.data.completed).toBe(false);

    const min = await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    expect(min.body.data.completed).toBe(true);
    const events = await outboxEvents(app, id, 'day_completed');
    expect(events.map((e) => e.data)).toEqual([{ dayId: day.id, completedAt: min.body.data.completedAt }]);

    const normal = await client.patch(`/api/v1/days/${day.id}`, { minimumMode: false });
    expect(normal.body.data).toMatchObject({ completed: false, completedAt: null });
  });

  it('works through GraphQL: checklist query and toggle mutation with the same rules', async () => {
    const { client, day } = await fresh();
    const m = 'mutation($d: UUID!, $k: ChecklistKey!, $v: JSON) { toggleChecklistItem(dayId: $d, key: $k, value: $v) { key completed value required } }';
    const on = await client.graphql(m, { d: day.id, k: 'MEDITATION', v: 20 });
    expect(on.body.errors, on.text).toBeUndefined();
    expect(on.body.data.toggleChecklistItem).toEqual({ key: 'MEDITATION', completed: true, value: 20, required: true });
    expectGraphQLError(await client.graphql(m, { d: day.id, k: 'GYM', v: 5 }), 'VALIDATION_ERROR');
    expectGraphQLError(await client.graphql(m, { d: day.id, k: 'SWIM' }), 'VALIDATION_ERROR');
    expectGraphQLError(await client.graphql(m, { d: MISSING_ID, k: 'GYM' }), 'NOT_FOUND');
    const list = await client.graphql('query($d: UUID!) { checklist(dayId: $d) { key completed } }', { d: day.id });
    expect(list.body.data.checklist).toHaveLength(10);
    expect(list.body.data.checklist.find((i: any) => i.key === 'MEDITATION').completed).toBe(true);
  });
});
