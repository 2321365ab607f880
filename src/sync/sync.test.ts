import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { sql } from '../../test/support/db.js';
import { liveClient, type LiveClient } from '../../test/support/live-client.js';
import { postMultipart } from '../files/files.test-helpers.js';
import { EVERYTHING, recordLiveChange } from '../core/live/change-collector.js';
import { Task } from '../tasks/task.entity.js';
import { purgeFeed } from './feed-purge.js';
import { seeded } from '../../test/support/seeded-random.js';

/**
 * The change feed (docs/sync.md): a client that syncs, while other devices write through REST, GraphQL,
 * an import and a recurring series, ends with exactly the server's records; live events carry the cursor.
 */
let app: TestApp;
let anna: { client: HttpClient; id: string };
let ben: { client: HttpClient; id: string };

/** This week's Monday and the next one: a series' occurrences are made from today on, in the weeks that exist. */
const mondayOf = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - ((date.getUTCDay() + 6) % 7)));
const MONDAY = mondayOf(new Date()).toISOString().slice(0, 10);
const NEXT_MONDAY = new Date(Date.parse(MONDAY) + 7 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  app = await startTestApp();
  anna = await signUp(app.url);
  ben = await signUp(app.url);
});
afterAll(async () => {
  await app?.close();
});

/** A sync client's copy of the records: `Type:id` → record, and the cursor it stands at. */
class Replica {
  records = new Map<string, Record<string, unknown>>();
  cursor: string | undefined;
  pages = 0;

  constructor(private readonly client: HttpClient) {}

  /** Syncs until no more remain, `limit` feed rows a page. */
  async sync(limit = 50): Promise<void> {
    for (;;) {
      const query = `/api/v1/sync?limit=${limit}${this.cursor ? `&since=${this.cursor}` : ''}`;
      const res = await this.client.get(query);
      expect(res.status, res.text).toBe(200);
      this.apply(res.body.data);
      if (!res.body.data.hasMore) return;
    }
  }

  apply(page: { changes: { type: string; records: Record<string, unknown>[] }[]; deleted: { type: string; id: string }[]; cursor: string }): void {
    this.pages++;
    for (const group of page.changes) for (const record of group.records) this.records.set(`${group.type}:${record.id as string}`, record);
    for (const gone of page.deleted) this.records.delete(`${gone.type}:${gone.id}`);
    if (this.cursor !== undefined) expect(BigInt(page.cursor) >= BigInt(this.cursor), 'cursors never go back').toBe(true);
    this.cursor = page.cursor;
  }

  ids(type: string): string[] {
    return [...this.records.keys()].filter((key) => key.startsWith(`${type}:`)).map((key) => key.slice(type.length + 1)).sort();
  }
}

async function ids(table: string, userId: string): Promise<string[]> {
  return (await sql<{ id: string }>(app.databaseUrl, `select id::text from ${table} where user_id = $1 order by id::text`, [userId])).map((r) => r.id);
}

