import { createECDH, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { generateWeek } from '../../../test/support/fixtures.js';
import { setPlan, sql } from '../../../test/support/db.js';
import { expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { mailsTo } from '../../../test/support/mailbox.js';
import { blobsOnDisk, makeImage, postMultipart, until, upload, waitForVariants } from '../../files/files.test-helpers.js';
import { runExport } from '../export/export.test-helpers.js';
import { childrenFirst } from './deletion.queries.js';
import { runNight } from '../../insights/insights.test-helpers.js';

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

/**
 * A user with records in every table that holds a user's rows (checked against the catalog below):
 * every domain, files with variants, an API key, a webhook with deliveries, an import, an export, a
 * calendar feed, a shop purchase, a connector grant with its tokens, Brain notes in nested folders, a
 * form with answers, and mails in the outbox.
 */
async function populate(): Promise<{ client: HttpClient; id: string; email: string; password: string; formSlug: string }> {
  const user = await signUp(app.url);
  const { client, id } = user;
  await setPlan(app.databaseUrl, id, 'pro');
  await ok(client.post('/api/v1/api-keys', { name: 'Phone' }));
  await ok(client.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['task_created', 'water_logged'] }));
  // Sent with an idempotency key: its first answer is kept (idempotency_keys).
  await ok(client.request('PATCH', '/api/v1/settings', { body: { timezone: 'Europe/Berlin' }, headers: { 'idempotency-key': 'settings-1' } }), 200);
  const week = await generateWeek(client, '2027-01-04');
  const day = week.days[0].id as string;
  const image = await ok(upload(client, await makeImage('jpeg', 800, 600), 'image'));
  // A deleted file in the trash (docs/trash.md): its entry, its copied rows, the cover it was (trash_links)
  // and its stored bytes go with the account too.
  const trashedFile = await ok(upload(client, await makeImage('png', 16, 16), 'image'));
  await ok(client.post('/api/v1/books', { title: 'Old', author: 'Anon', totalPages: 10, coverUrl: trashedFile.id }));
  expect((await client.delete(`/api/v1/files/${trashedFile.id}`)).status).toBe(200);
  await waitForVariants(client, image.id);
  const category = await ok(client.post('/api/v1/task-categories', { name: 'Health', color: '#00ff7F' }));
  const stretch = await ok(client.post('/api/v1/tasks', { title: 'Stretch', timebox: 30, dayId: day, categoryId: category.id }));
  // Reminders (issue 26): a reminder with a delivery, a push subscription, notification settings.
  const reminder = await ok(client.post('/api/v1/reminders', { kind: 'task_at_time', targetId: stretch.id, channel: 'email', localTime: '08:00' }));
  await sql(
    app.databaseUrl,
    `insert into reminder_deliveries (id, created_at, updated_at, user_id, reminder_id, occurrence_key, due_at, channel, status) values (gen_random_uuid(), now(), now(), $1, $2, 'populate', now(), 'email', 'sent')`,
    [id, reminder.id],
  );
  // The change feed's retention horizon (written by its purge job, docs/sync.md).
  await sql(app.databaseUrl, 'insert into lp_change_feed_horizons (user_id, purged_through) values ($1, 1)', [id]);
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  await ok(client.post('/api/v1/notifications/push-subscriptions', { endpoint: `https://push.example/${id}`, keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } }));
  await ok(client.patch('/api/v1/notifications/settings', { quietHoursStart: '22:00', quietHoursEnd: '07:00' }), 200);
  await ok(client.post(`/api/v1/checklist/${day}/toggle/WATER`, { value: 500 }), 200);
  // An undo used (docs/undo.md): its `undo_tokens` row records the token's single use.
  const toggled = await client.post(`/api/v1/checklist/${day}/toggle/MEDITATION`, { value: 10 });
  expect((await client.post('/api/v1/undo', { token: toggled.headers.get('undo-token') })).status).toBe(200);
  const person = await ok(client.post('/api/v1/people', { name: 'Ada Lovelace' }));
  const perimeter = [await ok(client.post('/api/v1/perimeter/tasks', { title: 'Call Ada', personId: person.id }))];
  for (const title of ['Post', 'Bins']) perimeter.push(await ok(client.post('/api/v1/perimeter/tasks', { title })));
  await ok(client.post(`/api/v1/perimeter/${day}`, { taskIds: perimeter.map((t) => t.id) }), 200);
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
  const habit = await ok(client.post('/api/v1/habits', { name: 'Floss', startDate: '2027-01-01' }));
  await ok(client.post(`/api/v1/habits/${habit.id}/entries`, { dayId: day }));
  await ok(client.post(`/api/v1/habits/${habit.id}/days/${week.days[1].id}/mark`, { mark: 'SKIP' }), 200);
  await ok(client.post('/api/v1/reminders', { kind: 'habit', targetId: habit.id, channel: 'email', localTime: '08:00' }));
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
  // Brain: a note in a folder in a folder (brain_note.folder_id and brain_folder.parent_id refuse to
  // lose their folder), tags, a canvas, a database with a record, a published form with an answer.
  const outer = await ok(client.post('/api/v1/brain/folders', { name: 'Work' }));
  const inner = await ok(client.post('/api/v1/brain/folders', { name: 'Inner', parentId: outer.id }));
  const brainTag = await ok(client.post('/api/v1/brain/tags', { name: 'urgent' }));
  const note = await ok(client.post('/api/v1/brain/notes', { title: 'Plan', content: 'x', folderId: inner.id, tagIds: [brainTag.id] }));
  await ok(client.post('/api/v1/brain/notes', { title: 'Top', folderId: outer.id }));
  await ok(client.post('/api/v1/brain/canvases', { name: 'Board', cards: [{ entityType: 'note', entityId: note.id, x: 1, y: 2 }] }));
  const brainDb = await ok(client.post('/api/v1/brain/databases', { name: 'Reading', properties: [{ key: 'title', name: 'Title', type: 'text' }] }));
  await ok(client.post(`/api/v1/brain/databases/${brainDb.id}/records`, { values: { title: 'Dune' } }));
  const form = await ok(client.post('/api/v1/brain/forms', { name: 'Poll', createDatabase: { name: 'Poll answers' }, config: { fields: [{ key: 'name', label: 'Name', type: 'text' }], oneResponsePerPerson: true } }));
  const formSlug = (await ok(client.post(`/api/v1/brain/forms/${form.id}/publish`, { published: true }), 200)).publicSlug as string;
  await ok(client.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { name: 'Me' } }));
  // A calendar feed, an account export, a shop purchase, a password reset mail (auth token + outbox).
  const feed = await client.graphql('mutation { createAgendaFeed { url } }');
  expect(feed.body.errors).toBeUndefined();
  expect((await runExport(client)).status).toBe('done');
  await sql(app.databaseUrl, `insert into gamification_purchases (id, created_at, updated_at, user_id, item_id, price) select gen_random_uuid(), now(), now(), $1, id, 0 from gamification_shop_items order by key limit 1`, [id]);
  expect((await app.http.post('/api/v1/auth/request-password-reset', { email: user.email })).status).toBe(200);
  await until(async () => (await mailsTo(join(app.dataDir, 'mail'), user.email)).length > 0);
  // A connector grant: a connection of an OAuth client with an access token and an unused code.
  await sql(
    app.databaseUrl,
    `with client as (insert into oauth_clients (id, created_at, updated_at, client_name, metadata) values (gen_random_uuid(), now(), now(), 'Assistant', '{}') returning id),
          conn as (insert into oauth_connections (id, created_at, updated_at, user_id, client_id, client_name) select gen_random_uuid(), now(), now(), $1, id, 'Assistant' from client returning id, client_id),
          tok as (insert into oauth_tokens (id, created_at, updated_at, token_hash, kind, connection_id, client_id, family_id, resource, expires_at)
                  select gen_random_uuid(), now(), now(), md5(random()::text), 'access', id, client_id, gen_random_uuid(), 'x', now() + interval '1 hour' from conn returning 1)
     insert into oauth_codes (id, created_at, updated_at, code_hash, connection_id, client_id, redirect_uri, code_challenge, resource, family_id, expires_at)
     select gen_random_uuid(), now(), now(), md5(random()::text), id, client_id, 'http://127.0.0.1/cb', 'c', 'x', gen_random_uuid(), now() + interval '1 minute' from conn`,
    [id],
  );
  // Two-factor rows (issue 28): an authenticator enrolment not yet confirmed (so later sign-ins need no
  // code), a recovery code and an open second step of a sign-in.
  await sql(app.databaseUrl, `insert into totp_credentials (id, user_id, secret_encrypted, created_at) values (gen_random_uuid(), $1, 'v1.x.y.z', now())`, [id]);
  await sql(app.databaseUrl, `insert into recovery_codes (id, user_id, code_hash, created_at) values (gen_random_uuid(), $1, md5(random()::text), now())`, [id]);
  await sql(app.databaseUrl, `insert into sign_in_challenges (id, user_id, token_hash, expires_at, created_at) values (gen_random_uuid(), $1, md5(random()::text), now() + interval '5 minutes', now())`, [id]);
  // A single sign-on identity linked to the account (issue 28, OpenID Connect).
  await sql(app.databaseUrl, `insert into oidc_identities (id, user_id, issuer, subject, email, created_at, last_used_at) values (gen_random_uuid(), $1::uuid, 'https://id.example.com', $1::text, 'x@example.com', now(), now())`, [id]);
  // A passkey and an open WebAuthn registration challenge (issue 28, src/accounts/passkeys).
  await sql(app.databaseUrl, `insert into passkeys (id, created_at, updated_at, user_id, credential_id, public_key, name, device_type) values (gen_random_uuid(), now(), now(), $1, md5(random()::text), '\\x00', 'Phone', 'singleDevice')`, [id]);
  await sql(app.databaseUrl, `insert into webauthn_challenges (id, user_id, purpose, challenge, created_at, expires_at) values (gen_random_uuid(), $1, 'registration', md5(random()::text), now(), now() + interval '5 minutes')`, [id]);
  // Insights (issue 37): the nightly job's person-days and bookkeeping for the week above, and a finding.
  expect((await runNight(app, new Date('2027-01-06T04:00:00.000Z'), [id])).people).toBe(1);
  await sql(
    app.databaseUrl,
    `insert into insights (id, created_at, updated_at, user_id, sentence, condition, outcome, lag, rho, n, p, q, threshold, effect, mean_with, mean_without, condition_days, days, computed_at)
     values (gen_random_uuid(), now(), now(), $1, 'On days after you sleep 7 h or more, your mood is 1 point higher (30 days, q = 0.01)', 'sleepHours', 'mood', 0, 0.5, 30, 0.001, 0.01, 7, 1, 7, 6, 15, '{2027-01-04}', now())`,
    [id],
  );
  // The webhook engine has turned the events into deliveries (pending: the receiver does not answer).
  await until(async () => (await sql(app.databaseUrl, 'select count(*)::int as n from webhook_deliveries where user_id = $1', [id]))[0]!.n > 0);
  return { ...user, formSlug };
}

