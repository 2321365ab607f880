import type { HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';

export { MISSING_ID } from '../../test/support/fixtures.js';

/** Generates a week (Monday 2026-11-16 unless told) and returns its 7 day ids. */
export async function weekDays(client: HttpClient, startDate = '2026-11-16'): Promise<string[]> {
  return weekDayIds(client, startDate);
}

export async function createTask(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/tasks', { title: 'Write report', timebox: 45, ...body });
  if (res.status !== 201) throw new Error(`task creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function createCategory(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/task-categories', { name: 'Work', ...body });
  if (res.status !== 201) throw new Error(`category creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export { outboxEvents } from '../../test/support/expectations.js';
