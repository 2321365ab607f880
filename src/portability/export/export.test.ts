import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { MISSING_ID, weekDayIds } from '../../../test/support/fixtures.js';
import { readOutbox } from '../../../test/support/mailbox.js';
import { setPlan, sql } from '../../../test/support/db.js';
import { makeImage, makePdf, upload } from '../../files/files.test-helpers.js';
import { getBytes, pathOf, runExport, type FinishedExport } from './export.test-helpers.js';
import { unzip } from '../../../test/support/zip.js';
import { EXPORT_REGISTRY } from './export-registry.js';

let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let aliceEmail: string;
let bob: HttpClient;
let bobId: string;

/** Ids of what alice made, by data.json path (`domain.collection`). */
const made: Record<string, string[]> = {};
const remember = (key: string, id: string) => (made[key] ??= []).push(id);
const uploads = new Map<string, Buffer>();
let apiKeySecret: string;
let webhookSecret: string;
const bobIds: string[] = [];

async function ok(res: { status: number; text: string; body: any }, status = 201): Promise<any> {
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}

async function gql(client: HttpClient, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await client.graphql(query, variables);
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data;
}

/** Data in most domains through the API, as a user would make it. */
async function fillAccount(client: HttpClient, tag: string, track: (key: string, id: string) => void): Promise<void> {
  const days = await weekDayIds(client, '2026-03-02');
  const day = days[0]!;
  for (let i = 0; i < 3; i++) track('tasks.tasks', (await ok(await client.post('/api/v1/tasks', { title: `${tag} task ${i}`, timebox: 30 + i, dayId: day }))).id);
  const exercises = await ok(await client.get('/api/v1/exercises'), 200);
  const exerciseId = exercises[0].id;
  const session = await ok(
    await client.post('/api/v1/training/sessions', {
      dayId: day,
      split: `${tag} push`,
      exercises: [{ exerciseId, sets: [{ setNumber: 1, reps: 8, load: 60 }, { setNumber: 2, reps: 6, load: 65 }] }],
    }),
  );
  track('training.sessions', session.id);
  for (const [volume, d] of [[250, day], [500, days[1]]] as const) {
    track('wellness.water', (await gql(client, 'mutation($d: UUID!, $v: Float!) { logWater(dayId: $d, volume: $v) { id } }', { d, v: volume })).logWater.id);
  }
  track('wellness.sleep', (await gql(client, 'mutation($d: UUID!) { logSleep(dayId: $d, duration: 7.5, quality: 8) { id } }', { d: day })).logSleep.id);
  track('wellness.mood', (await gql(client, 'mutation($d: UUID!) { logMood(dayId: $d, mood: 7, energy: 6, notes: "=SUM(A1)\\n=cmd|\' /C calc\'!A0") { id } }', { d: day })).logMood.id);
  track('body.measurements', (await ok(await client.post('/api/v1/body-composition/measurements', { dayId: day, weight: 72.5, waist: 80 }))).id);
  const questions = await ok(await client.get('/api/v1/journal/questions'), 200);
  const entry = await ok(await client.post('/api/v1/journal/entries', { dayId: day, questionId: questions[0].id, answer: `${tag}: a calm day by the sea` }));
  track('journal.entries', entry.id);
  const book = await ok(await client.post('/api/v1/books', { title: `${tag} book`, author: 'Someone', totalPages: 300 }));
  track('reading.books', book.id);
  track('reading.sessions', (await ok(await client.post('/api/v1/reading-sessions', { dayId: day, bookId: book.id, pagesRead: 20, duration: 30 }))).id);
  const habit = await ok(await client.post('/api/v1/habits', { name: `${tag} floss`, startDate: '2026-03-01' }));
  track('habits.habits', habit.id);
  track('habits.entries', (await ok(await client.post(`/api/v1/habits/${habit.id}/entries`, { dayId: day, note: `${tag} evening` }))).id);
  await ok(await client.post(`/api/v1/habits/${habit.id}/days/${days[1]}/mark`, { mark: 'REST' }), 200);
  track('habits.marks', (await sql(app.databaseUrl, 'select id from habit_day_marks where habit_id = $1', [habit.id]))[0]!.id);
  track('social.people', (await ok(await client.post('/api/v1/people', { name: `${tag} friend` }))).id);
  track('projects.projects', (await ok(await client.post('/api/v1/projects', { title: `${tag} project` }))).id);
  const account = await ok(await client.post('/api/v1/accounts', { name: `${tag} bank`, type: 'checking', currency: 'EUR' }));
  track('finance.accounts', account.id);
  for (const [amount, description] of [[-12.5, `${tag} lunch`], [2000, 'salary']] as const) {
    track('finance.transactions', (await ok(await client.post('/api/v1/transactions', { accountId: account.id, amount, description, date: '2026-03-02' }))).id);
  }
}

