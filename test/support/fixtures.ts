import type { HttpClient } from './http-client.js';

/** A well-formed UUID that names nothing: answers 404 like another user's id. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Generates the week starting `startDate` (a Monday) through REST and returns the payload: the week with its days. */
export async function generateWeek(client: HttpClient, startDate: string): Promise<any> {
  const res = await client.post('/api/v1/weeks/generate', { startDate });
  if (res.status !== 201 && res.status !== 200) throw new Error(`week generation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The 7 day ids of the week starting `startDate`, generated when needed. */
export async function weekDayIds(client: HttpClient, startDate: string): Promise<string[]> {
  return (await generateWeek(client, startDate)).days.map((d: { id: string }) => d.id);
}
