import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { expectNotFound, expectRule, expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { dbRows, postMultipart } from '../../files/files.test-helpers.js';

/** CSV imports (Strong / Hevy, Goodreads, bank transactions) of the hand-written samples in test/fixtures/imports. */
let app: TestApp;
let bob: HttpClient;

const fixture = (name: string) => readFile(join(import.meta.dirname, '../../../test/fixtures/imports', name));
const MAX_FILE_SIZE = 200_000;
const BANK_MAPPING = JSON.stringify({ date: 'Booking date', amount: 'Amount', description: 'Payee', category: 'Kind' });

beforeAll(async () => {
  app = await startTestApp({ MAX_FILE_SIZE: String(MAX_FILE_SIZE) });
  ({ client: bob } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

async function post(client: HttpClient, source: string, data: Buffer | string, fields: Record<string, string> = {}) {
  return postMultipart(client, `/api/v1/account/import/${source}`, { ...fields, file: { data: Buffer.from(data), fileName: 'export.csv', contentType: 'text/csv' } });
}

/** Posts the file (202 { id, status: pending }) and waits for its job to finish. */
async function importFile(client: HttpClient, source: string, data: Buffer | string, fields: Record<string, string> = {}): Promise<any> {
  const res = await post(client, source, data, fields);
  expect(res.status, res.text).toBe(202);
  expect(res.body.data).toEqual({ id: expect.any(String), status: 'pending' });
  return waitFor(client, res.body.data.id);
}

async function waitFor(client: HttpClient, id: string): Promise<any> {
  const started = Date.now();
  for (;;) {
    const res = await client.get(`/api/v1/account/import/${id}`);
    expect(res.status, res.text).toBe(200);
    if (res.body.data.status === 'done' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() - started > 30_000) throw new Error(`import still ${res.body.data.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const account = async (client: HttpClient, balance = 100) => {
  const res = await client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance, currency: 'EUR' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

describe('strong and hevy', () => {
  it('imports the Strong sample: sessions per workout, catalog matches, own exercises, the bad row refused; again adds nothing', async () => {
    const { client, id: userId } = await signUp(app.url);
    const file = await fixture('strong.csv');
    const first = await importFile(client, 'strong', file);
    expect(first).toEqual({ id: expect.any(String), status: 'done', created: 9, skipped: 0, refused: [{ row: 7, reason: expect.stringContaining('Reps') }], refusedTotal: 1,
      progress: { rows: 10, done: 10 },
      exercises: {
        matched: [
          { name: 'Bench Press (Barbell)', exercise: 'Bench Press' },
          { name: 'Cable Crossover', exercise: 'Cable Crossover' },
          { name: 'Curls, Hammer', exercise: 'Hammer Curl' },
          { name: 'Overhead Press', exercise: 'Overhead Press' },
          { name: 'Pull Up', exercise: 'Pull-Up' },
        ],
        created: ['Running (Treadmill)'],
        left: [],
      },
    });

    const sessions = (await client.get('/api/v1/training/sessions')).body.data;
    expect(sessions.map((s: any) => [s.split, s.startTime, s.endTime, s.notes])).toEqual([
      ['Push', '2026-11-02T07:30:00.000Z', '2026-11-02T08:35:00.000Z', 'Felt strong'],
      ['Pull', '2026-11-04T18:00:00.000Z', '2026-11-04T18:45:00.000Z', null],
    ]);
    const entries = await dbRows(
      app,
      `select te.exercise_name, e.is_global, e.category, te.position, count(s.id)::int as sets, string_agg(coalesce(s.load::text, '-') || 'x' || coalesce(s.reps::text, '-') || '@' || coalesce(s.rpe::text, '-') || ':' || coalesce(s.notes, ''), ' ' order by s.set_number) as detail
         from training_exercises te join exercises e on e.id = te.exercise_id join training_sets s on s.training_exercise_id = te.id
        where te.user_id = ? group by te.id, e.id order by te.session_id = (select id from training_sessions where split = 'Push' and user_id = ?) desc, te.position`,
      [userId, userId],
    );
    expect(entries).toEqual([
      { exercise_name: 'Bench Press', is_global: true, category: 'strength', position: 1, sets: 3, detail: '60x10@7: 80x5@8.5: 80x5@9:' },
      { exercise_name: 'Overhead Press', is_global: true, category: 'strength', position: 2, sets: 1, detail: '40x8@-:' },
      { exercise_name: 'Cable Crossover', is_global: true, category: 'strength', position: 3, sets: 1, detail: '15x12@-:Slow negatives' },
      { exercise_name: 'Pull-Up', is_global: true, category: 'strength', position: 1, sets: 2, detail: '0x5@-:warm-up 10x8@-:' },
      { exercise_name: 'Hammer Curl', is_global: true, category: 'strength', position: 2, sets: 1, detail: '14x12@-:' },
      { exercise_name: 'Running (Treadmill)', is_global: false, category: 'cardio', position: 3, sets: 1, detail: '-x-@-:distance 2.5; 900 s' },
    ]);
    // Logged through the training service: each session recorded its training_logged event.
    expect((await dbRows(app, `select count(*)::int as n from event_outbox where user_id = ? and event = 'training_logged'`, [userId]))[0].n).toBe(2);

    const again = await importFile(client, 'strong', file);
    expect(again).toMatchObject({ status: 'done', created: 0, skipped: 9, refused: [{ row: 7 }] });
    expect((await client.get('/api/v1/training/sessions')).body.data).toHaveLength(2);
    expect((await dbRows(app, 'select count(*)::int as n from exercises where user_id = ?', [userId]))[0].n).toBe(1);
  });

  it('imports Hevy\'s workout CSV (weight_kg, set_type, start and end time)', async () => {
    const { client, id: userId } = await signUp(app.url);
    const result = await importFile(client, 'strong', await fixture('hevy.csv'));
    expect(result).toMatchObject({ status: 'done', created: 3, skipped: 0, refused: [{ row: 5, reason: expect.stringContaining('start_time') }] });
    const sessions = (await client.get('/api/v1/training/sessions')).body.data;
    expect(sessions.map((s: any) => [s.split, s.startTime, s.endTime, s.notes])).toEqual([['Leg Day', '2026-11-09T17:00:00.000Z', '2026-11-09T18:10:00.000Z', 'Knees fine']]);
    // Hevy's "Leg Extension (Machine)" is the catalog's Leg Extension (issue 23 item 19): no own exercise.
    const own = await dbRows(app, 'select name, category from exercises where user_id = ?', [userId]);
    expect(own).toEqual([]);
    expect(result.exercises).toEqual({
      matched: [
        { name: 'Barbell Back Squat', exercise: 'Barbell Back Squat' },
        { name: 'Leg Extension (Machine)', exercise: 'Leg Extension' },
      ],
      created: [],
      left: ['Leg Press'],
    });
    const squat = await dbRows(app, `select s.load, s.reps, s.rpe, s.notes from training_sets s join training_exercises te on te.id = s.training_exercise_id where te.user_id = ? and te.exercise_name = 'Barbell Back Squat' order by s.set_number`, [userId]);
    expect(squat).toEqual([
      { load: 60, reps: 5, rpe: null, notes: 'warm-up' },
      { load: 100, reps: 5, rpe: 8, notes: null },
    ]);
    expect((await importFile(client, 'strong', await fixture('hevy.csv'))).skipped).toBe(3);
  });

  it('reads workout times in the user\'s time zone', async () => {
    const { client } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: 'Europe/Berlin' })).status).toBe(200);
    await importFile(client, 'strong', 'Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2026-07-01 07:30:00,Push,Dip,1,0,10\n');
    const [session] = (await client.get('/api/v1/training/sessions')).body.data;
    expect(session.startTime).toBe('2026-07-01T05:30:00.000Z');
  });
});

describe('goodreads', () => {
  it('imports books; read ones finished (a reading session on Date Read when known), the bad row refused; again adds nothing', async () => {
    const { client, id: userId } = await signUp(app.url);
    const file = await fixture('goodreads.csv');
    const first = await importFile(client, 'goodreads', file);
    expect(first).toMatchObject({ status: 'done', created: 4, skipped: 0, refused: [{ row: 6, reason: expect.stringContaining('Date Read') }] });
    const books = (await client.get('/api/v1/books')).body.data;
    expect(books.map((b: any) => [b.title, b.author, b.totalPages, b.currentPage]).sort()).toEqual([
      ['Dune', 'Frank Herbert', 658, 0],
      ['Piranesi', 'Susanna Clarke', 272, 0],
      ['The Left Hand of Darkness', 'Ursula K. Le Guin', 304, 304],
      ['Thinking, Fast and Slow', 'Daniel Kahneman', 499, 499],
    ]);
    const sessions = await dbRows(app, `select b.title, to_char(d.date, 'YYYY-MM-DD') as date, r.pages_read, r.duration from reading_sessions r join books b on b.id = r.book_id join days d on d.id = r.day_id where r.user_id = ?`, [userId]);
    expect(sessions).toEqual([{ title: 'The Left Hand of Darkness', date: '2026-10-12', pages_read: 304, duration: 0 }]);
    // Through the reading service: that day's READING checklist item is ticked with the book.
    const ticked = await dbRows(app, `select c.completed, c.value from checklist_items c join days d on d.id = c.day_id where c.user_id = ? and d.date = '2026-10-12' and c.key = 'READING'`, [userId]);
    expect(ticked).toEqual([{ completed: true, value: books.find((b: any) => b.title === 'The Left Hand of Darkness').id }]);

    expect(await importFile(client, 'goodreads', file)).toMatchObject({ status: 'done', created: 0, skipped: 4, refused: [{ row: 6 }] });
    expect((await client.get('/api/v1/books')).body.data).toHaveLength(4);
  });
});

describe('transactions', () => {
  it('imports a bank CSV into one account with the mapping, keeping the balance; again adds nothing', async () => {
    const { client } = await signUp(app.url);
    const accountId = await account(client);
    const file = await fixture('bank.csv');
    const first = await importFile(client, 'transactions', file, { accountId, mapping: BANK_MAPPING });
    expect(first).toMatchObject({ status: 'done', created: 4, skipped: 0, refused: [{ row: 6, reason: expect.stringContaining('Booking date') }] });
    const list = (await client.get(`/api/v1/transactions?accountId=${accountId}`)).body.data;
    expect(list.map((t: any) => [t.date, t.amount, t.description, t.category]).sort()).toEqual([
      ['2026-11-03', -3.2, 'Bakery Hansen', 'groceries'],
      ['2026-11-03', -3.2, 'Bakery Hansen', 'groceries'],
      ['2026-11-05', 2450, 'ACME GmbH', 'income'],
      ['2026-11-07', -850, 'Rent Co; Flat 3', 'rent'],
    ]);
    expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(1693.6);

    const again = await importFile(client, 'transactions', file, { accountId, mapping: BANK_MAPPING });
    expect(again).toMatchObject({ status: 'done', created: 0, skipped: 4, refused: [{ row: 6 }] });
    expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(1693.6);
  });

  it('refuses a bad mapping, accountId or file with 400, another user\'s account with 404, storing nothing', async () => {
    const { client, id: userId } = await signUp(app.url);
    const accountId = await account(client);
    const bobsAccount = await account(bob);
    const file = await fixture('bank.csv');
    expectValidation(await post(client, 'transactions', file, { accountId }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { accountId, mapping: '{not json' }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { accountId, mapping: '["Amount"]' }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { accountId, mapping: JSON.stringify({ date: 'Booking date', amount: 'Amount' }) }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { accountId, mapping: JSON.stringify({ date: 'Booking date', amount: 'Betrag', description: 'Payee' }) }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { accountId, mapping: JSON.stringify({ date: 'Booking date', amount: 'Amount', description: 'Payee', memo: 'Purpose' }) }), 'mapping');
    expectValidation(await post(client, 'transactions', file, { mapping: BANK_MAPPING }), 'accountId');
    expectValidation(await post(client, 'transactions', file, { accountId: 'nope', mapping: BANK_MAPPING }), 'accountId');
    expectNotFound(await post(client, 'transactions', file, { accountId: bobsAccount, mapping: BANK_MAPPING }), 'accountId');
    expectNotFound(await post(client, 'transactions', file, { accountId: MISSING_ID, mapping: BANK_MAPPING }), 'accountId');
    expectValidation(await post(client, 'paypal', file), 'source');
    expectValidation(await post(client, 'goodreads', file), 'file');
    expectValidation(await post(client, 'strong', await fixture('goodreads.csv')), 'file');
    expectValidation(await post(client, 'goodreads', Buffer.from([0x54, 0x69, 0x74, 0x6c, 0x65, 0xff, 0xfe, 0x0a])), 'file');
    expectValidation(await postMultipart(client, '/api/v1/account/import/goodreads', { mapping: '{}' }), 'file');
    expectStatus(await post(client.withoutCookie(), 'goodreads', file), 401, 'UNAUTHORIZED');
    // MAX_FILE_SIZE holds for imports too (streamed, not the 2 MB JSON limit).
    const big = 'Title,Author,Number of Pages,Date Read,Exclusive Shelf\n' + 'Piranesi,Susanna Clarke,272,,to-read\n'.repeat(Math.ceil(MAX_FILE_SIZE / 30));
    expectRule(await post(client, 'goodreads', big), 'file_size');
    expect((await dbRows(app, 'select count(*)::int as n from account_imports where user_id = ?', [userId]))[0].n).toBe(0);
    expect((await dbRows(app, 'select count(*)::int as n from finance_transactions where account_id = ?', [bobsAccount]))[0].n).toBe(0);
  });

  it('a job that fails mid-way leaves nothing behind and says failed; the same file then goes in whole', async () => {
    const { client } = await signUp(app.url);
    const accountId = await account(client, 50);
    const csv = 'date,amount,text\n2026-11-01,-1.00,First\n2026-11-02,-2.00,Second\n2026-11-03,-3.00,Boom\n2026-11-04,-4.00,Fourth\n';
    const mapping = JSON.stringify({ date: 'date', amount: 'amount', description: 'text' });
    // A real database failure on the third row (not a refused row): the whole import must roll back.
    await dbRows(app, `create function import_test_boom() returns trigger language plpgsql as $$ begin if new.description = 'Boom' then raise exception 'disk on fire'; end if; return new; end $$`);
    await dbRows(app, 'create trigger import_test_boom before insert on finance_transactions for each row execute function import_test_boom()');
    try {
      expect(await importFile(client, 'transactions', csv, { accountId, mapping })).toMatchObject({ status: 'failed', created: 0, skipped: 0, refused: [] });
      expect((await client.get(`/api/v1/transactions?accountId=${accountId}`)).body.data).toEqual([]);
      expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(50);
    } finally {
      await dbRows(app, 'drop trigger import_test_boom on finance_transactions');
      await dbRows(app, 'drop function import_test_boom()');
    }
    expect(await importFile(client, 'transactions', csv, { accountId, mapping })).toMatchObject({ status: 'done', created: 4, skipped: 0 });
    expect((await client.get(`/api/v1/accounts/${accountId}`)).body.data.balance).toBe(40);
  });
});

describe('isolation', () => {
  it('another user\'s import id answers 404 like a missing one; a malformed id 400; no session 401', async () => {
    const { client } = await signUp(app.url);
    const res = await post(client, 'goodreads', await fixture('goodreads.csv'));
    expect(res.status, res.text).toBe(202);
    const id = res.body.data.id;
    expect((await waitFor(client, id)).status).toBe('done');
    expectNotFound(await bob.get(`/api/v1/account/import/${id}`));
    expectNotFound(await client.get(`/api/v1/account/import/${MISSING_ID}`));
    expectValidation(await client.get('/api/v1/account/import/not-a-uuid'), 'importId');
    expectStatus(await client.withoutCookie().get(`/api/v1/account/import/${id}`), 401, 'UNAUTHORIZED');
  });
});