beforeAll(async () => {
  app = await startTestApp({ MAX_FILE_SIZE: '2000000' });
  ({ client: alice, id: aliceId, email: aliceEmail } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
  await fillAccount(alice, 'alice', remember);
  await fillAccount(bob, 'bob', (_key, id) => bobIds.push(id));
  const png = await makeImage('png', 64, 48);
  const pdf = makePdf('export me');
  for (const [data, type, name, mime] of [[png, 'image', 'holiday photo.png', 'image/png'], [pdf, 'document', 'lease.pdf', 'application/pdf']] as const) {
    const res = await upload(alice, data, type, name, mime);
    expect(res.status, res.text).toBe(201);
    uploads.set(res.body.data.id, data);
    remember('files.files', res.body.data.id);
  }
  await setPlan(app.databaseUrl, aliceId, 'pro', new Date(Date.now() + 86_400_000));
  const key = await ok(await alice.post('/api/v1/api-keys', { name: 'scripts' }));
  apiKeySecret = key.key;
  remember('apiKeys.keys', key.apiKey?.id ?? key.id);
  const hook = await ok(await alice.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hooks/life', events: ['task_created'] }));
  webhookSecret = hook.secret;
  remember('webhooks.endpoints', hook.webhook?.id ?? hook.id);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('account export', () => {
  let finished: FinishedExport;
  let entries: Map<string, Buffer>;
  let data: Record<string, Record<string, any[]>>;

  beforeAll(async () => {
    finished = await runExport(alice);
    expect(finished.status).toBe('done');
    const res = await getBytes(alice, pathOf(finished.url!));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    entries = await unzip(res.body);
    data = JSON.parse(entries.get('data.json')!.toString('utf8'));
  }, 120_000);

  it('moves through pending → running → done and then answers a signed url valid 24 hours', async () => {
    expect(finished.seen[0]).toBe('pending');
    expect(finished.seen.at(-1)).toBe('done');
    expect(['pending', 'running', 'done']).toEqual(expect.arrayContaining(finished.seen));
    expect(finished.seen).toEqual(['pending', 'running', 'done'].filter((s) => finished.seen.includes(s)));
    const url = new URL(finished.url!);
    expect(url.pathname).toBe(`/api/v1/account/export/${finished.id}/download`);
    const expires = Number(url.searchParams.get('expires'));
    const [row] = await sql(app.databaseUrl, 'SELECT finished_at FROM account_exports WHERE id = $1', [finished.id]);
    expect(expires).toBe(Math.floor(new Date(row.finished_at).getTime() / 1000) + 24 * 3600);
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('writes data.json with one key per domain, every record of the user with ids and timestamps', () => {
    const domains = ['account', 'planning', 'tasks', 'training', 'wellness', 'body', 'nutrition', 'journal', 'reading', 'social', 'projects', 'finance', 'files', 'webhooks', 'apiKeys'];
    // These domains in this order; domains of other modules (merged later) come from the registry too.
    expect(Object.keys(data).filter((key) => domains.includes(key))).toEqual(domains);
    const registered = new Set(Object.values(EXPORT_REGISTRY).flatMap((entry) => ('domain' in entry ? [entry.domain] : [])));
    for (const key of Object.keys(data)) expect(registered.has(key), key).toBe(true);
    expect(data.account.user).toEqual([expect.objectContaining({ id: aliceId, email: aliceEmail })]);
    for (const [path, ids] of Object.entries(made)) {
      const [domain, collection] = path.split('.') as [string, string];
      const exported = data[domain]![collection]!.map((r) => r.id);
      expect(exported, path).toEqual(expect.arrayContaining(ids));
    }
    expect(data.tasks.tasks).toHaveLength(3);
    expect(data.training.sets).toHaveLength(2);
    expect(data.planning.days).toHaveLength(7);
    for (const [domain, collections] of Object.entries(data)) {
      for (const [collection, records] of Object.entries(collections)) {
        for (const record of records) {
          expect(record.id, `${domain}.${collection}`).toMatch(/^[0-9a-f-]{36}$/);
          expect(record.createdAt, `${domain}.${collection}`).toMatch(/^\d{4}-\d\d-\d\dT/);
          expect(record.updatedAt, `${domain}.${collection}`).toMatch(/^\d{4}-\d\d-\d\dT/);
          if ('userId' in record) expect(record.userId, `${domain}.${collection}`).toBe(aliceId);
        }
      }
    }
    // Calendar dates stay dates; money stays exact text.
    expect(data.finance.transactions.map((t) => t.amount).sort()).toEqual(['-12.50', '2000.00']);
    expect(data.finance.transactions[0].date).toBe('2026-03-02');
  });

  it('holds no record of another user and no secret', () => {
    const text = entries.get('data.json')!.toString('utf8');
    expect(text).not.toContain(bobId);
    for (const id of bobIds) expect(text).not.toContain(id);
    expect(text).not.toContain('bob ');
    for (const [name, bytes] of entries) {
      if (name.startsWith('files/')) continue;
      const content = bytes.toString('utf8');
      expect(content, name).not.toContain(bobId);
      expect(content, name).not.toMatch(/passwordHash|password_hash|keyHash|secretEncrypted|tokenHash/);
      expect(content, name).not.toContain(apiKeySecret);
      expect(content, name).not.toContain(webhookSecret);
    }
    expect(data.apiKeys.keys[0]).not.toHaveProperty('keyHash');
    expect(data.account.user[0]).not.toHaveProperty('passwordHash');
    expect(data.webhooks.endpoints[0]).not.toHaveProperty('secretEncrypted');
  });

  it('writes one CSV per spreadsheet list, with the right rows', () => {
    const csv = (name: string): Record<string, string>[] => parse(entries.get(name)!.toString('utf8'), { columns: true, skip_empty_lines: true });
    const tasks = csv('tasks.csv');
    expect(tasks.map((t) => t.id).sort()).toEqual([...made['tasks.tasks']!].sort());
    expect(tasks.map((t) => t.title).sort()).toEqual(['alice task 0', 'alice task 1', 'alice task 2']);
    const sets = csv('training-sets.csv');
    expect(sets.map((s) => [s.setNumber, s.reps, s.load]).sort()).toEqual([['1', '8', '60'], ['2', '6', '65']]);
    const transactions = csv('transactions.csv');
    expect(transactions.map((t) => [t.amount, t.description, t.date]).sort()).toEqual([['-12.50', 'alice lunch', '2026-03-02'], ['2000.00', 'salary', '2026-03-02']]);
    expect(csv('reading-sessions.csv').map((r) => r.pagesRead)).toEqual(['20']);
    expect(csv('habit-entries.csv').map((r) => [r.value, r.note])).toEqual([['1', 'alice evening']]);
    expect(csv('water.csv').map((r) => Number(r.volume)).sort((a, b) => a - b)).toEqual([250, 500]);
    expect(csv('sleep.csv').map((r) => [r.duration, r.quality])).toEqual([['7.5', '8']]);
    const mood = csv('mood.csv');
    expect(mood.map((r) => [r.mood, r.energy])).toEqual([['7', '6']]);
    // A formula stays text in a spreadsheet, on every line of the cell; a cell with a line feed is quoted.
    expect(mood[0]!.notes).toBe("'=SUM(A1)\n'=cmd|' /C calc'!A0");
    expect(entries.get('mood.csv')!.toString('utf8')).toContain(`"'=SUM(A1)\n'=cmd|' /C calc'!A0"`);
    expect(csv('measurements.csv').map((r) => [r.weight, r.waist])).toEqual([['72.5', '80']]);
  });

  it('writes each journal entry as Markdown', () => {
    const markdown = [...entries.keys()].filter((name) => name.startsWith('journal/'));
    expect(markdown).toHaveLength(1);
    expect(markdown[0]).toMatch(new RegExp(`^journal/\\d{4}-\\d\\d-\\d\\d-.*${made['journal.entries']![0]}\\.md$`));
    const text = entries.get(markdown[0]!)!.toString('utf8');
    expect(text).toContain(`id: ${made['journal.entries']![0]}`);
    expect(text).toContain('alice: a calm day by the sea');
    expect(text).toMatch(/^---\n[\s\S]*\n---\n\n## .+\n/);
  });

  it('puts the user\'s files under files/, byte for byte', () => {
    const names = [...entries.keys()].filter((name) => name.startsWith('files/')).sort();
    expect(names).toHaveLength(uploads.size);
    for (const [id, bytes] of uploads) {
      const name = names.find((n) => n.startsWith(`files/${id}/`));
      expect(name, id).toBeDefined();
      expect(entries.get(name!)!.equals(bytes), name).toBe(true);
    }
    expect(names.some((n) => n.endsWith('/holiday photo.png'))).toBe(true);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest).toMatchObject({ format: 'life-planner-export', version: 1, userId: aliceId });
    expect(manifest.counts['tasks.tasks']).toBe(3);
  });

  it('mails the user that the export is ready, with its link', async () => {
    const mails = (await readOutbox(join(app.dataDir, 'mail'))).filter((m) => m.to === aliceEmail && /export is ready/.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text.replace(/=\r?\n/g, '')).toContain(`/api/v1/account/export/${finished.id}/download?`);
  });

  it('serves the archive to its owner only: another user gets 404 as for a missing export; no cookie 401', async () => {
    const path = pathOf(finished.url!);
    const asBob = await getBytes(bob, path);
    const missing = await getBytes(bob, path.replace(finished.id, MISSING_ID));
    expect(asBob.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(JSON.parse(asBob.body.toString())).toEqual(JSON.parse(missing.body.toString()));
    const stateForBob = await bob.get(`/api/v1/account/export/${finished.id}`);
    const stateMissing = await bob.get(`/api/v1/account/export/${MISSING_ID}`);
    expect(stateForBob.status).toBe(404);
    expect(stateForBob.body).toEqual(stateMissing.body);
    expect((await getBytes(alice.withoutCookie(), path)).status).toBe(401);
    expect((await alice.get('/api/v1/account/export/not-a-uuid')).status).toBe(400);
  });

  it('refuses a link whose signature or expiry was changed, and one older than 24 hours', async () => {
    const url = new URL(finished.url!);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', url.searchParams.get('signature')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')));
    expect((await getBytes(alice, tampered.pathname + tampered.search)).status).toBe(401);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await getBytes(alice, later.pathname + later.search)).status).toBe(401);
    expect((await getBytes(alice, url.pathname)).status).toBe(401);

    // The export finished 25 hours ago: its link (the same signature scheme) has expired.
    await sql(app.databaseUrl, "UPDATE account_exports SET finished_at = now() - interval '25 hours' WHERE id = $1", [finished.id]);
    const old = await alice.get(`/api/v1/account/export/${finished.id}`);
    expect(old.body.data.status).toBe('done');
    const expires = Number(new URL(old.body.data.url).searchParams.get('expires'));
    expect(expires * 1000).toBeLessThan(Date.now());
    const expired = await getBytes(alice, pathOf(old.body.data.url));
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body.toString()).error.code).toBe('UNAUTHORIZED');
    expect((await getBytes(alice, pathOf(finished.url!))).status).toBe(401);
  });

  it('replaces the earlier archive when a new export finishes (its blob goes, its url becomes null)', async () => {
    const archive = join(app.dataDir, 'uploads', aliceId, 'exports', finished.id);
    await expect(stat(archive)).resolves.toBeTruthy();
    const next = await runExport(alice);
    expect(next.status).toBe('done');
    expect(next.id).not.toBe(finished.id);
    await expect(stat(archive)).rejects.toThrow();
    const old = await alice.get(`/api/v1/account/export/${finished.id}`);
    expect(old.body.data).toEqual({ id: finished.id, status: 'done', url: null });
    expect((await getBytes(alice, pathOf(next.url!))).status).toBe(200);
  }, 60_000);
});