/**
 * Every table that holds a user's rows, read from the catalog, with how many are `userId`'s: a table
 * with a key to users or a `user_id` column, or with a key to such a table (rows below the user's).
 */
async function rowsPerUserTable(userId: string): Promise<Record<string, number>> {
  const keys = await sql<{ child: string; column: string; parent: string }>(
    app.databaseUrl,
    `select cls.relname as child, att.attname as "column", par.relname as parent
       from pg_constraint con join pg_class cls on cls.oid = con.conrelid join pg_class par on par.oid = con.confrelid
       join pg_attribute att on att.attrelid = con.conrelid and att.attnum = con.conkey[1]
      where con.contype = 'f' and array_length(con.conkey, 1) = 1 and con.conrelid <> con.confrelid
        and cls.relnamespace = (select oid from pg_namespace where nspname = current_schema())`,
  );
  const userColumns = await sql<{ table_name: string }>(
    app.databaseUrl,
    `select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'user_id' and table_name <> 'users'`,
  );
  const own = new Map<string, string[]>();
  const add = (table: string, column: string) => own.set(table, [...new Set([...(own.get(table) ?? []), column])]);
  for (const k of keys) if (k.parent === 'users') add(k.child, k.column);
  for (const c of userColumns) add(c.table_name, 'user_id');
  const condition = new Map([...own].map(([t, cols]) => [t, cols.map((c) => `"${t}"."${c}" = $1`).join(' or ')]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const k of keys) {
      if (k.parent === 'users' || condition.has(k.child) || !condition.has(k.parent)) continue;
      condition.set(k.child, `exists (select 1 from "${k.parent}" where "${k.parent}".id = "${k.child}"."${k.column}" and (${condition.get(k.parent)}))`);
      grew = true;
    }
  }
  const parts = [...condition].map(([t, where]) => `select '${t}' as name, count(*)::int as n from "${t}" where ${where}`);
  const rows = await sql<{ name: string; n: number }>(app.databaseUrl, parts.join(' union all '), [userId]);
  return Object.fromEntries(rows.map((r) => [r.name, r.n]).sort());
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
    // Alice answers Bob's published one-response form signed in: Bob's record names her.
    const answered = await alice.client.post(`/api/v1/brain/public/forms/${bob.formSlug}/submit`, { values: { name: 'Alice' } });
    expect(answered.status, answered.text).toBe(201);
    const [answer] = await sql(app.databaseUrl, 'select id, respondent_user_id, "values" from brain_record where user_id = $1 and respondent_user_id = $2', [bob.id, alice.id]);
    expect(answer!.values.__respondentUserId).toBe(alice.id);
    const aliceTables = tablesOf(await traces(alice.id));
    // A user in every domain: their id is in (nearly) every table of the schema.
    expect(aliceTables.length).toBeGreaterThanOrEqual(40);
    // Alice has rows in EVERY table that can hold a user's rows: a table added later fails here until
    // populate() fills it, so the deletion is always tried against all of them.
    const aliceRows = await rowsPerUserTable(alice.id);
    expect(Object.keys(aliceRows)).toEqual(expect.arrayContaining(['brain_note', 'brain_folder', 'oauth_tokens', 'oauth_codes', 'day_perimeter_tasks', 'board_columns']));
    expect(Object.entries(aliceRows).filter(([, n]) => n === 0)).toEqual([]);
    const bobBefore = await traces(bob.id);
    const bobRows = await rowsPerUserTable(bob.id);
    const outbox = join(app.dataDir, 'mail');
    const bobMails = (await mailsTo(outbox, bob.email)).map((m) => m.file);
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
    expect(Object.entries(await rowsPerUserTable(alice.id)).filter(([, n]) => n > 0)).toEqual([]);
    expect((await blobsOnDisk(app)).filter((b) => b.startsWith(`${alice.id}/`))).toEqual([]);
    expect(await traces(bob.id)).toEqual(bobBefore);
    expect(await rowsPerUserTable(bob.id)).toEqual(bobRows);
    // Bob keeps Alice's answer, no longer hers; her mails left the outbox, Bob's stay.
    const [kept] = await sql(app.databaseUrl, 'select respondent_user_id, "values" from brain_record where id = $1', [answer!.id]);
    expect(kept!.respondent_user_id).toBeNull();
    expect(kept!.values).toMatchObject({ name: 'Alice' });
    expect(kept!.values).not.toHaveProperty('__respondentUserId');
    await app.server.deps.background.idle(); // the outbox is swept after the answer
    expect(await mailsTo(outbox, alice.email)).toEqual([]);
    expect((await mailsTo(outbox, bob.email)).map((m) => m.file)).toEqual(bobMails);
    expect((await blobsOnDisk(app)).filter((b) => b.startsWith(`${bob.id}/`))).toEqual(blobs.filter((b) => b.startsWith(`${bob.id}/`)));

    // The old session and the credentials are gone; bob's session still works.
    expectStatus(await alice.client.get('/api/v1/auth/me', { headers: { cookie: oldCookie } }), 401, 'UNAUTHORIZED');
    expect((await app.http.post('/api/v1/auth/login', { email: alice.email, password: alice.password })).status).toBe(401);
    expect((await bob.client.get('/api/v1/books')).body.data).toHaveLength(3);
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

  it('covers tables it was never told about: a new domain table referencing users, cascading or not, in key order', async () => {
    await sql(app.databaseUrl, 'create table future_grants (id uuid primary key, owner uuid not null references users (id))');
    // A child that sorts after its parent and refuses its deletion (NO ACTION): the order comes from the keys.
    await sql(app.databaseUrl, 'create table future_tokens (id uuid primary key, user_id uuid not null, grant_id uuid references future_grants (id))');
    try {
      const dave = await signUp(app.url);
      const erin = await signUp(app.url);
      for (const u of [dave, erin]) {
        await sql(app.databaseUrl, 'with g as (insert into future_grants values (gen_random_uuid(), $1) returning id) insert into future_tokens select gen_random_uuid(), $1, id from g', [u.id]);
      }
      expect((await deleteAccount(dave.client, { password: dave.password })).status).toBe(200);
      expect(await sql(app.databaseUrl, 'select owner from future_grants')).toEqual([{ owner: erin.id }]);
      expect(await sql(app.databaseUrl, 'select user_id from future_tokens')).toEqual([{ user_id: erin.id }]);
    } finally {
      await sql(app.databaseUrl, 'drop table future_tokens');
      await sql(app.databaseUrl, 'drop table future_grants');
    }
  });

  it('is all or nothing: a deletion that fails half-way leaves the account, its data and its session', async () => {
    // A new table that refuses to lose its rows: it comes after others in the order, so the failure
    // happens with many tables already emptied inside the transaction.
    await sql(app.databaseUrl, 'create table zz_guarded (id uuid primary key, user_id uuid not null references users (id))');
    await sql(app.databaseUrl, `create function zz_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`);
    await sql(app.databaseUrl, 'create trigger zz_refuse before delete on zz_guarded for each row execute function zz_refuse()');
    try {
      const frank = await populate();
      await sql(app.databaseUrl, 'insert into zz_guarded values (gen_random_uuid(), $1)', [frank.id]);
      const before = await rowsPerUserTable(frank.id);
      expect(before.zz_guarded).toBe(1);
      expectStatus(await deleteAccount(frank.client, { password: frank.password }), 500, 'INTERNAL_ERROR');
      expect(await rowsPerUserTable(frank.id)).toEqual(before);
      expect((await frank.client.get('/api/v1/auth/me')).status).toBe(200);
      expect(await sql(app.databaseUrl, 'select id from storage_purges')).toEqual([]);
      expect(await mailsTo(join(app.dataDir, 'mail'), frank.email)).not.toEqual([]);
    } finally {
      await sql(app.databaseUrl, 'drop table zz_guarded');
      await sql(app.databaseUrl, 'drop function zz_refuse()');
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

describe('childrenFirst (the deletion order)', () => {
  const edge = (child: string, parent: string, deleteRule = 'r') => ({ child, parent, deleteRule });
  it('puts a child table before the parent it references, whatever the names', () => {
    expect(childrenFirst(['brain_folder', 'brain_note', 'a'], [edge('brain_note', 'brain_folder'), edge('brain_folder', 'brain_folder'), edge('a', 'brain_note', 'c')])).toEqual(['a', 'brain_note', 'brain_folder']);
  });
  it('breaks a cycle at its cascading keys; a cycle of refusing keys throws', () => {
    expect(childrenFirst(['x', 'y'], [edge('x', 'y'), edge('y', 'x', 'c')])).toEqual(['x', 'y']);
    expect(() => childrenFirst(['x', 'y'], [edge('x', 'y'), edge('y', 'x', 'a')])).toThrow(/x, y/);
  });
});
