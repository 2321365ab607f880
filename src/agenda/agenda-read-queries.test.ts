import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { AgendaService } from './agenda.service.js';
import { at, dateOf, seedAgenda } from './agenda.test-helpers.js';
import { weekDayIds } from '../../test/support/fixtures.js';

/**
 * An agenda read costs a fixed number of SQL statements however many entries it holds: one per source
 * for the whole range (never one per day or per entry), besides the session and the user's settings.
 */
let app: TestApp;
let small: HttpClient;
let large: HttpClient;
let largeId: string;

const MONDAY = '2027-03-01';
/** Extra records of each kind in the large user's week (on top of one of every source). */
const EXTRA = 15;
const QUERY = `start=${MONDAY}&end=2027-03-08&showAllTransactions=true`;

/** The user's settings, one statement per source (11, birthdays included) and per kind of series (recurring tasks, recurring transactions); the session check is not counted. */
const STATEMENTS_PER_READ = 14;
/** Series of each kind (daily) and birthdays the large user has in the week, besides EXTRA of every record. */
const SERIES = 3;
/** Their entries in the week: 7 dates of each task and transaction series, one birthday each. */
const SERIES_ENTRIES = SERIES * 7 * 2 + SERIES;

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  ({ client: small } = await signUp(app.url));
  let signed = await signUp(app.url);
  large = signed.client;
  largeId = signed.id;
  await seedAgenda(small, MONDAY);
  const { days } = await seedAgenda(large, MONDAY);
  const account = (await large.post('/api/v1/accounts', { name: 'Extra', type: 'cash', balance: 0, currency: 'EUR' })).body.data;
  const project = (await large.post('/api/v1/projects', { title: 'Extra' })).body.data;
  const book = (await large.post('/api/v1/books', { title: 'Extra', author: 'A', totalPages: 5000 })).body.data;
  for (let batch = 0; batch < EXTRA; batch += 5) {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, j) => batch + j).flatMap((i) => {
        const day = i % 7;
        return [
          large.post('/api/v1/tasks', { title: `Task ${i}`, timebox: 30, dayId: days[day] }),
          large.post('/api/v1/training/sessions', { dayId: days[day], split: 'Pull', startTime: at(MONDAY, day, '06:00'), endTime: at(MONDAY, day, '07:00') }),
          large.post('/api/v1/social-happenings', { dayId: days[day], title: `Meet ${i}`, startTime: at(MONDAY, day, '12:00'), endTime: at(MONDAY, day, '13:00') }),
          large.post('/api/v1/deadlines', { title: `Deadline ${i}`, dueDate: at(MONDAY, day, '09:00') }),
          large.post(`/api/v1/projects/${project.id}/tasks`, { title: `Card ${i}`, dueDate: at(MONDAY, day, '10:00') }),
          large.post('/api/v1/transactions', { accountId: account.id, amount: -1 - i, description: `Buy ${i}`, date: dateOf(MONDAY, day) }),
          large.post('/api/v1/reading-sessions', { dayId: days[day], bookId: book.id, pagesRead: 1, duration: 5 }),
          large.graphql('mutation($d: UUID!, $t: DateTimeISO) { logMeditation(dayId: $d, duration: 5, time: $t) { id } }', { d: days[day], t: at(MONDAY, day, '21:00') }),
        ];
      }),
    );
    for (const res of results) expect(res.status, res.text).toBeLessThan(300);
  }
  // Series whose dates in the week are expanded by the read (the tasks' series begin long before it, so
  // none of their tasks is made in it), and birthdays.
  const november = await weekDayIds(large, '2026-11-02');
  for (let i = 0; i < SERIES; i++) {
    const results = await Promise.all([
      large.post('/api/v1/tasks', { title: `Daily ${i}`, timebox: 15, dayId: november[i], recurrence: 'FREQ=DAILY' }),
      large.post('/api/v1/transactions', { accountId: account.id, amount: -1, description: `Daily ${i}`, date: MONDAY, recurrence: 'FREQ=DAILY' }),
      large.post('/api/v1/people', { name: `Friend ${i}`, birthday: `1990-03-0${2 + i}` }),
    ]);
    for (const res of results) expect(res.status, res.text).toBe(201);
  }
}, 180_000);
afterAll(async () => {
  await app?.close();
});

/** The statements of one request (background work is not counted: test/support/statement-counter.ts). */
async function measure(send: () => Promise<{ status: number; text: string; body: any }>): Promise<{ count: number; roundTrips: number; sql: string[]; body: any }> {
  const recorder = recordStatements();
  const res = await send().finally(() => recorder.stop());
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return { count: recorder.statements.length, roundTrips: recorder.roundTrips.length, sql: recorder.statements, body: res.body };
}

describe('SQL statements per agenda read', () => {
  it(`GET /api/v1/agenda/range runs the same statements for 15 entries and for ${15 + 8 * EXTRA + SERIES_ENTRIES}`, async () => {
    const few = await measure(() => small.get(`/api/v1/agenda/range?${QUERY}`));
    const many = await measure(() => large.get(`/api/v1/agenda/range?${QUERY}`));
    expect(few.body.data).toHaveLength(15);
    expect(many.body.data).toHaveLength(15 + 8 * EXTRA + SERIES_ENTRIES);
    // Dates of series (`…:<date>` ids): the birthdays always; the tasks' and transactions' while the week
    // is far enough ahead that none of them was made or booked yet (until early 2027): 3 + 21 + 18.
    const expanded = many.body.data.filter((e: any) => /:\d{4}-\d{2}-\d{2}$/.test(e.id));
    expect(expanded.length).toBeGreaterThanOrEqual(SERIES);
    console.info(`GET /agenda/range: ${expanded.length} of the large user's entries are dates of series`);
    console.info(`GET /agenda/range: ${few.count} statements in ${few.roundTrips} round trips (15 entries), ${many.count} in ${many.roundTrips} (${many.body.data.length})`);
    expect(many.count, `${few.sql.join('\n')}\n---\n${many.sql.join('\n')}`).toBe(few.count);
    expect(few.count, few.sql.join('\n')).toBe(STATEMENTS_PER_READ);
    expect(new Set(many.sql).size).toBe(many.sql.length);
    // The sources start together and share one round trip (src/core/database/read-batch.ts).
    expect(many.roundTrips).toBe(few.roundTrips);
    expect(few.roundTrips).toBeLessThanOrEqual(4);
  });

  it('AgendaService.range runs the settings read and one statement per source', async () => {
    const recorder = recordStatements();
    const entries = await AgendaService.range(app.server.orm.em.fork(), largeId, { start: MONDAY, end: '2027-03-08', showAllTransactions: true }).finally(() => recorder.stop());
    expect(entries).toHaveLength(15 + 8 * EXTRA + SERIES_ENTRIES);
    expect(recorder.statements, recorder.statements.join('\n')).toHaveLength(STATEMENTS_PER_READ);
  });
});
