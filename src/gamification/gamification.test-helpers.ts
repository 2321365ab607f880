import { expect } from 'vitest';
import type { HttpClient } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';

export { MISSING_ID } from '../../test/support/fixtures.js';
export { outboxEvents, expectNotFound, expectValidation } from '../../test/support/expectations.js';

let weekCounter = 0;

/** The 7 days of a fresh week far from today (a distinct Monday per call). */
export async function farDays(client: HttpClient): Promise<any[]> {
  const d = new Date(Date.UTC(2031, 0, 6 + 7 * weekCounter++));
  return (await generateWeek(client, d.toISOString().slice(0, 10))).days;
}

export async function stats(client: HttpClient): Promise<any> {
  const res = await client.get('/api/v1/gamification/stats');
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export async function xpOf(client: HttpClient): Promise<number> {
  return (await stats(client)).xp;
}

/** Creates a task with `timebox` minutes and moves it to done through the routes. */
export async function completeTask(client: HttpClient, timebox: number): Promise<any> {
  const created = await client.post('/api/v1/tasks', { title: `Task ${timebox}`, timebox });
  expect(created.status, created.text).toBe(201);
  const done = await client.patch(`/api/v1/tasks/${created.body.data.id}`, { status: 'done' });
  expect(done.status, done.text).toBe(200);
  return done.body.data;
}

export async function toggle(client: HttpClient, dayId: string, key: string, value?: unknown): Promise<any> {
  const res = await client.post(`/api/v1/checklist/${dayId}/toggle/${key}`, value === undefined ? {} : { value });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Completes a day in minimum mode: 3 checklist items (15 XP) and the day (25 XP). */
export async function completeDay(client: HttpClient, dayId: string): Promise<void> {
  const patched = await client.patch(`/api/v1/days/${dayId}`, { minimumMode: true });
  expect(patched.status, patched.text).toBe(200);
  for (const key of ['MAKE_BED', 'WATER', 'PERIMETER']) await toggle(client, dayId, key);
  expect((await client.get(`/api/v1/days/${dayId}`)).body.data.completed).toBe(true);
}

export async function logTraining(client: HttpClient, dayId: string): Promise<any> {
  const res = await client.post('/api/v1/training/sessions', { dayId, split: 'Push', exercises: [] });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Earns exactly `xp` (a multiple of 10) with tasks of 120 min (40 XP) and 10 min (10 XP). */
export async function earn(client: HttpClient, xp: number): Promise<void> {
  for (; xp >= 40; xp -= 40) await completeTask(client, 120);
  for (; xp >= 10; xp -= 10) await completeTask(client, 10);
  if (xp !== 0) throw new Error('earn() takes multiples of 10');
}
