import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { outboxEvents } from '../../test/support/expectations.js';
import { createHabit, setTimezone } from '../habits/habits.test-helpers.js';
import { expectUnauthorized, keyHolder, MISSING_ID } from './public-api.test-helpers.js';

/** Habits on the Public API: the list with today's states, a log on today, and what a key may not reach. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof keyHolder>>;
let bob: Awaited<ReturnType<typeof keyHolder>>;
beforeAll(async () => {
  app = await sharedTestApp();
  [alice, bob] = await Promise.all([keyHolder(app), keyHolder(app)]);
  await setTimezone(alice.client, 'UTC');
});

describe('Public API habits', () => {
  it('lists the active habits with today\'s state, logs on today with the day state and streak, and fires the webhook events', async () => {
    const water = await createHabit(alice.client, { name: 'Water', kind: 'COUNT', target: 2 });
    const archived = await createHabit(alice.client, { name: 'Old' });
    expect((await alice.client.post(`/api/v1/habits/${archived.id}/archive`)).status).toBe(200);

    const listed = await alice.api.get('/habits');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({ ok: true, data: [{ id: water.id, name: 'Water', kind: 'COUNT', unit: null, target: 2, state: 'PENDING', value: 0, currentStreak: 0, streakUnit: 'DAY' }] });

    const first = await alice.api.post(`/habits/${water.id}/entries`, { note: 'glass' });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ habitId: water.id, date: water.startDate, value: 1, state: 'PARTIAL', dayValue: 1, target: 2, currentStreak: 0 });
    const second = await alice.api.post(`/habits/${water.id}/entries`, {});
    expect(second.body.data).toMatchObject({ state: 'DONE', dayValue: 2, currentStreak: 1, streakUnit: 'DAY' });
    expect((await alice.api.get('/habits')).body.data[0]).toMatchObject({ state: 'DONE', value: 2, currentStreak: 1 });
    expect(await outboxEvents(app, alice.id, 'habit_logged')).toHaveLength(2);
    expect((await outboxEvents(app, alice.id, 'habit_streak_updated')).map((e) => (e.data as any).currentStreak)).toEqual([1]);

    // The app's rules hold: a CHECK habit takes no 2.5; an archived one is refused.
    expect((await alice.api.post(`/habits/${archived.id}/entries`, {})).body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    const badValue = await alice.api.post(`/habits/${water.id}/entries`, { value: 'lots' });
    expect(badValue.status).toBe(400);
  });

  it('another person\'s habit answers 404 like a missing one, and writes nothing', async () => {
    const hers = await createHabit(alice.client, { name: 'Private' });
    for (const id of [hers.id, MISSING_ID]) {
      const res = await bob.api.post(`/habits/${id}/entries`, {});
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
    expect((await bob.api.get('/habits')).body.data).toEqual([]);
    expect((await alice.client.get(`/api/v1/habits/${hers.id}/entries`)).body.data).toEqual([]);
  });

  it('a key reaches only these two routes: the session habit routes and the other verbs answer 401 or 404/405', async () => {
    const habit = await createHabit(alice.client, { name: 'Floss' });
    const anon = alice.client.withoutCookie();
    const bearer = { headers: { authorization: `Bearer ${alice.key}` } };
    expectUnauthorized(await anon.get('/api/v1/habits', bearer));
    expectUnauthorized(await anon.post('/api/v1/habits', { name: 'By key' }, bearer));
    expectUnauthorized(await anon.post(`/api/v1/habits/${habit.id}/entries`, {}, bearer));
    // No create, change, mark or streak route on the Public API.
    expect((await alice.api.post('/habits', { name: 'By key' })).status).toBe(405);
    expect((await alice.api.get(`/habits/${habit.id}/streak`)).status).toBe(404);
    expect((await alice.api.post(`/habits/${habit.id}/days/${MISSING_ID}/mark`, { mark: 'REST' })).status).toBe(404);
    expectUnauthorized(await anon.get('/api/public/v1/habits'));
  });
});
