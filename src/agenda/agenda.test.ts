import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectStatus, expectValidation } from '../../test/support/expectations.js';
import { AgendaService } from './agenda.service.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { at, seedAgenda, type SeededAgenda } from './agenda.test-helpers.js';

/** The unified agenda over real HTTP and PostgreSQL: every source, sorting, transactions, time zones, range rules, isolation. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let seeded: SeededAgenda;

const MONDAY = '2027-01-04';
/** Alice lives in New York: her midnight is 05:00 UTC in January. */
const ZONE = 'America/New_York';
const WEEK_START = '2027-01-04T00:00:00-05:00';
const WEEK_END = '2027-01-11T00:00:00-05:00';

const range = (client: HttpClient, query: string) => client.get(`/api/v1/agenda/range?${query}`);
const week = (client: HttpClient, extra = '') => range(client, `start=${encodeURIComponent(WEEK_START)}&end=${encodeURIComponent(WEEK_END)}${extra}`);

/** The local midnight of day `offset` of the week (05:00Z in New York in January). */
const midnight = (offset: number) => at(MONDAY, offset, '05:00');

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  let signed = await signUp(app.url);
  alice = signed.client;
  aliceId = signed.id;
  expect((await alice.patch('/api/v1/settings', { timezone: ZONE })).status).toBe(200);
  seeded = await seedAgenda(alice, MONDAY);
  signed = await signUp(app.url);
  bob = signed.client;
  // Bob's own records in the same week: never in Alice's agenda.
  await seedAgenda(bob, MONDAY, 'Bob: ');
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe('GET /api/v1/agenda/range', () => {
  it('merges every source into one list sorted by start, in the shape of operations.md', async () => {
    const res = await week(alice);
    expect(res.status, res.text).toBe(200);
    const { ids } = seeded;
    const entry = (type: string, sourceId: string, title: string, start: string, end: string | null, allDay: boolean) => ({
      type,
      id: `${type}:${sourceId}`,
      title,
      start,
      end,
      allDay,
      sourceId,
    });
    expect(res.body.data).toEqual([
      entry('task', ids.task, 'Write report', midnight(0), midnight(1), true),
      // Tuesday: the recurring rent (all-day) before the training at 17:00 UTC.
      entry('transaction', ids.rent, 'Rent -950.00 EUR', midnight(1), null, true),
      entry('training', ids.training, 'Training: Push', at(MONDAY, 1, '17:00'), at(MONDAY, 1, '18:15'), false),
      // Wednesday: all-day entries first (by type, then title), then the deadline at noon.
      entry('mobility', ids.mobility, 'Mobility: Hips', midnight(2), midnight(3), true),
      entry('transaction', ids.laptop, 'Laptop -1200.00 EUR', midnight(2), null, true),
      entry('transaction', ids.threshold, 'Shoes -100.00 EUR', midnight(2), null, true),
      entry('deadline', ids.deadline, 'Tax return', at(MONDAY, 2, '12:00'), null, false),
      // Thursday: the recurring income; the cardio session ends after its duration.
      entry('transaction', ids.allowance, 'Allowance 50.00 EUR', midnight(3), null, true),
      entry('cardio', ids.cardio, 'Cardio: run', at(MONDAY, 3, '07:00'), at(MONDAY, 3, '07:30'), false),
      entry('project_task', ids.projectTask, 'Call plumber', at(MONDAY, 3, '15:00'), null, false),
      entry('social_happening', ids.social, 'Dinner with Sam', at(MONDAY, 4, '19:00'), at(MONDAY, 4, '22:00'), false),
      entry('reading', ids.reading, 'Reading: Dune', midnight(5), midnight(6), true),
      entry('meditation', ids.meditation, 'Meditation: breathing', at(MONDAY, 6, '08:00'), at(MONDAY, 6, '08:10'), false),
    ]);
    const types = new Set(res.body.data.map((e: any) => e.type));
    expect([...types].sort()).toEqual(['cardio', 'deadline', 'meditation', 'mobility', 'project_task', 'reading', 'social_happening', 'task', 'training', 'transaction']);
    // Sorted by start.
    const starts = res.body.data.map((e: any) => Date.parse(e.start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('answers the same through GraphQL, and AgendaService.range gives it to other callers', async () => {
    const rest = (await week(alice)).body.data;
    const gql = await alice.graphql('query($s: String!, $e: String!) { agendaRange(start: $s, end: $e) { type id title start end allDay sourceId } }', { s: WEEK_START, e: WEEK_END });
    expect(gql.body.errors, gql.text).toBeUndefined();
    expect(gql.body.data!.agendaRange).toEqual(rest);
    const direct = await AgendaService.range(app.server.orm.em.fork(), aliceId, { start: new Date(WEEK_START), end: WEEK_END });
    expect(JSON.parse(JSON.stringify(direct))).toEqual(rest);
  });

  it('shows every transaction with showAllTransactions=true, and follows largeExpenseThreshold', async () => {
    const all = await week(alice, '&showAllTransactions=true');
    expect(all.status, all.text).toBe(200);
    const titles = (res: any) => res.body.data.filter((e: any) => e.type === 'transaction').map((e: any) => e.title);
    expect(titles(all)).toEqual(['Rent -950.00 EUR', 'Coffee -4.50 EUR', 'Laptop -1200.00 EUR', 'Shoes -100.00 EUR', 'Allowance 50.00 EUR', 'Salary 3000.00 EUR']);
    expect(all.body.data.filter((e: any) => e.type !== 'transaction')).toEqual((await week(alice)).body.data.filter((e: any) => e.type !== 'transaction'));
    // Without it: recurring ones (income too) and expenses of at least the threshold (100: -100 counts).
    expect(titles(await week(alice, '&showAllTransactions=false'))).toEqual(['Rent -950.00 EUR', 'Laptop -1200.00 EUR', 'Shoes -100.00 EUR', 'Allowance 50.00 EUR']);
    expect((await alice.patch('/api/v1/settings', { largeExpenseThreshold: 1000 })).status).toBe(200);
    try {
      expect(titles(await week(alice))).toEqual(['Rent -950.00 EUR', 'Laptop -1200.00 EUR', 'Allowance 50.00 EUR']);
    } finally {
      await alice.patch('/api/v1/settings', { largeExpenseThreshold: 100 });
    }
  });

  it("puts all-day entries at their day's midnight in the user's time zone, written in UTC", async () => {
    const { client } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    const { ids } = await seedAgenda(client, MONDAY);
    // A date (no time) is read in the user's zone too: Tokyo's Monday starts on Sunday 15:00 UTC.
    const res = await range(client, `start=${MONDAY}&end=2027-01-11`);
    expect(res.status, res.text).toBe(200);
    const byId = new Map(res.body.data.map((e: any) => [e.sourceId, e]));
    expect(byId.get(ids.task)).toMatchObject({ start: '2027-01-03T15:00:00.000Z', end: '2027-01-04T15:00:00.000Z', allDay: true });
    expect(byId.get(ids.rent)).toMatchObject({ start: '2027-01-04T15:00:00.000Z', end: null, allDay: true });
    expect(byId.get(ids.reading)).toMatchObject({ start: '2027-01-08T15:00:00.000Z', end: '2027-01-09T15:00:00.000Z', allDay: true });
    // Timed entries keep their instant.
    expect(byId.get(ids.training)).toMatchObject({ start: at(MONDAY, 1, '17:00'), allDay: false });

    // A different zone moves the all-day entries, not the timed ones.
    expect((await client.patch('/api/v1/settings', { timezone: 'UTC' })).status).toBe(200);
    const utc = await range(client, `start=${MONDAY}&end=2027-01-11`);
    const utcById = new Map(utc.body.data.map((e: any) => [e.sourceId, e]));
    expect(utcById.get(ids.task)).toMatchObject({ start: '2027-01-04T00:00:00.000Z', end: '2027-01-05T00:00:00.000Z' });
    expect(utcById.get(ids.training)).toEqual(byId.get(ids.training));

    // Berlin's DST starts on Sunday 2027-03-28: that day runs from 23:00 UTC to 22:00 UTC (23 hours).
    expect((await client.patch('/api/v1/settings', { timezone: 'Europe/Berlin' })).status).toBe(200);
    const sunday = (await weekDayIds(client, '2027-03-22'))[6];
    const task = await client.post('/api/v1/tasks', { title: 'Clocks forward', timebox: 15, dayId: sunday });
    expect(task.status, task.text).toBe(201);
    const dst = await range(client, 'start=2027-03-28&end=2027-03-29');
    expect(dst.status, dst.text).toBe(200);
    expect(dst.body.data).toEqual([
      { type: 'task', id: `task:${task.body.data.id}`, title: 'Clocks forward', start: '2027-03-27T23:00:00.000Z', end: '2027-03-28T22:00:00.000Z', allDay: true, sourceId: task.body.data.id },
    ]);
  });

  it('holds the entries that overlap [start, end): an entry running into the range, a day-only entry whose day overlaps it; the end is excluded', async () => {
    const ids = seeded.ids;
    const sources = async (start: string, end: string) => {
      const res = await range(alice, `start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((e: any) => e.sourceId);
    };
    // 20:00-21:00 UTC on Friday: inside the dinner (19:00-22:00); no day-only entry is on Friday.
    expect(await sources(at(MONDAY, 4, '20:00'), at(MONDAY, 4, '21:00'))).toEqual([ids.social]);
    // Ending exactly at the deadline leaves it out; starting there takes it in.
    expect(await sources(at(MONDAY, 2, '11:00'), at(MONDAY, 2, '12:00'))).toEqual([ids.mobility, ids.laptop, ids.threshold]);
    expect(await sources(at(MONDAY, 2, '12:00'), at(MONDAY, 2, '13:00'))).toEqual([ids.mobility, ids.laptop, ids.threshold, ids.deadline]);
    // The cardio session 07:00-07:30 ends at 07:30: a range from then on does not hold it.
    expect(await sources(at(MONDAY, 3, '07:30'), at(MONDAY, 3, '08:00'))).toEqual([ids.allowance]);
    expect(await sources(at(MONDAY, 3, '07:29'), at(MONDAY, 3, '08:00'))).toEqual([ids.allowance, ids.cardio]);
  });

  it('refuses missing, malformed, reversed, empty and too long ranges with 400 VALIDATION_ERROR', async () => {
    expectValidation(await range(alice, `end=${WEEK_END}`), 'start');
    expectValidation(await range(alice, `start=${encodeURIComponent(WEEK_START)}`), 'end');
    expectValidation(await range(alice, ''), 'start');
    expectValidation(await range(alice, `start=&end=${MONDAY}`), 'start');
    expectValidation(await range(alice, `start=yesterday&end=2027-01-11`), 'start');
    expectValidation(await range(alice, `start=2027-01-04&end=2027-13-01`), 'end');
    expectValidation(await range(alice, `start=2027-01-04T25:00:00Z&end=2027-01-11`), 'start');
    expectValidation(await range(alice, `start=2027-01-11&end=2027-01-04`), 'end');
    expectValidation(await range(alice, `start=2027-01-04&end=2027-01-04`), 'end');
    expectValidation(await range(alice, `start=2027-01-04T10:00:00Z&end=2027-01-04T10:00:00Z`), 'end');
    expectValidation(await range(alice, `start=2027-01-01&end=2028-01-03`), 'end');
    expectValidation(await range(alice, `start=${MONDAY}&end=2027-01-11&showAllTransactions=maybe`), 'showAllTransactions');
    // 366 days is the most: 2027-01-01 to 2028-01-02 (2027 has 365 days).
    expectStatus(await range(alice, 'start=2027-01-01&end=2028-01-02'), 200);
    const gql = await alice.graphql('{ agendaRange(start: "2027-01-04", end: "2027-01-04") { id } }');
    expect(gql.body.errors?.[0]?.extensions?.code, gql.text).toBe('VALIDATION_ERROR');
  });

  it('needs the session (401), and shows each user only their own entries', async () => {
    expectStatus(await week(alice.withoutCookie()), 401, 'UNAUTHORIZED');
    const aliceEntries = (await week(alice, '&showAllTransactions=true')).body.data;
    const bobEntries = (await week(bob, '&showAllTransactions=true')).body.data;
    expect(aliceEntries).toHaveLength(15);
    expect(bobEntries).toHaveLength(15);
    const aliceSources = new Set(aliceEntries.map((e: any) => e.sourceId));
    for (const e of bobEntries) expect(aliceSources.has(e.sourceId)).toBe(false);
    expect(aliceEntries.some((e: any) => e.title.startsWith('Bob: '))).toBe(false);
    expect(bobEntries.filter((e: any) => ['task', 'deadline', 'project_task', 'social_happening'].includes(e.type)).every((e: any) => e.title.startsWith('Bob: '))).toBe(true);
    // The entries of another user do not appear through the service either.
    const direct = await AgendaService.range(app.server.orm.em.fork(), aliceId, { start: WEEK_START, end: WEEK_END, showAllTransactions: true });
    expect(direct.map((e) => e.sourceId).sort()).toEqual([...aliceSources].sort());
  });
});
