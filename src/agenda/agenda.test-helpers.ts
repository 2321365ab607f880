import { expect } from 'vitest';
import type { HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';

async function created(res: { status: number; text: string; body: any }): Promise<any> {
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** UTC instant `hh:mm` on day `offset` of the week whose Monday is `monday`. */
export function at(monday: string, offset: number, time: string): string {
  const d = new Date(`${monday}T${time}:00.000Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString();
}

export function dateOf(monday: string, offset: number): string {
  return at(monday, offset, '00:00').slice(0, 10);
}

export interface SeededAgenda {
  days: string[];
  ids: Record<string, string>;
}

/**
 * One record of every agenda source in the week of `monday` (each day-only one on its own day), plus
 * transactions of each kind: recurring expense, large expense, expense at the threshold, small expense,
 * income, recurring income. Returns the week's day ids and the source ids by name.
 */
export async function seedAgenda(client: HttpClient, monday: string, prefix = ''): Promise<SeededAgenda> {
  const days = await weekDayIds(client, monday);
  const ids: Record<string, string> = {};
  ids.task = (await created(await client.post('/api/v1/tasks', { title: `${prefix}Write report`, timebox: 30, dayId: days[0] }))).id;
  ids.training = (
    await created(await client.post('/api/v1/training/sessions', { dayId: days[1], split: 'Push', startTime: at(monday, 1, '17:00'), endTime: at(monday, 1, '18:15') }))
  ).id;
  ids.mobility = (await created(await client.post('/api/v1/mobility/sessions', { dayId: days[2], focus: 'Hips', duration: 20, intensity: 4 }))).id;
  ids.cardio = (await created(await client.post('/api/v1/cardio/sessions', { dayId: days[3], type: 'run', duration: 30, startTime: at(monday, 3, '07:00') }))).id;
  ids.social = (
    await created(await client.post('/api/v1/social-happenings', { dayId: days[4], title: `${prefix}Dinner with Sam`, startTime: at(monday, 4, '19:00'), endTime: at(monday, 4, '22:00') }))
  ).id;
  ids.deadline = (await created(await client.post('/api/v1/deadlines', { title: `${prefix}Tax return`, dueDate: at(monday, 2, '12:00') }))).id;
  const project = await created(await client.post('/api/v1/projects', { title: `${prefix}House` }));
  ids.projectTask = (await created(await client.post(`/api/v1/projects/${project.id}/tasks`, { title: `${prefix}Call plumber`, dueDate: at(monday, 3, '15:00') }))).id;
  const account = await created(await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
  const transaction = async (amount: number, description: string, date: string, recurring = false) =>
    (await created(await client.post('/api/v1/transactions', { accountId: account.id, amount, description, date, recurring }))).id as string;
  ids.rent = await transaction(-950, 'Rent', dateOf(monday, 1), true);
  ids.laptop = await transaction(-1200, 'Laptop', dateOf(monday, 2));
  ids.threshold = await transaction(-100, 'Shoes', dateOf(monday, 2));
  ids.coffee = await transaction(-4.5, 'Coffee', dateOf(monday, 2));
  ids.salary = await transaction(3000, 'Salary', dateOf(monday, 3));
  ids.allowance = await transaction(50, 'Allowance', dateOf(monday, 3), true);
  const book = await created(await client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 600 }));
  ids.reading = (await created(await client.post('/api/v1/reading-sessions', { dayId: days[5], bookId: book.id, pagesRead: 20, duration: 25 }))).id;
  const meditation = await client.graphql('mutation($d: UUID!, $t: DateTimeISO) { logMeditation(dayId: $d, duration: 10, type: "breathing", time: $t) { id } }', {
    d: days[6],
    t: at(monday, 6, '08:00'),
  });
  expect(meditation.body.errors, meditation.text).toBeUndefined();
  ids.meditation = meditation.body.data.logMeditation.id;
  return { days, ids };
}
