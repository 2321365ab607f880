import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { isoWeekday } from '../core/dates.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 37: the habits tools through the SDK client connected over OAuth (answers checked against their outputSchema). */
type Connected = Awaited<ReturnType<typeof connectedUser>>;
let app: TestApp;
let alice: Connected;
let bob: Connected;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close()]);
  await app?.close();
});

describe('habits tools', () => {
  it('creates habits, logs one by name, and lists them with today\'s state and streak', async () => {
    const floss = await callOk(alice.client, 'habits_create', { name: 'Floss' });
    expect(floss).toMatchObject({ name: 'Floss', kind: 'CHECK', target: 1, schedule: 'DAILY', archived: false });
    const run = await callOk(alice.client, 'habits_create', { name: 'Run', kind: 'AMOUNT', unit: 'km', target: 5, schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3 });
    expect(run).toMatchObject({ kind: 'AMOUNT', unit: 'km', timesPerPeriod: 3 });

    const logged = await callOk(alice.client, 'habits_log', { habit: 'floss', note: 'after lunch' });
    expect(logged).toMatchObject({ habitId: floss.id, value: 1, note: 'after lunch', day: { state: 'DONE', value: 1 }, streak: { unit: 'DAY', current: 1 } });
    const partial = await callOk(alice.client, 'habits_log', { habitId: run.id, value: 3 });
    // The habit starts today: the quota asks no more days than the week has left from today.
    expect(partial.day).toMatchObject({ state: 'PARTIAL', value: 3, periodDone: 0, periodRequired: Math.min(3, 8 - isoWeekday(partial.date)) });

    const list = await callOk(alice.client, 'habits_list', {});
    expect(list.meta).toEqual({ page: 1, limit: 50, total: 2 });
    expect(list.habits.map((h: any) => [h.name, h.today.state, h.streak.current])).toEqual([['Floss', 'DONE', 1], ['Run', 'PARTIAL', 0]]);
    expect((await callOk(alice.client, 'habits_list', { limit: 1, page: 2 })).habits.map((h: any) => h.name)).toEqual(['Run']);
  });

  it('refuses what the API refuses, and never reaches another user\'s habit', async () => {
    expect((await callError(alice.client, 'habits_create', { name: 'Bad', kind: 'AMOUNT', target: 3 })).code).toBe('VALIDATION_ERROR');
    expect((await callError(alice.client, 'habits_create', { name: '' })).code).toBe('VALIDATION_ERROR');
    expect((await callError(alice.client, 'habits_log', { habit: 'no such habit' })).code).toBe('NOT_FOUND');
    const mine = await callOk(alice.client, 'habits_create', { name: 'Private habit' });
    expect((await callError(bob.client, 'habits_log', { habitId: mine.id })).code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'habits_log', { habitId: MISSING_ID })).code).toBe('NOT_FOUND');
    expect((await callOk(bob.client, 'habits_list', {})).habits).toEqual([]);
    expect(await sql(app.databaseUrl, 'select count(*)::int as n from habit_entries where habit_id = $1', [mine.id])).toEqual([{ n: 0 }]);
  });
});
