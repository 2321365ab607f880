import type { HttpClient } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';

export { MISSING_ID } from '../../test/support/fixtures.js';
export { expectNotFound, expectRule, expectStatus, expectValidation, outboxEvents } from '../../test/support/expectations.js';

let weekCounter = 0;

/** A fresh week (a distinct Monday per call unless told): `{ id, startDate, days }`. */
export async function freshWeek(client: HttpClient, startDate?: string): Promise<any> {
  // Every other Monday: a week made here never has a previous week with a list (no carry-over by accident).
  return generateWeek(client, startDate ?? mondayAfter('2031-03-03', 2 * weekCounter++));
}

export function mondayAfter(first: string, weeks: number): string {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7 * weeks);
  return d.toISOString().slice(0, 10);
}

export async function createTemplate(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/meal-templates', { name: 'Chili', ingredients: [{ name: 'Beans', quantity: 400, unit: 'g', section: 'pantry' }], ...body });
  if (res.status !== 201) throw new Error(`meal template creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The week's 7 dinner plans (generated), Monday first. */
export async function dinnerWeek(client: HttpClient, weekId: string): Promise<any[]> {
  const res = await client.post('/api/v1/dinner/generate-week', { weekId });
  if (res.status !== 201 && res.status !== 200) throw new Error(`dinner generation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function setMeal(client: HttpClient, planId: string, mealTemplateId: string | null): Promise<any> {
  const res = await client.patch(`/api/v1/dinner/${planId}`, { mealTemplateId });
  if (res.status !== 200) throw new Error(`setting the meal failed: ${res.status} ${res.text}`);
  return res.body.data;
}
