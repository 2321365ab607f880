import { OutboxEvent } from '../core/events/outbox-event.entity.js';
import type { HttpClient } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Generates a week (Monday 2026-11-16 unless told) and returns its 7 day ids. */
export async function weekDays(client: HttpClient, startDate = '2026-11-16'): Promise<string[]> {
  const res = await client.post('/api/v1/weeks/generate', { startDate });
  if (res.status !== 201 && res.status !== 200) throw new Error(`week generation failed: ${res.status} ${res.text}`);
  return res.body.data.days.map((d: { id: string }) => d.id);
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
