import type { HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';

export { MISSING_ID } from '../../test/support/fixtures.js';
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let weekCounter = 0;

/** Generates a fresh week (a distinct Monday per call unless told) and returns its 7 day ids. */
export async function weekDays(client: HttpClient, startDate?: string): Promise<string[]> {
  return weekDayIds(client, startDate ?? mondayAfter('2027-01-04', weekCounter++));
}

function mondayAfter(first: string, weeks: number): string {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7 * weeks);
  return d.toISOString().slice(0, 10);
}

/** A global exercise of the seeded catalog by name. */
export async function globalExercise(client: HttpClient, name: string): Promise<any> {
  const res = await client.get(`/api/v1/exercises?global=true&q=${encodeURIComponent(name)}&limit=100`);
  const found = res.body.data.find((e: any) => e.name === name);
  if (!found) throw new Error(`no global exercise ${name}`);
  return found;
}

export async function createExercise(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/exercises', { name: 'Sled Push', category: 'conditioning', muscleGroups: ['Quadriceps'], ...body });
  if (res.status !== 201) throw new Error(`exercise creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export { expectNotFound, expectValidation, outboxEvents } from '../../test/support/expectations.js';

export function gqlCode(res: { body: { errors?: any[] } }): string | undefined {
  return res.body.errors?.[0]?.extensions?.code;
}
