import type { HttpClient } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';
import { generateWeek as generateWeekOn } from '../../test/support/fixtures.js';

export { MISSING_ID } from '../../test/support/fixtures.js';

/** A Monday far from today, so "today" never falls into the weeks the tests generate by hand. */
export const MONDAY = '2030-01-07';

export const NORMAL_KEYS = ['MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING', 'MEDITATION', 'JOURNAL', 'PERIMETER'];
export const CORE_KEYS = ['MAKE_BED', 'WATER', 'PERIMETER'];

/** Generates the week starting `startDate` and returns the REST payload (week with days). */
export async function generateWeek(client: HttpClient, startDate = MONDAY): Promise<any> {
  return generateWeekOn(client, startDate);
}

/** The first day (Monday) of a freshly generated week. */
export async function firstDay(client: HttpClient, startDate = MONDAY): Promise<any> {
  return (await generateWeek(client, startDate)).days[0];
}

export async function createPerimeterTasks(client: HttpClient, count: number, prefix = 'Task'): Promise<any[]> {
  const tasks = [];
  for (let i = 1; i <= count; i++) {
    const res = await client.post('/api/v1/perimeter/tasks', { title: `${prefix} ${i}` });
    if (res.status !== 201) throw new Error(`perimeter task creation failed: ${res.status} ${res.text}`);
    tasks.push(res.body.data);
  }
  return tasks;
}

export { expectGraphQLError, expectNotFound, expectStatus, expectValidation, outboxEvents } from '../../test/support/expectations.js';

/** Rows in `table` belonging to `userId`, counted straight from the database. */
export async function countRows(app: TestApp, table: string, userId: string): Promise<number> {
  const rows = await app.server.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table} where user_id = ?`, [userId]);
  return rows[0].n;
}
