import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../test/support/db.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { postMultipart } from '../files/files.test-helpers.js';
import { startServer, type RunningServer } from '../app/server.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import type { AnswerCache } from './answer-cache.js';

/**
 * Repeated reads from memory (issue 36 item 8). Two services on one database: A takes the writes, B
 * serves the reads. Before each write the test proves B answers the read from its cache (a hit, one
 * statement), then the write goes to A (or straight to the database) and B's very next read must show
 * it: the write raised the person's data version in its own transaction, whatever wrote it.
 */
let a: TestApp;
let b: RunningServer;
beforeAll(async () => {
  a = await startTestApp();
  const config = loadConfig({ PORT: '0', DATA_DIR: a.dataDir, FILE_UPLOAD_DIR: `${a.dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: a.databaseUrl });
  b = await startServer(config, { logger: createLogger('silent') });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const cacheOf = (server: RunningServer): AnswerCache => server.deps.answerCache!;

const DAY_QUERY = 'query Day($dayId: UUID!) { day(dayId: $dayId) { id notes waterIntakes { volume } perimeterTasks { title } } }';

function monday(weeksAhead: number): string {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) + 7 * weeksAhead));
  return start.toISOString().slice(0, 10);
}

/** A person signed in on A, the same session on B, and a generated week. */
async function person(weeksAhead = 1) {
  const { client, id } = await signUp(a.url);
  const onB = new HttpClient(b.url);
  onB.cookie = client.cookie;
  const startDate = monday(weeksAhead);
  const week = await client.post('/api/v1/weeks/generate', { startDate });
  expect(week.status, week.text).toBe(201);
  return { client, onB, id, startDate, dayId: week.body.data.days[0].id as string };
}

/**
 * Reads on B until one is a cache hit: it ran one statement (the data version) and B counted a hit.
 * Answers its text, after checking that it is byte for byte the text of the read before it (a miss)
 * when there was one.
 */
async function hitOnB(read: () => Promise<{ status: number; text: string }>): Promise<string> {
  const cache = cacheOf(b);
  let previous: string | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const hits = cache.counts.hits;
    const recorder = recordStatements();
    const res = await read().finally(() => recorder.stop());
    expect(res.status, res.text).toBe(200);
    if (cache.counts.hits === hits + 1) {
      expect(recorder.statements, 'a hit reads the data version only').toEqual(['select version::text as version from lp_data_versions where user_id = $1']);
      // (An answer kept by an earlier read is a hit at once: nothing here to compare with.)
      if (previous !== undefined) expect(res.text, 'a hit answers the bytes of the miss before it').toBe(previous);
      return res.text;
    }
    previous = res.text;
  }
  throw new Error('B never answered from its cache');
}

const dayOnB = (onB: HttpClient, dayId: string) => () => onB.graphql(DAY_QUERY, { dayId });

describe('answer cache across two instances on one database', () => {
  it('a write through the unit of work on A is seen by the very next read on B (REST and GraphQL)', async () => {
    const p = await person();
    const weekOnB = () => p.onB.get(`/api/v1/weeks/${p.startDate}`);
    await hitOnB(weekOnB);
    await hitOnB(dayOnB(p.onB, p.dayId));
    const patched = await p.client.patch(`/api/v1/days/${p.dayId}`, { notes: 'written on A' });
    expect(patched.status, patched.text).toBe(200);
    const week = await weekOnB();
    expect(week.body.data.days[0].notes).toBe('written on A');
    const day = await dayOnB(p.onB, p.dayId)();
    expect(day.body.data.day.notes).toBe('written on A');
  });

  it('a one-statement append (insertWithEvent, no transaction) on A is seen at once on B', async () => {
    const p = await person();
    await hitOnB(dayOnB(p.onB, p.dayId));
    const logged = await p.client.graphql('mutation($dayId: UUID!) { logWater(dayId: $dayId, volume: 330) { id } }', { dayId: p.dayId });
    expect(logged.body.errors, logged.text).toBeUndefined();
    const day = await dayOnB(p.onB, p.dayId)();
    expect(day.body.data.day.waterIntakes).toEqual([{ volume: 330 }]);
  });

  it('a row without an owner column (a day perimeter entry, owned through its day) changes the answer', async () => {
    const p = await person();
    const titles = ['Stretch', 'Tidy', 'Read'];
    const ids: string[] = [];
    for (const title of titles) {
      const task = await p.client.post('/api/v1/perimeter/tasks', { title });
      expect(task.status, task.text).toBe(201);
      ids.push(task.body.data.id);
    }
    await hitOnB(dayOnB(p.onB, p.dayId));
    const set = await p.client.post(`/api/v1/perimeter/${p.dayId}`, { taskIds: ids });
    expect(set.status, set.text).toBeLessThan(300);
    const titlesOnB = async () => ((await dayOnB(p.onB, p.dayId)()).body.data.day.perimeterTasks as { title: string }[]).map((t) => t.title).sort();
    expect(await titlesOnB()).toEqual([...titles].sort());
    // The same table written by plain SQL, which knows nothing of the cache.
    await hitOnB(dayOnB(p.onB, p.dayId));
    await sql(a.databaseUrl, 'delete from day_perimeter_tasks where day_id = $1', [p.dayId]);
    expect(await titlesOnB()).toEqual([]);
  });

  it('a raw statement from outside the service (plain SQL, the admin CLI) is seen at once', async () => {
    const p = await person();
    await hitOnB(dayOnB(p.onB, p.dayId));
    await sql(a.databaseUrl, 'update days set notes = $1 where id = $2', ['written by SQL', p.dayId]);
    expect((await dayOnB(p.onB, p.dayId)()).body.data.day.notes).toBe('written by SQL');
    // A settings change (the week's bedtime targets come from the settings row).
    await hitOnB(() => p.onB.graphql('{ settings { wakeTime } }'));
    await sql(a.databaseUrl, "update user_settings set wake_time = '05:55' where user_id = $1", [p.id]);
    expect((await p.onB.graphql('{ settings { wakeTime } }')).body.data.settings.wakeTime).toBe('05:55');
  });

  it('a bulk import on A (a job committing chunk by chunk with raw statements) is seen at once on B', async () => {
    const p = await person();
    const account = await p.client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 0, currency: 'EUR' });
    expect(account.status, account.text).toBe(201);
    const list = () => p.onB.get(`/api/v1/transactions?accountId=${account.body.data.id}`);
    await hitOnB(list);
    const csv = `date,amount,text\n${Array.from({ length: 30 }, (_, i) => `2020-01-${String(i + 1).padStart(2, '0')},-1.00,Row ${i}`).join('\n')}\n`;
    const upload = await postMultipart(p.client, '/api/v1/account/import/transactions', {
      accountId: account.body.data.id,
      mapping: JSON.stringify({ date: 'date', amount: 'amount', description: 'text' }),
      file: { data: Buffer.from(csv), fileName: 'bank.csv', contentType: 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(202);
    await expect.poll(async () => (await p.client.get(`/api/v1/account/import/${upload.body.data.id}`)).body.data.status, { timeout: 30_000, interval: 50 }).toBe('done');
    const after = await list();
    expect(after.body.data.items ?? after.body.data).toHaveLength(30);
  }, 60_000);

  it('person B never gets person A\'s answer for the same operation and arguments', async () => {
    const first = await person(3);
    const second = await person(3);
    expect(first.startDate).toBe(second.startDate);
    await first.client.patch(`/api/v1/days/${first.dayId}`, { notes: 'first person' });
    const firstWeek = await hitOnB(() => first.onB.get(`/api/v1/weeks/${first.startDate}`));
    expect(JSON.parse(firstWeek).data.days[0].notes).toBe('first person');
    const secondWeek = await second.onB.get(`/api/v1/weeks/${second.startDate}`);
    expect(secondWeek.body.data.id).not.toBe(JSON.parse(firstWeek).data.id);
    expect(secondWeek.body.data.days[0].notes).toBeNull();
  });

  it('is not used for mutations, API-key calls, uncached root fields or a selection reaching a signed URL', async () => {
    const p = await person();
    const cache = cacheOf(b);
    const before = { ...cache.counts };
    for (let i = 0; i < 3; i++) {
      expect((await p.onB.graphql('{ me { id } }')).status).toBe(200);
      // Day → reading sessions → book → cover (a File: its URL is signed and expires).
      const res = await p.onB.graphql('query($dayId: UUID!) { day(dayId: $dayId) { id readingSessions { book { cover { url } } } } }', { dayId: p.dayId });
      expect(res.body.errors, res.text).toBeUndefined();
    }
    expect(cache.counts).toEqual(before);
  });
});

describe('answer cache bounds', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ ANSWER_CACHE_MAX_ENTRIES: '3', ANSWER_CACHE_MAX_BYTES: '40000' });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('keeps at most ANSWER_CACHE_MAX_ENTRIES entries and ANSWER_CACHE_MAX_BYTES, least recently used dropped first', async () => {
    const { client } = await signUp(small.url);
    const cache = small.server.deps.answerCache!;
    // Five small answers under five keys (the page size is an argument).
    const paths = [1, 2, 3, 4, 5].map((limit) => `/api/v1/task-categories?limit=${limit}`);
    for (const path of paths) {
      for (let i = 0; i < 3; i++) expect((await client.get(path)).status).toBe(200);
      expect(cache.size).toBeLessThanOrEqual(3);
      expect(cache.bytes).toBeLessThanOrEqual(40_000);
    }
    expect(cache.counts.evictions).toBeGreaterThan(0);
    // The last one read is kept (a hit); the first was dropped (its read is a first read again).
    const hits = cache.counts.hits;
    await client.get(paths[4]!);
    expect(cache.counts.hits).toBe(hits + 1);
    await client.get(paths[0]!);
    expect(cache.counts.hits).toBe(hits + 1);
  });

  it('an answer heavier than an eighth of ANSWER_CACHE_MAX_BYTES is not kept', async () => {
    const { client } = await signUp(small.url);
    const cache = small.server.deps.answerCache!;
    const startDate = monday(6);
    expect((await client.post('/api/v1/weeks/generate', { startDate })).status).toBe(201);
    // A week read weighs well over 5,000 bytes.
    const hits = cache.counts.hits;
    for (let i = 0; i < 4; i++) expect((await client.get(`/api/v1/weeks/${startDate}`)).status).toBe(200);
    expect(cache.counts.hits).toBe(hits);
  });
});

describe('data version triggers', () => {
  /** Tables that hold nobody's rows: the catalogs, the OAuth clients, the stored objects to purge, the migrator's and Agenda's tables. */
  // The trash's copied rows and links change only with their trash item, whose own trigger bumps its
  // person; a storage release (like a storage purge) is no one's answer.
  const NOBODYS = ['agenda_jobs', 'gamification_achievements', 'gamification_shop_items', 'lp_data_versions', 'mikro_orm_migrations', 'oauth_clients', 'storage_purges', 'trash_links', 'trash_rows', 'trash_storage_releases'];

  it('every table that holds a person\'s rows bumps their data version (a new table must call lp_attach_data_version_triggers)', async () => {
    const rows = await sql<{ table_name: string; covered: boolean }>(
      a.databaseUrl,
      `select c.relname as table_name, exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'lp_data_version') as covered
       from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
       where c.relkind in ('r', 'p') order by 1`,
    );
    expect(rows.filter((r) => !r.covered).map((r) => r.table_name)).toEqual(NOBODYS);
  });

  it('one transaction bumps a person once, however many rows it writes', async () => {
    const p = await person();
    const [before] = await sql<{ version: string }>(a.databaseUrl, 'select version::text from lp_data_versions where user_id = $1', [p.id]);
    await sql(a.databaseUrl, "update days set notes = 'bulk' where user_id = $1", [p.id]);
    const [after] = await sql<{ version: string }>(a.databaseUrl, 'select version::text from lp_data_versions where user_id = $1', [p.id]);
    expect(BigInt(after!.version) - BigInt(before!.version)).toBe(1n);
    // The webhook dispatcher marking the outbox changes no answer: no bump.
    await sql(a.databaseUrl, 'update event_outbox set dispatched_at = now() where user_id = $1', [p.id]);
    const [dispatched] = await sql<{ version: string }>(a.databaseUrl, 'select version::text from lp_data_versions where user_id = $1', [p.id]);
    expect(dispatched!.version).toBe(after!.version);
  });
});