describe('a failing export', () => {
  it('ends as failed when a stored file cannot be read, with no url, and a new export can be started', async () => {
    const { client: carol, id: carolId } = await signUp(app.url);
    const res = await upload(carol, makePdf('gone'), 'document', 'gone.pdf', 'application/pdf');
    expect(res.status, res.text).toBe(201);
    await rm(join(app.dataDir, 'uploads', carolId), { recursive: true, force: true });
    const failed = await runExport(carol);
    expect(failed.status).toBe('failed');
    expect(failed.url).toBeNull();
    expect(failed.seen[0]).toBe('pending');
    const [row] = await sql(app.databaseUrl, 'SELECT error, storage_key FROM account_exports WHERE id = $1', [failed.id]);
    expect(row.error).toContain(res.body.data.id);
    expect(row.storage_key).toBeNull();
    // No half-written archive is left behind in storage or staging.
    const staging = await readdir(join(app.dataDir, 'uploads', '.staging')).catch(() => [] as string[]);
    expect(staging.filter((name) => name.startsWith('export-'))).toEqual([]);
    expect(await readdir(join(app.dataDir, 'uploads', carolId)).catch(() => [])).toEqual([]);
    const again = await carol.post('/api/v1/account/export');
    expect(again.status).toBe(202);
    expect(again.body.data.id).not.toBe(failed.id);
  }, 60_000);
});
