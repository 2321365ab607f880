import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectNotFound, expectValidation } from '../../test/support/expectations.js';
import { dbRows } from '../files/files.test-helpers.js';
import { weekDays } from '../training/activity.test-helpers.js';

/** Accounts (ISO 4217, opening balance) and transactions that keep each balance = opening + Σ amounts, exactly. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

async function createAccount(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 100, currency: 'EUR', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function createTransaction(client: HttpClient, accountId: string, amount: number, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/transactions', { accountId, amount, date: '2027-01-04', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const balance = async (client: HttpClient, accountId: string) => (await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance;

describe('accounts', () => {
  it('creates (201) with the opening balance, lists with type and isActive filters, gets, patches, deletes', async () => {
    const { client } = await signUp(app.url);
    const main = await createAccount(client, { currency: 'eur', type: 'Checking' });
    expect(main).toMatchObject({ name: 'Main', type: 'checking', balance: 100, openingBalance: 100, currency: 'EUR', isActive: true });
    const cash = await createAccount(client, { name: 'Cash', type: 'cash', balance: undefined, currency: 'USD' });
    expect(cash).toMatchObject({ balance: 0, openingBalance: 0 });
    const old = await createAccount(client, { name: 'Old', isActive: false });

    const names = async (query: string) => (await client.get(`/api/v1/accounts?${query}`)).body.data.map((a: any) => a.name);
    expect(await names('')).toEqual(['Cash', 'Main', 'Old']);
    expect(await names('type=checking')).toEqual(['Main', 'Old']);
    expect(await names('isActive=true')).toEqual(['Cash', 'Main']);
    expect(await names('isActive=false&type=CHECKING')).toEqual(['Old']);
    expect((await client.get('/api/v1/accounts')).body.meta).toEqual({ page: 1, limit: 50, total: 3 });

    const patched = await client.patch(`/api/v1/accounts/${main.id}`, { name: 'Giro', isActive: false, currency: 'CHF' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Giro', isActive: false, currency: 'CHF', balance: 100 });

    expect((await client.delete(`/api/v1/accounts/${old.id}`)).body.data).toEqual({ id: old.id, message: 'Account deleted' });
    expectNotFound(await client.get(`/api/v1/accounts/${old.id}`));
    expectNotFound(await client.patch(`/api/v1/accounts/${old.id}`, { name: 'x' }));
    expectNotFound(await client.delete(`/api/v1/accounts/${old.id}`));
  });

  it('refuses an unknown currency, wrong JSON types and more than 2 decimals with 400, storing nothing', async () => {
    const { client } = await signUp(app.url);
    const post = (body: Record<string, unknown>) => client.post('/api/v1/accounts', { name: 'A', type: 'checking', balance: 0, currency: 'EUR', ...body });
    expectValidation(await post({ currency: 'ABC' }), 'currency');
    expectValidation(await post({ currency: 'XXX' }), 'currency');
    expectValidation(await post({ currency: 'EURO' }), 'currency');
    expectValidation(await post({ currency: 978 }), 'currency');
    expectValidation(await post({ balance: '100' }), 'balance');
    expectValidation(await post({ balance: 1.005 }), 'balance');
    expectValidation(await post({ balance: 1e12 }), 'balance');
    expectValidation(await post({ isActive: 'yes' }), 'isActive');
    expectValidation(await post({ name: '' }), 'name');
    expectValidation(await client.get('/api/v1/accounts?isActive=maybe'), 'isActive');
    expect((await client.get('/api/v1/accounts')).body.meta.total).toBe(0);
    const a = (await post({})).body.data;
    expectValidation(await client.patch(`/api/v1/accounts/${a.id}`, { currency: 'ZZZ' }), 'currency');
    expectValidation(await client.patch(`/api/v1/accounts/${a.id}`, { name: null }), 'name');
    expect((await client.get(`/api/v1/accounts/${a.id}`)).body.data.currency).toBe('EUR');
  });

  it("answers 404 for another user's account", async () => {
    const mine = await createAccount(alice);
    expectNotFound(await bob.get(`/api/v1/accounts/${mine.id}`));
    expectNotFound(await bob.patch(`/api/v1/accounts/${mine.id}`, { name: 'x' }));
    expectNotFound(await bob.delete(`/api/v1/accounts/${mine.id}`));
    expect((await bob.get('/api/v1/accounts')).body.data).toEqual([]);
    expect((await alice.get(`/api/v1/accounts/${mine.id}`)).body.data.name).toBe('Main');
  });
});

describe('transactions and the balance rule', () => {
  it('keeps 0.1 + 0.2 exact: the balance is 0.3, and numeric in the database', async () => {
    const { client } = await signUp(app.url);
    const a = await createAccount(client, { balance: 0 });
    await createTransaction(client, a.id, 0.1);
    await createTransaction(client, a.id, 0.2);
    expect(await balance(client, a.id)).toBe(0.3);
    const [row] = await dbRows(app, 'select balance::text as b from finance_accounts where id = ?', [a.id]);
    expect(row.b).toBe('0.30');
    const t = await createTransaction(client, a.id, -19.99);
    expect(t.amount).toBe(-19.99);
    expect(await balance(client, a.id)).toBe(-19.69);
  });

  it('applies 50 concurrent creates without losing one: balance = opening + sum', async () => {
    const { client } = await signUp(app.url);
    const a = await createAccount(client, { balance: 1000.5 });
    const amounts = Array.from({ length: 50 }, (_, i) => (i % 2 ? -1 : 1) * (i + 0.01 * (i % 10)));
    const answers = await Promise.all(amounts.map((amount) => client.post('/api/v1/transactions', { accountId: a.id, amount, date: '2027-01-04' })));
    expect(answers.map((r) => r.status)).toEqual(amounts.map(() => 201));
    // The expected sum in cents (integers): no float arithmetic in the check either.
    const cents = amounts.reduce((sum, x) => sum + Math.round(x * 100), 100050);
    const [row] = await dbRows(app, 'select balance::text as b, (select count(*)::int from finance_transactions where account_id = ?) as n from finance_accounts where id = ?', [a.id, a.id]);
    expect(row.n).toBe(50);
    expect(row.b).toBe((cents / 100).toFixed(2));
  });

  it('follows updates, moves to another account and deletes in the balances', async () => {
    const { client } = await signUp(app.url);
    const a = await createAccount(client, { balance: 10 });
    const b = await createAccount(client, { name: 'Savings', balance: 0 });
    const t = await createTransaction(client, a.id, -2.5, { description: 'Coffee', category: 'Food' });
    expect(t).toMatchObject({ accountId: a.id, amount: -2.5, description: 'Coffee', category: 'food', recurring: false, date: '2027-01-04', socialHappeningId: null });
    expect(await balance(client, a.id)).toBe(7.5);

    let res = await client.patch(`/api/v1/transactions/${t.id}`, { amount: -3.75 });
    expect(res.status, res.text).toBe(200);
    expect(await balance(client, a.id)).toBe(6.25);

    res = await client.patch(`/api/v1/transactions/${t.id}`, { accountId: b.id });
    expect(res.body.data).toMatchObject({ accountId: b.id, amount: -3.75 });
    expect(await balance(client, a.id)).toBe(10);
    expect(await balance(client, b.id)).toBe(-3.75);

    res = await client.patch(`/api/v1/transactions/${t.id}`, { accountId: a.id, amount: 5, recurring: true, description: null });
    expect(res.body.data).toMatchObject({ accountId: a.id, amount: 5, recurring: true, description: null });
    expect(await balance(client, a.id)).toBe(15);
    expect(await balance(client, b.id)).toBe(0);

    expect((await client.get(`/api/v1/transactions/${t.id}`)).body.data.amount).toBe(5);
    expect((await client.delete(`/api/v1/transactions/${t.id}`)).body.data).toEqual({ id: t.id, message: 'Transaction deleted' });
    expect(await balance(client, a.id)).toBe(10);
    expectNotFound(await client.get(`/api/v1/transactions/${t.id}`));
    expectNotFound(await client.patch(`/api/v1/transactions/${t.id}`, { amount: 1 }));
    expectNotFound(await client.delete(`/api/v1/transactions/${t.id}`));
  });

  it('filters by accountId, date range and category, newest first, and links an own happening', async () => {
    const { client } = await signUp(app.url);
    const [dayId] = await weekDays(client);
    const happening = (await client.post('/api/v1/social-happenings', { dayId, title: 'Dinner', startTime: '2027-01-04T18:00:00Z', endTime: '2027-01-04T20:00:00Z' })).body.data;
    const a = await createAccount(client);
    const b = await createAccount(client, { name: 'Card' });
    await createTransaction(client, a.id, -10, { date: '2027-01-01', category: 'food', description: 'Jan 1' });
    await createTransaction(client, a.id, -20, { date: '2027-01-05', category: 'rent', description: 'Jan 5' });
    const linked = await createTransaction(client, b.id, -30, { date: '2027-01-03', category: 'Food', description: 'Jan 3', socialHappeningId: happening.id });
    expect(linked.socialHappeningId).toBe(happening.id);
    const list = async (query: string) => (await client.get(`/api/v1/transactions?${query}`)).body.data.map((t: any) => t.description);
    expect(await list('')).toEqual(['Jan 5', 'Jan 3', 'Jan 1']);
    expect(await list(`accountId=${a.id}`)).toEqual(['Jan 5', 'Jan 1']);
    expect(await list('startDate=2027-01-02&endDate=2027-01-04')).toEqual(['Jan 3']);
    expect(await list('category=FOOD')).toEqual(['Jan 3', 'Jan 1']);
    expect(await list(`category=food&accountId=${b.id}`)).toEqual(['Jan 3']);
    expectValidation(await client.get('/api/v1/transactions?startDate=2027-01-05&endDate=2027-01-01'), 'startDate');
    expectValidation(await client.get('/api/v1/transactions?accountId=nope'), 'accountId');
    expectNotFound(await client.get(`/api/v1/transactions?accountId=${MISSING_ID}`), 'accountId');
    // Deleting the happening unlinks the transaction, which stays.
    await client.delete(`/api/v1/social-happenings/${happening.id}`);
    expect((await client.get(`/api/v1/transactions/${linked.id}`)).body.data.socialHappeningId).toBeNull();
  });

  it('refuses bad input with 400 and changes no balance', async () => {
    const { client } = await signUp(app.url);
    const a = await createAccount(client, { balance: 1 });
    const post = (body: Record<string, unknown>) => client.post('/api/v1/transactions', { accountId: a.id, amount: 1, date: '2027-01-04', ...body });
    expectValidation(await post({ amount: '1.00' }), 'amount');
    expectValidation(await post({ amount: 0.001 }), 'amount');
    expectValidation(await post({ amount: undefined }), 'amount');
    expectValidation(await post({ date: '2027-02-30' }), 'date');
    expectValidation(await post({ recurring: 'true' }), 'recurring');
    expectValidation(await post({ accountId: 'abc' }), 'accountId');
    expectValidation(await post({ socialHappeningId: 5 }), 'socialHappeningId');
    expectValidation(await post({ category: ['x'] }), 'category');
    expect((await client.get('/api/v1/transactions')).body.meta.total).toBe(0);
    expect(await balance(client, a.id)).toBe(1);
    const t = await createTransaction(client, a.id, 1);
    expectValidation(await client.patch(`/api/v1/transactions/${t.id}`, { amount: null }), 'amount');
    expectValidation(await client.patch(`/api/v1/transactions/${t.id}`, { amount: 'x' }), 'amount');
    expect(await balance(client, a.id)).toBe(2);
  });

  it("answers 404 for another user's transaction, and names accountId or socialHappeningId for another user's ids in a body", async () => {
    const aliceAccount = await createAccount(alice);
    const [aliceDay] = await weekDays(alice);
    const aliceHappening = (await alice.post('/api/v1/social-happenings', { dayId: aliceDay, title: 'x', startTime: '2027-01-04T18:00:00Z', endTime: '2027-01-04T20:00:00Z' })).body.data;
    const mine = await createTransaction(alice, aliceAccount.id, -5);
    expectNotFound(await bob.get(`/api/v1/transactions/${mine.id}`));
    expectNotFound(await bob.patch(`/api/v1/transactions/${mine.id}`, { amount: 1 }));
    expectNotFound(await bob.delete(`/api/v1/transactions/${mine.id}`));
    expect((await bob.get('/api/v1/transactions')).body.data).toEqual([]);

    const bobAccount = await createAccount(bob);
    expectNotFound(await bob.post('/api/v1/transactions', { accountId: aliceAccount.id, amount: 1, date: '2027-01-04' }), 'accountId');
    expectNotFound(await bob.post('/api/v1/transactions', { accountId: bobAccount.id, amount: 1, date: '2027-01-04', socialHappeningId: aliceHappening.id }), 'socialHappeningId');
    const bobs = await createTransaction(bob, bobAccount.id, 1);
    expectNotFound(await bob.patch(`/api/v1/transactions/${bobs.id}`, { accountId: aliceAccount.id }), 'accountId');
    expectNotFound(await bob.patch(`/api/v1/transactions/${bobs.id}`, { socialHappeningId: aliceHappening.id }), 'socialHappeningId');
    expectNotFound(await bob.get(`/api/v1/transactions?accountId=${aliceAccount.id}`), 'accountId');
    expect(await balance(alice, aliceAccount.id)).toBe(95);
    expect(await balance(bob, bobAccount.id)).toBe(101);
  });
});

describe('CSV export', () => {
  it('answers the filtered transactions as a CSV file, formula cells defused', async () => {
    const { client } = await signUp(app.url);
    const a = await createAccount(client);
    await createTransaction(client, a.id, -12.5, { description: '=HYPERLINK("http://evil")', category: '+sum', date: '2027-01-02' });
    await createTransaction(client, a.id, 3, { description: 'Refund, "partial"', category: 'food', date: '2027-01-03' });
    await createTransaction(client, a.id, 7, { description: 'Old', date: '2026-12-01' });
    await createTransaction(client, a.id, 1, { description: "ok\n=cmd|' /C calc'!A0", category: 'x\r@y', date: '2027-01-01' });
    const res = await client.get('/api/v1/transactions/export?format=csv&startDate=2027-01-01');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    // A line feed or CR inside a cell: the cell is quoted and each of its lines starts as text.
    expect(res.text).toContain(`,2027-01-01,${a.id},1.00,"ok\n'=cmd|' /C calc'!A0","x\r'@y",false,`);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,date,accountId,amount,description,category,recurring,socialHappeningId');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,2027-01-03,${a.id},3.00,"Refund, ""partial""",food,false,`);
    expect(lines[2]).toContain(`,2027-01-02,${a.id},-12.50,"'=HYPERLINK(""http://evil"")",'+sum,false,`);

    const bad = await client.get('/api/v1/transactions/export?format=xlsx');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['format']);
    const foreign = await client.get(`/api/v1/transactions/export?accountId=${MISSING_ID}`);
    expect(foreign.status).toBe(404);
    const anonymous = await fetch(`${app.url}/api/v1/transactions/export?format=csv`);
    expect(anonymous.status).toBe(401);
  });
});

describe('largeExpenseThreshold setting', () => {
  it('defaults to 100 and can be changed to a positive amount', async () => {
    const { client } = await signUp(app.url);
    expect((await client.get('/api/v1/settings')).body.data.largeExpenseThreshold).toBe(100);
    const res = await client.patch('/api/v1/settings', { largeExpenseThreshold: 250.5 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.largeExpenseThreshold).toBe(250.5);
    expectValidation(await client.patch('/api/v1/settings', { largeExpenseThreshold: -5 }), 'largeExpenseThreshold');
    expectValidation(await client.patch('/api/v1/settings', { largeExpenseThreshold: '100' }), 'largeExpenseThreshold');
    expect((await client.get('/api/v1/settings')).body.data.largeExpenseThreshold).toBe(250.5);
  });
});
