import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { addDays } from '../core/dates.js';
import { createHabit, dayIdOn, logEntry, setTimezone } from './habits.test-helpers.js';

/**
 * The habits reads cost a fixed number of statements however many habits, entries and days they hold:
 * one person with 1 habit and one with 20 (each logged on several days) read the same count.
 */
let app: TestApp;
let few: HttpClient;
let many: HttpClient;
const MONDAY = '2032-03-01';
let fewDay: string;
let manyDay: string;

beforeAll(async () => {
  app = await startTestApp();
  few = (await signUp(app.url)).client;
  many = (await signUp(app.url)).client;
  for (const client of [few, many]) await setTimezone(client, 'UTC');
  fewDay = await dayIdOn(few, MONDAY);
  manyDay = await dayIdOn(many, MONDAY);
  const first = await createHabit(few, { name: 'Only', startDate: '2032-02-01' });
  await logEntry(few, first.id, { dayId: fewDay });
  for (let i = 0; i < 20; i++) {
    const schedule = i % 3 === 0 ? { schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3 } : i % 3 === 1 ? { schedule: 'WEEKDAYS', weekdays: [1, 3] } : {};
    const habit = await createHabit(many, { name: `Habit ${i}`, kind: 'COUNT', target: 2, startDate: '2032-02-01', ...schedule });
    for (let d = 0; d < 3; d++) await logEntry(many, habit.id, { date: addDays(MONDAY, d), value: 1 });
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
});

async function count(send: () => Promise<{ status: number; text: string }>): Promise<{ n: number; sql: string[] }> {
  const recorder = recordStatements();
  const res = await send().finally(() => recorder.stop());
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { n: recorder.statements.length, sql: recorder.statements };
}

describe('statements per habits read', () => {
  it.each([
    ['GET /habits/day/:dayId', (c: HttpClient, day: string) => c.get(`/api/v1/habits/day/${day}`)],
    ['GET /habits/week/:startDate', (c: HttpClient) => c.get(`/api/v1/habits/week/${MONDAY}`)],
    ['GET /habits/streaks', (c: HttpClient) => c.get('/api/v1/habits/streaks')],
    ['GET /habits', (c: HttpClient) => c.get('/api/v1/habits')],
    ['GraphQL week { days { habits } habits { days } }', (c: HttpClient) => c.graphql(`{ week(startDate: "${MONDAY}") { days { habits { state habit { name } } } habits { done days { state } } } }`)],
  ])('%s: the same count for 1 habit and for 20', async (_name, read) => {
    const small = await count(() => read(few, fewDay));
    const large = await count(() => read(many, manyDay));
    expect(large.n, `${small.sql.join('\n')}\n---\n${large.sql.join('\n')}`).toBe(small.n);
    console.info(`${_name}: ${small.n} statements`);
    // The page and its count, the person's settings (time zone), the habits, the three history reads,
    // and for REST the habits' streaks (Habit.streak: the history of the streak window, three more).
    expect(small.n).toBeLessThanOrEqual(12);
  });

  it('GET /days/:dayId adds the habits relation at a fixed cost', async () => {
    const small = await count(() => few.get(`/api/v1/days/${fewDay}`));
    const large = await count(() => many.get(`/api/v1/days/${manyDay}`));
    expect(large.n).toBe(small.n);
  });
});
