import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, expectValidation } from '../../test/support/expectations.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startServer, type RunningServer } from '../app/server.js';
import { dbRows } from '../files/files.test-helpers.js';
import { BOOK_RECURRING_TRANSACTIONS_JOB } from './finance.jobs.js';
import { BOOKING_BATCH_DATES, BOOKING_BATCH_SERIES, bookDueTransactions } from './recurring-bookings.js';

/**
 * Recurring transactions: a series books each later date into its account's balance exactly once, on
 * that date in the owner's time zone, whatever runs the booking (two instances on one database, runs at
 * once, reruns). The series here are dated 2030 on, so the every-minute job of the running app (today's
 * dates) never books them by itself: every booking below is one the test asked for, at the `now` given.
 */
let a: TestApp;
let b: RunningServer;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  a = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  // A second instance on the same database.
  const config = loadConfig({ PORT: '0', DATA_DIR: a.dataDir, FILE_UPLOAD_DIR: `${a.dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: a.databaseUrl, DISABLE_RATE_LIMIT: 'true' });
  b = await startServer(config, { logger: createLogger('silent') });
  ({ client: alice } = await signUp(a.url));
  ({ client: bob } = await signUp(a.url));
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const bookOnA = (now: string) => bookDueTransactions(a.server.orm.em.fork(), { now: new Date(now) });
const bookOnB = (now: string) => bookDueTransactions(b.orm.em.fork(), { now: new Date(now) });

async function account(client: HttpClient, balance = 1000): Promise<any> {
  const res = await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance, currency: 'EUR' });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function series(client: HttpClient, accountId: string, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/api/v1/transactions', { accountId, amount: -10, description: 'Rent', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const balanceOf = async (client: HttpClient, accountId: string) => (await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance;

/** The account's transactions, oldest date first (every page). */
async function transactionsOf(client: HttpClient, accountId: string): Promise<any[]> {
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const res = await client.get(`/api/v1/transactions?accountId=${accountId}&limit=100&page=${page}`);
    expect(res.status, res.text).toBe(200);
    rows.push(...res.body.data);
    if (rows.length >= res.body.meta.total) break;
  }
  return rows.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
}

describe('a recurring transaction', () => {
  it('is booked on creation as the first of its series; each later date is booked once when it has come', async () => {
    const acc = await account(alice, 1000);
    const rent = await series(alice, acc.id, { amount: -950.5, date: '2030-01-15', recurrence: 'RRULE:FREQ=MONTHLY' });
    expect(rent).toMatchObject({ date: '2030-01-15', recurring: true, recurrence: 'FREQ=MONTHLY', seriesId: rent.id, occurrenceDate: '2030-01-15', nextDate: '2030-02-15' });
    expect(await balanceOf(alice, acc.id)).toBe(49.5);

    // 20 April in UTC (Alice's zone): February, March and April are due.
    await bookOnA('2030-04-20T12:00:00Z');
    const rows = await transactionsOf(alice, acc.id);
    expect(rows.map((r) => r.date)).toEqual(['2030-01-15', '2030-02-15', '2030-03-15', '2030-04-15']);
    for (const row of rows.slice(1)) expect(row).toMatchObject({ amount: -950.5, description: 'Rent', recurring: true, recurrence: null, seriesId: rent.id, nextDate: null });
    expect(await balanceOf(alice, acc.id)).toBe(1000 - 4 * 950.5);
    expect((await alice.get(`/api/v1/transactions/${rent.id}`)).body.data.nextDate).toBe('2030-05-15');

    // Again, and on the other instance: nothing more is due.
    expect((await bookOnA('2030-04-20T12:00:00Z')).booked).toBe(0);
    expect((await bookOnB('2030-05-14T23:00:00Z')).booked).toBe(0);
    expect(await transactionsOf(alice, acc.id)).toHaveLength(4);
    expect(await balanceOf(alice, acc.id)).toBe(1000 - 4 * 950.5);
  });

  it('books the later dates from the series row as it is then (a new amount applies from the next booking)', async () => {
    const acc = await account(alice, 0);
    const pay = await series(alice, acc.id, { amount: 3000, description: 'Salary', date: '2030-01-31', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=-1' });
    await bookOnA('2030-02-28T08:00:00Z');
    expect((await alice.patch(`/api/v1/transactions/${pay.id}`, { amount: 3100 })).status).toBe(200);
    await bookOnA('2030-03-31T08:00:00Z');
    expect((await transactionsOf(alice, acc.id)).map((r) => [r.date, r.amount])).toEqual([
      ['2030-01-31', 3100],
      ['2030-02-28', 3000],
      ['2030-03-31', 3100],
    ]);
    expect(await balanceOf(alice, acc.id)).toBe(9200);
  });

  it('books on the date in the owner’s time zone', async () => {
    const early = await signUp(a.url); // UTC+14
    const late = await signUp(a.url); // UTC-11
    expect((await early.client.patch('/api/v1/settings', { timezone: 'Pacific/Kiritimati' })).status).toBe(200);
    expect((await late.client.patch('/api/v1/settings', { timezone: 'Pacific/Pago_Pago' })).status).toBe(200);
    const earlyAccount = await account(early.client, 0);
    const lateAccount = await account(late.client, 0);
    await series(early.client, earlyAccount.id, { date: '2030-06-01', recurrence: 'FREQ=DAILY' });
    await series(late.client, lateAccount.id, { date: '2030-06-01', recurrence: 'FREQ=DAILY' });
    // 1 June 12:00 UTC is 2 June 02:00 in Kiritimati and 1 June 01:00 in Pago Pago.
    await bookOnA('2030-06-01T12:00:00Z');
    expect((await transactionsOf(early.client, earlyAccount.id)).map((r) => r.date)).toEqual(['2030-06-01', '2030-06-02']);
    expect((await transactionsOf(late.client, lateAccount.id)).map((r) => r.date)).toEqual(['2030-06-01']);
    // 2 June 11:00 UTC is 2 June 00:00 in Pago Pago.
    await bookOnA('2030-06-02T11:00:00Z');
    expect((await transactionsOf(late.client, lateAccount.id)).map((r) => r.date)).toEqual(['2030-06-01', '2030-06-02']);
    expect(await balanceOf(late.client, lateAccount.id)).toBe(-20);
  });

  it('two instances booking at once, four runs in all, book each date once and move each balance by exactly what was booked', async () => {
    // More series than one batch claims, and a catch-up longer than one batch books of a series.
    const users = await Promise.all([signUp(a.url), signUp(a.url), signUp(a.url)]);
    const accounts = await Promise.all(users.map((u) => account(u.client, 500)));
    const perUser = Math.ceil((BOOKING_BATCH_SERIES + 10) / users.length);
    const created: { user: number; start: string }[] = [];
    for (let i = 0; i < users.length; i++) {
      await Promise.all(
        Array.from({ length: perUser }, async (_, j) => {
          const start = `2030-01-${String(1 + (j % 28)).padStart(2, '0')}`;
          await series(users[i]!.client, accounts[i]!.id, { amount: -1.25, date: start, recurrence: 'FREQ=DAILY' });
          created.push({ user: i, start });
        }),
      );
    }
    const longest = await series(users[0]!.client, accounts[0]!.id, { amount: -1.25, date: '2029-09-01', recurrence: 'FREQ=DAILY' });
    created.push({ user: 0, start: '2029-09-01' });
    const now = '2030-03-01T12:00:00Z'; // every series is due up to 1 March (UTC)
    const days = (start: string) => (Date.parse('2030-03-01') - Date.parse(start)) / 86_400_000 + 1;
    expect(days('2029-09-01')).toBeGreaterThan(2 * BOOKING_BATCH_DATES);

    const runs = await Promise.all([bookOnA(now), bookOnB(now), bookOnA(now), bookOnB(now)]);
    const expected = created.reduce((sum, s) => sum + days(s.start) - 1, 0); // the first date was booked at creation
    expect(runs.reduce((sum, r) => sum + r.booked, 0)).toBe(expected);
    const again = await Promise.all([bookOnA(now), bookOnB(now)]);
    expect(again.map((r) => r.booked)).toEqual([0, 0]);

    for (let i = 0; i < users.length; i++) {
      const mine = created.filter((s) => s.user === i);
      const rows = await dbRows(a, 'select series_id, occurrence_date::text as d, count(*)::int as n from finance_transactions where account_id = ? group by 1, 2', [accounts[i]!.id]);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect(rows).toHaveLength(mine.reduce((sum, s) => sum + days(s.start), 0));
      // The balance is the opening balance plus every row, to the cent.
      expect(await balanceOf(users[i]!.client, accounts[i]!.id)).toBe(Math.round((500 - 1.25 * rows.length) * 100) / 100);
    }
    const [last] = await dbRows(a, 'select max(occurrence_date)::text as d, count(*)::int as n from finance_transactions where series_id = ?', [longest.id]);
    expect(last).toEqual({ d: '2030-03-01', n: days('2029-09-01') });
  }, 120_000);

  it('stops when its rule is cleared or its first transaction deleted; what was booked stays', async () => {
    const acc = await account(alice, 0);
    const gym = await series(alice, acc.id, { amount: -30, description: 'Gym', date: '2030-01-05', recurrence: 'FREQ=WEEKLY' });
    const tv = await series(alice, acc.id, { amount: -12, description: 'TV', date: '2030-01-07', recurrence: 'FREQ=WEEKLY' });
    await bookOnA('2030-01-20T12:00:00Z');
    expect((await transactionsOf(alice, acc.id)).map((r) => `${r.description} ${r.date}`)).toEqual(['Gym 2030-01-05', 'TV 2030-01-07', 'Gym 2030-01-12', 'TV 2030-01-14', 'Gym 2030-01-19']);

    const cleared = await alice.patch(`/api/v1/transactions/${gym.id}`, { recurrence: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data).toMatchObject({ recurrence: null, nextDate: null, seriesId: gym.id, recurring: true });
    expect((await alice.delete(`/api/v1/transactions/${tv.id}`)).status).toBe(200);
    await bookOnA('2030-03-01T12:00:00Z');
    expect((await transactionsOf(alice, acc.id)).map((r) => `${r.description} ${r.date}`)).toEqual(['Gym 2030-01-05', 'Gym 2030-01-12', 'TV 2030-01-14', 'Gym 2030-01-19']);
    expect(await balanceOf(alice, acc.id)).toBe(-102);

    // A rule given again goes on after the last date booked, never again over it.
    const again = await alice.patch(`/api/v1/transactions/${gym.id}`, { recurrence: 'FREQ=WEEKLY;INTERVAL=2' });
    expect(again.body.data).toMatchObject({ recurrence: 'FREQ=WEEKLY;INTERVAL=2', nextDate: '2030-02-02' });
    await bookOnA('2030-02-10T12:00:00Z');
    expect((await transactionsOf(alice, acc.id)).filter((r) => r.description === 'Gym').map((r) => r.date)).toEqual(['2030-01-05', '2030-01-12', '2030-01-19', '2030-02-02']);
  });

  it('ends with its COUNT or UNTIL', async () => {
    const acc = await account(alice, 0);
    const counted = await series(alice, acc.id, { date: '2030-01-01', recurrence: 'FREQ=DAILY;COUNT=3' });
    const until = await series(alice, acc.id, { date: '2030-01-01', recurrence: 'FREQ=WEEKLY;UNTIL=20300115' });
    await bookOnA('2030-02-01T12:00:00Z');
    const rows = await transactionsOf(alice, acc.id);
    expect(rows.filter((r) => r.seriesId === counted.id).map((r) => r.date)).toEqual(['2030-01-01', '2030-01-02', '2030-01-03']);
    expect(rows.filter((r) => r.seriesId === until.id).map((r) => r.date)).toEqual(['2030-01-01', '2030-01-08', '2030-01-15']);
    for (const id of [counted.id, until.id]) expect((await alice.get(`/api/v1/transactions/${id}`)).body.data.nextDate).toBeNull();
  });

  it('refuses a bad rule, a rule finer than daily, recurring false with a rule, and a rule on a booked occurrence (400 naming the field)', async () => {
    const acc = await account(alice, 0);
    const post = (body: Record<string, unknown>) => alice.post('/api/v1/transactions', { accountId: acc.id, amount: -1, date: '2030-01-01', ...body });
    expectValidation(await post({ recurrence: 'FREQ=SOMETIMES' }), 'recurrence');
    expectValidation(await post({ recurrence: 'FREQ=HOURLY;COUNT=3' }), 'recurrence');
    expectValidation(await post({ recurrence: 'DTSTART:20300101\nRRULE:FREQ=DAILY' }), 'recurrence');
    expectValidation(await post({ recurrence: `FREQ=DAILY;${'BYMONTH=1;'.repeat(60)}` }), 'recurrence');
    expectValidation(await post({ recurrence: 'FREQ=DAILY', recurring: false }), 'recurring');
    expectValidation(await post({ recurrence: 7 }), 'recurrence');
    expect(await transactionsOf(alice, acc.id)).toEqual([]);
    expect(await balanceOf(alice, acc.id)).toBe(0);

    const first = await series(alice, acc.id, { amount: -1, date: '2030-01-01', recurrence: 'FREQ=DAILY' });
    await bookOnA('2030-01-02T12:00:00Z');
    const booked = (await transactionsOf(alice, acc.id)).find((r) => r.id !== first.id)!;
    expectValidation(await alice.patch(`/api/v1/transactions/${booked.id}`, { recurrence: 'FREQ=DAILY' }), 'recurrence');
    expectValidation(await alice.patch(`/api/v1/transactions/${first.id}`, { recurring: false }), 'recurring');
    // The series cannot restart on a date it booked already.
    expectValidation(await alice.patch(`/api/v1/transactions/${first.id}`, { date: '2030-01-02' }), 'date');
    // Its booked occurrences are transactions like any other: a new date keeps them booked once.
    expect((await alice.patch(`/api/v1/transactions/${booked.id}`, { date: '2030-01-05', amount: -2 })).body.data).toMatchObject({ date: '2030-01-05', occurrenceDate: '2030-01-02' });
    expect((await bookOnA('2030-01-02T12:00:00Z')).booked).toBe(0);
    expect(await balanceOf(alice, acc.id)).toBe(-3);
    // A single transaction can become a series (GraphQL too).
    const single = await series(alice, acc.id, { date: '2030-01-10' });
    const made = await alice.graphql('mutation($id: UUID!) { updateTransaction(transactionId: $id, recurrence: "FREQ=YEARLY") { recurring recurrence seriesId nextDate } }', { id: single.id });
    expect(made.body.errors, made.text).toBeUndefined();
    expect(made.body.data.updateTransaction).toEqual({ recurring: true, recurrence: 'FREQ=YEARLY', seriesId: single.id, nextDate: '2031-01-10' });
  });

  it("another user's series answers 404 to every read and change, exactly like a missing one", async () => {
    const acc = await account(alice, 0);
    const mine = await series(alice, acc.id, { date: '2030-01-01', recurrence: 'FREQ=DAILY' });
    expectNotFound(await bob.get(`/api/v1/transactions/${mine.id}`));
    expectNotFound(await bob.patch(`/api/v1/transactions/${mine.id}`, { recurrence: null }));
    expectNotFound(await bob.patch(`/api/v1/transactions/${mine.id}`, { recurrence: 'FREQ=WEEKLY' }));
    expectNotFound(await bob.delete(`/api/v1/transactions/${mine.id}`));
    expect((await alice.get(`/api/v1/transactions/${mine.id}`)).body.data).toMatchObject({ recurrence: 'FREQ=DAILY', nextDate: '2030-01-02' });
  });

  it('is booked by a job that repeats every minute (one job for all instances)', async () => {
    const jobs = await dbRows(a, 'select name, repeat_interval from agenda_jobs where name = ?', [BOOK_RECURRING_TRANSACTIONS_JOB]);
    expect(jobs).toEqual([{ name: BOOK_RECURRING_TRANSACTIONS_JOB, repeat_interval: '1 minute' }]);
    // A series whose next date is today (UTC) is booked when the job runs (here asked to run now).
    const acc = await account(alice, 0);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const daily = await series(alice, acc.id, { date: yesterday, recurrence: 'FREQ=DAILY' });
    await a.server.deps.jobs.agenda.now(BOOK_RECURRING_TRANSACTIONS_JOB);
    await expect.poll(async () => (await transactionsOf(alice, acc.id)).length, { timeout: 20_000, interval: 200 }).toBe(2);
    expect((await alice.get(`/api/v1/transactions/${daily.id}`)).body.data.nextDate).toBe(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
  }, 30_000);
});
