import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { generateWeek } from '../../../test/support/fixtures.js';
import { setPlan, sql } from '../../../test/support/db.js';
import { expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { blobsOnDisk, makeImage, postMultipart, until, upload, waitForVariants } from '../../files/files.test-helpers.js';

/**
 * DELETE /account: every record of the user in every table, their blobs, keys, webhooks, sessions,
 * in one transaction plus a storage purge job; a wrong password removes nothing; others stay intact.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});
afterAll(async () => {
  await app?.close();
});

const ok = async (res: Promise<{ status: number; text?: string; body: any }>, status = 201) => {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body.data;
};

/** A user with records in every domain, files with variants, an API key, a webhook with deliveries, an import. */
async function populate(): Promise<{ client: HttpClient; id: string; email: string; password: string }> {
  const user = await signUp(app.url);
  const { client, id } = user;
  await setPlan(app.databaseUrl, id, 'pro');
  await ok(client.post('/api/v1/api-keys', { name: 'Phone' }));
  await ok(client.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['task_created', 'water_logged'] }));
  await ok(client.patch('/api/v1/settings', { timezone: 'Europe/Berlin' }), 200);
  const week = await generateWeek(client, '2027-01-04');
  const day = week.days[0].id as string;
  const image = await ok(upload(client, await makeImage('jpeg', 800, 600), 'image'));
  await waitForVariants(client, image.id);
  const category = await ok(client.post('/api/v1/task-categories', { name: 'Health', color: '#00ff7F' }));
  await ok(client.post('/api/v1/tasks', { title: 'Stretch', timebox: 30, dayId: day, categoryId: category.id }));
  await ok(client.post(`/api/v1/checklist/${day}/toggle/WATER`, { value: 500 }), 200);
  const person = await ok(client.post('/api/v1/people', { name: 'Ada Lovelace' }));
  await ok(client.post('/api/v1/perimeter/tasks', { title: 'Call Ada', personId: person.id }));
  const happening = await ok(client.post('/api/v1/social-happenings', { dayId: day, title: 'Dinner', startTime: '2027-01-04T18:00:00.000Z', endTime: '2027-01-04T20:00:00.000Z', guestIds: [person.id] }));
  const own = await ok(client.post('/api/v1/exercises', { name: 'Sled Push', category: 'conditioning', muscleGroups: ['quadriceps'] }));
  await ok(client.patch(`/api/v1/exercises/${own.id}`, { oneRepMax: 120 }), 200);
  await ok(client.post('/api/v1/training/sessions', { dayId: day, split: 'Push', exercises: [{ exerciseId: own.id, sets: [{ reps: 5, load: 100 }] }] }));
  await ok(client.post('/api/v1/mobility/sessions', { dayId: day, focus: 'hips', duration: 20, intensity: 4 }));
  await ok(client.post('/api/v1/cardio/sessions', { dayId: week.days[1].id, type: 'run', duration: 30, intensity: 5 }));
  await ok(client.post('/api/v1/body-composition/measurements', { dayId: day, weight: 70 }));
  await ok(postMultipart(client, '/api/v1/body-composition/photos', { dayId: day, pose: 'front', file: { data: await makeImage('jpeg', 600, 900), fileName: 'me.jpg', contentType: 'image/jpeg' } }));
  await ok(client.post('/api/v1/meal-templates', { name: 'Chili', ingredients: [{ name: 'Beans', quantity: 400, unit: 'g' }], imageFileId: image.id }));
  await ok(client.post('/api/v1/dinner/generate-week', { weekId: week.id }));
  const list = await ok(client.post('/api/v1/grocery/generate', { weekId: week.id }));
  await ok(client.post(`/api/v1/grocery/${list.id}/items`, { name: 'Salt', quantity: 1, unit: 'pack' }));
  const question = await ok(client.post('/api/v1/journal/questions', { question: 'What made me laugh?', order: 1 }));
  await ok(client.post('/api/v1/journal/entries', { dayId: day, questionId: question.id, answer: 'The cat' }));
  const book = await ok(client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 600, coverUrl: image.id }));
  await ok(client.post('/api/v1/reading-sessions', { dayId: day, bookId: book.id, pagesRead: 30, duration: 25 }));
  const project = await ok(client.post('/api/v1/projects', { title: 'House' }));
  await ok(client.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Paint' }));
  await ok(client.post('/api/v1/deadlines', { title: 'Ship', dueDate: '2027-02-01T00:00:00.000Z', projectId: project.id }));
  await ok(client.post('/api/v1/tags', { name: 'red', color: '#FF0000' }));
  const account = await ok(client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 100, currency: 'EUR' }));
  await ok(client.post('/api/v1/transactions', { accountId: account.id, amount: -20, date: '2027-01-04', socialHappeningId: happening.id }));
  const water = await client.graphql(`mutation($d: UUID!) { logWater(dayId: $d, volume: 330) { id } logSteps(dayId: $d, steps: 8000) { steps } logMeditation(dayId: $d, duration: 10, type: "body scan") { duration } logMood(dayId: $d, mood: 6, energy: 9) { mood } logSleep(dayId: $d, duration: 6.5, quality: 5) { duration } }`, { d: day });
  expect(water.body.errors).toBeUndefined();
  const imported = await postMultipart(client, '/api/v1/account/import/goodreads', {
    file: { data: Buffer.from('Title,Author,Number of Pages,Date Read,Exclusive Shelf\nPiranesi,Susanna Clarke,272,,to-read\n'), fileName: 'g.csv', contentType: 'text/csv' },
  });
  expect(imported.status, imported.text).toBe(202);
  await until(async () => (await client.get(`/api/v1/account/import/${imported.body.data.id}`)).body.data.status === 'done');
  // The webhook engine has turned the events into deliveries (pending: the receiver does not answer).
  await until(async () => (await sql(app.databaseUrl, 'select count(*)::int as n from webhook_deliveries where user_id = $1', [id]))[0]!.n > 0);
  return user;
}