async function createTask(client: HttpClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/api/v1/tasks', { timebox: 30, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}


describe('sync', () => {
  it('a phone that was offline while another device created, updated and deleted (REST, GraphQL, an import, a recurring series) ends with exactly the server state', async () => {
    const { client, id } = await signUp(app.url);
    const phone = new Replica(client);
    // The first sync of a new person: from the start of the feed, their account and settings among it.
    await phone.sync();
    expect(phone.ids('User')).toEqual([id]);
    const week = await generateWeek(client, MONDAY);
    await phone.sync();
    expect(phone.ids('Day')).toHaveLength(7);

    // The other device, while the phone is offline.
    const kept = await createTask(client, { title: 'kept' });
    const gone = await createTask(client, { title: 'gone' });
    expect((await client.patch(`/api/v1/tasks/${kept.id}`, { title: 'kept, renamed' })).status).toBe(200);
    expect((await client.delete(`/api/v1/tasks/${gone.id}`)).status).toBe(200);
    const water = await client.graphql(`mutation ($dayId: UUID!) { logWater(dayId: $dayId, volume: 250) { id } }`, { dayId: week.days[0].id });
    expect(water.body.errors).toBeUndefined();
    // A recurring series: its occurrences in this week, then more as the next week is made (a bulk write).
    const gym = await createTask(client, { title: 'gym', dayId: week.days[0].id, recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH' });
    await generateWeek(client, NEXT_MONDAY);
    const file = await readFile(join(import.meta.dirname, '../../test/fixtures/imports/strong.csv'));
    const posted = await postMultipart(client, '/api/v1/account/import/strong', { file: { data: file, fileName: 'export.csv', contentType: 'text/csv' } });
    expect(posted.status, posted.text).toBe(202);
    for (let i = 0; ; i++) {
      const run = await client.get(`/api/v1/account/import/${posted.body.data.id}`);
      if (run.body.data.status === 'done') break;
      expect(i, 'the import finishes').toBeLessThan(300);
      await new Promise((r) => setTimeout(r, 100));
    }

    const pagesBefore = phone.pages;
    await phone.sync(7); // small pages: the paging is part of what is proved
    expect(phone.pages - pagesBefore).toBeGreaterThan(2);
    expect(phone.ids('Task')).toEqual(await ids('tasks', id));
    expect(phone.ids('Task')).not.toContain(gone.id);
    expect(phone.records.get(`Task:${kept.id}`)).toMatchObject({ title: 'kept, renamed' });
    // The next week's Tuesday and Thursday at least, made by the week's generation (a raw bulk insert).
    const occurrences = [...phone.records.values()].filter((r) => r.seriesId === gym.id && r.id !== gym.id);
    expect(occurrences.length).toBeGreaterThanOrEqual(2);
    expect(phone.ids('WaterIntake')).toEqual(await ids('water_intakes', id));
    expect(phone.ids('TrainingSession')).toEqual(await ids('training_sessions', id));
    expect(phone.ids('TrainingSession')).toHaveLength(2);
    expect(phone.ids('Day')).toEqual(await ids('days', id));

    // A fresh device reading the whole feed at once agrees record for record.
    const laptop = new Replica(client);
    await laptop.sync(1000);
    expect(laptop.records).toEqual(phone.records);
    expect(laptop.cursor).toBe(phone.cursor);
  });

  it('random sequences of creates, updates and deletes, synced at random moments, end with the server state (seeded)', async () => {
    const { client, id } = await signUp(app.url);
    const random = seeded(38);
    const phone = new Replica(client);
    const model = new Map<string, string>(); // the reference: task id → title
    for (let step = 0; step < 40; step++) {
      const roll = random();
      const existing = [...model.keys()];
      if (roll < 0.45 || existing.length === 0) {
        const task = await createTask(client, { title: `t${step}` });
        model.set(task.id, `t${step}`);
      } else if (roll < 0.75) {
        const target = existing[Math.floor(random() * existing.length)]!;
        expect((await client.patch(`/api/v1/tasks/${target}`, { title: `u${step}` })).status).toBe(200);
        model.set(target, `u${step}`);
      } else {
        const target = existing[Math.floor(random() * existing.length)]!;
        expect((await client.delete(`/api/v1/tasks/${target}`)).status).toBe(200);
        model.delete(target);
      }
      if (random() < 0.2) await phone.sync(1 + Math.floor(random() * 5));
    }
    await phone.sync(3);
    const synced = new Map(phone.ids('Task').map((taskId) => [taskId, phone.records.get(`Task:${taskId}`)!.title as string]));
    expect(synced).toEqual(model);
    expect([...model.keys()].sort()).toEqual(await ids('tasks', id));
  });

  it('never shows another person\'s records or cursors; a foreign or made-up cursor is refused', async () => {
    const annaTask = await createTask(anna.client, { title: 'anna only' });
    const page = (await ben.client.get('/api/v1/sync?limit=1000')).body.data;
    const all = JSON.stringify(page);
    expect(all).not.toContain(annaTask.id);
    expect(all).not.toContain(anna.id);
    // A cursor beyond Ben's newest (Anna's is higher after her writes): 410, never Anna's changes.
    const annaCursor = (await anna.client.get('/api/v1/sync?limit=1000')).body.data.cursor;
    const beyond = await ben.client.get(`/api/v1/sync?since=${BigInt(annaCursor) + 1000n}`);
    expect(beyond.status).toBe(410);
    expect(beyond.body.error).toMatchObject({ code: 'SYNC_CURSOR_EXPIRED', details: { cursor: page.cursor } });
    const bad = await ben.client.get('/api/v1/sync?since=abc');
    expect(bad.status).toBe(400);
    expect((await ben.client.get('/api/v1/sync?limit=100000')).status).toBe(400);
    expect((await app.http.get('/api/v1/sync')).status).toBe(401);
  });

  it('a cursor older than the retention window answers 410 with the newest cursor; syncing from that one goes on', async () => {
    const { client, id } = await signUp(app.url);
    const phone = new Replica(client);
    await phone.sync();
    const old = phone.cursor!;
    await createTask(client, { title: 'after the old cursor' });
    // The purge with a clock past the retention window: every row of the feed is older.
    expect(await purgeFeed(app.server.orm.em.fork(), new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    const expired = await client.get(`/api/v1/sync?since=${old}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'SYNC_CURSOR_EXPIRED', details: { cursor: expect.stringMatching(/^\d+$/) } });
    const graphql = await client.graphql(`query ($since: String) { sync(since: $since) { cursor } }`, { since: old });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'SYNC_CURSOR_EXPIRED' });
    // Read everything again, then go on from the cursor the 410 named.
    const head = expired.body.error.details.cursor as string;
    const task = await createTask(client, { title: 'after the reset' });
    const page = (await client.get(`/api/v1/sync?since=${head}`)).body.data;
    expect(page.changes.find((g: any) => g.type === 'Task').records.map((r: any) => r.id)).toEqual([task.id]);
    expect((await sql(app.databaseUrl, 'select 1 from lp_change_feed_horizons where user_id = $1', [id])).length).toBe(1);
  });

  it('a rolled-back write leaves no change; a trash ("deleted") answers a tombstone and a restore ("created") the record; a big transaction every row; "*" a 410', async () => {
    const { client, id } = await signUp(app.url);
    const task = await createTask(client, { title: 'trashed and restored' });
    const phone = new Replica(client);
    await phone.sync();
    const em = app.server.orm.em.fork();
    await expect(em.transactional(async (trx) => {
      await trx.getConnection().execute('update tasks set title = ? where id = ?', ['rolled back', task.id], 'run', trx.getTransactionContext());
      recordLiveChange(trx, id, { entity: 'Task', id: task.id, kind: 'updated' });
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    const nothing = (await client.get(`/api/v1/sync?since=${phone.cursor}`)).body.data;
    expect(nothing).toEqual({ changes: [], deleted: [], cursor: phone.cursor, hasMore: false });

    await em.fork().transactional(async (trx) => recordLiveChange(trx, id, { entity: 'Task', id: task.id, kind: 'deleted' }));
    await phone.sync();
    expect(phone.ids('Task')).toEqual([]);
    await em.fork().transactional(async (trx) => recordLiveChange(trx, id, { entity: 'Task', id: task.id, kind: 'created' }));
    await phone.sync();
    expect(phone.ids('Task')).toEqual([task.id]);

    // A transaction over the live batch's size (the bus carries one "*"): the feed still has every row.
    const made = await em.fork().transactional(async (trx) => {
      const tasks = Array.from({ length: 210 }, (_, i) => trx.create(Task, { userId: id, title: `bulk ${i}`, timebox: 10 } as never) as Task);
      await trx.flush();
      return tasks.map((t) => t.id);
    });
    await phone.sync(1000);
    expect(phone.ids('Task')).toEqual([task.id, ...made].sort());
    // A writer that cannot name its rows: the client is told to read everything again.
    await em.fork().transactional(async (trx) => recordLiveChange(trx, id, EVERYTHING));
    const everything = await client.get(`/api/v1/sync?since=${phone.cursor}`);
    expect(everything.status).toBe(410);
    expect(everything.body.error.details.cursor).toMatch(/^\d+$/);
  });
});

describe('live, then sync', () => {
  let socket: LiveClient | undefined;
  afterAll(async () => socket?.dispose());

  it('myChanges events carry the cursor: a client that heard them and then went offline syncs with no gap and no duplicate', async () => {
    const { client } = await signUp(app.url);
    const phone = new Replica(client);
    await phone.sync();
    socket = liveClient(app.url, client.cookie);
    const feed = socket.follow(`subscription { myChanges { entity id kind cursor } }`);
    await feed.waitFor(() => true);
    const heard = await createTask(client, { title: 'heard live' });
    const event = await feed.waitFor((r) => r.data?.myChanges?.some((c: any) => c.id === heard.id), 2000);
    const cursor = event.data!.myChanges.find((c: any) => c.id === heard.id).cursor as string;
    expect(BigInt(cursor) > BigInt(phone.cursor!)).toBe(true);
    feed.stop();
    await socket.dispose();
    socket = undefined;

    // Offline now: two more changes. Syncing from the live cursor answers those two and not the one heard.
    const missed = await createTask(client, { title: 'missed' });
    expect((await client.delete(`/api/v1/tasks/${heard.id}`)).status).toBe(200);
    const page = (await client.get(`/api/v1/sync?since=${cursor}`)).body.data;
    expect(page.changes.filter((g: any) => g.type === 'Task').flatMap((g: any) => g.records.map((r: any) => `${g.type}:${r.id}`))).toEqual([`Task:${missed.id}`]);
    expect(page.deleted.map((d: any) => `${d.type}:${d.id}`)).toEqual([`Task:${heard.id}`]);
  });
});