/** Every table and column (uuid, text, json, arrays) of the database holding `value`: "table.column" names. */
async function traces(value: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and c.data_type in ('uuid', 'text', 'character varying', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED', 'bytea')
        order by 1, 2`,
    );
    expect(columns.length).toBeGreaterThan(100);
    // One statement for all columns: a count per column, in one round trip.
    const parts = columns.map(({ table_name, column_name }) => `select '${table_name}.${column_name}' as name, count(*)::int as n from "${table_name}" where "${column_name}"::text like '%' || $1 || '%'`);
    const { rows } = await client.query<{ name: string; n: number }>(parts.join(' union all '), [value]);
    return rows.filter((r) => r.n > 0).map((r) => r.name).sort();
  } finally {
    await client.end();
  }
}

const tablesOf = (found: string[]) => [...new Set(found.map((f) => f.split('.')[0]))].sort();

const deleteAccount = (client: HttpClient, body: unknown) => client.delete('/api/v1/account', { body });

describe('DELETE /account', { timeout: 180_000 }, () => {
  it('removes every row of the user in every table and all their blobs; another user stays intact', async () => {
    const alice = await populate();
    const bob = await populate();
    const aliceTables = tablesOf(await traces(alice.id));
    // A user in every domain: their id is in (nearly) every table of the schema.
    expect(aliceTables.length).toBeGreaterThanOrEqual(40);
    const bobBefore = await traces(bob.id);
    const blobs = await blobsOnDisk(app);
    expect(blobs.filter((b) => b.startsWith(`${alice.id}/`)).length).toBeGreaterThanOrEqual(10); // originals + variants

    const oldCookie = alice.client.cookie!;
    const res = await deleteAccount(alice.client, { password: alice.password });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ id: alice.id, message: 'Account deleted' });
    expect(res.headers.get('set-cookie')).toMatch(/lp_session=;/);
    expect(alice.client.cookie).toBeUndefined();

    await until(async () => (await sql(app.databaseUrl, 'select count(*)::int as n from storage_purges'))[0]!.n === 0);
    expect(await traces(alice.id)).toEqual([]);
    expect((await blobsOnDisk(app)).filter((b) => b.startsWith(`${alice.id}/`))).toEqual([]);
    expect(await traces(bob.id)).toEqual(bobBefore);
    expect((await blobsOnDisk(app)).filter((b) => b.startsWith(`${bob.id}/`))).toEqual(blobs.filter((b) => b.startsWith(`${bob.id}/`)));

    // The old session and the credentials are gone; bob's session still works.
    expectStatus(await alice.client.get('/api/v1/auth/me', { headers: { cookie: oldCookie } }), 401, 'UNAUTHORIZED');
    expect((await app.http.post('/api/v1/auth/login', { email: alice.email, password: alice.password })).status).toBe(401);
    expect((await bob.client.get('/api/v1/books')).body.data).toHaveLength(2);
  });

  it('with a wrong or missing password removes nothing (401 / 400); without a session 401', async () => {
    const carol = await populate();
    const before = await traces(carol.id);
    expectStatus(await deleteAccount(carol.client, { password: 'not my password' }), 401, 'INVALID_CREDENTIALS');
    expectValidation(await deleteAccount(carol.client, {}), 'password');
    expectValidation(await deleteAccount(carol.client, { password: 42 }), 'password');
    expectStatus(await deleteAccount(carol.client.withoutCookie(), { password: carol.password }), 401, 'UNAUTHORIZED');
    expect(await traces(carol.id)).toEqual(before);
    expect((await carol.client.get('/api/v1/auth/me')).status).toBe(200);
    expect(await sql(app.databaseUrl, 'select id from storage_purges')).toEqual([]);
  });

  it('covers tables it was never told about: a new domain table referencing users, cascading or not', async () => {
    await sql(app.databaseUrl, 'create table future_grants (id uuid primary key, owner uuid not null references users (id))');
    await sql(app.databaseUrl, 'create table future_tokens (id uuid primary key, user_id uuid not null)');
    try {
      const dave = await signUp(app.url);
      const erin = await signUp(app.url);
      for (const u of [dave, erin]) {
        await sql(app.databaseUrl, 'insert into future_grants values (gen_random_uuid(), $1)', [u.id]);
        await sql(app.databaseUrl, 'insert into future_tokens values (gen_random_uuid(), $1)', [u.id]);
      }
      expect((await deleteAccount(dave.client, { password: dave.password })).status).toBe(200);
      expect(await sql(app.databaseUrl, 'select owner from future_grants')).toEqual([{ owner: erin.id }]);
      expect(await sql(app.databaseUrl, 'select user_id from future_tokens')).toEqual([{ user_id: erin.id }]);
    } finally {
      await sql(app.databaseUrl, 'drop table future_grants');
      await sql(app.databaseUrl, 'drop table future_tokens');
    }
  });

  it('every foreign key below a user-owned table cascades or its table names the user itself', async () => {
    // Rows below a user's rows without a user column of their own must go with their parent.
    const rows = await sql<{ child: string; parent: string; rule: string; child_has_user: boolean }>(
      app.databaseUrl,
      `select cls.relname as child, par.relname as parent, con.confdeltype as rule,
              exists (select 1 from information_schema.columns c where c.table_schema = current_schema() and c.table_name = cls.relname and c.column_name = 'user_id') as child_has_user
         from pg_constraint con join pg_class cls on cls.oid = con.conrelid join pg_class par on par.oid = con.confrelid
        where con.contype = 'f' and cls.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and par.relname <> 'users'`,
    );
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.rule !== 'c' && !r.child_has_user && r.child !== 'users')).toEqual([]);
  });
});
