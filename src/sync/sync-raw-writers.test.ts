import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { makePdf, upload } from '../files/files.test-helpers.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { sql } from '../../test/support/db.js';
import { liveClient } from '../../test/support/live-client.js';

/**
 * Writers that delete or update by raw statement (docs/sync.md): a syncing client hears their rows and
 * the rows the database cascades the delete to, so it keeps no record that is gone.
 */
let app: TestApp;
let anna: { client: HttpClient; id: string };

beforeAll(async () => {
  app = await startTestApp();
  anna = await signUp(app.url);
});
afterAll(async () => {
  await app?.close();
});

async function ok(promise: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const res = await promise;
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data;
}

async function syncFrom(client: HttpClient, since: string): Promise<{ changed: Map<string, any>; deleted: Set<string>; cursor: string }> {
  const changed = new Map<string, any>();
  const deleted = new Set<string>();
  let cursor = since;
  for (;;) {
    const page = await ok(client.get(`/api/v1/sync?limit=500&since=${cursor}`));
    for (const group of page.changes) for (const record of group.records) changed.set(`${group.type}:${record.id}`, record);
    for (const gone of page.deleted) deleted.add(`${gone.type}:${gone.id}`);
    cursor = page.cursor;
    if (!page.hasMore) return { changed, deleted, cursor };
  }
}

/** How many times each record of `type` is a tombstone in the sync from `since`, page by page. */
async function tombstonesSince(client: HttpClient, since: string, type: string): Promise<Map<string, number>> {
  const tombstones = new Map<string, number>();
  for (let cursor = since, hasMore = true; hasMore; ) {
    const page = await ok(client.get(`/api/v1/sync?limit=1000&since=${cursor}`));
    for (const gone of page.deleted) if (gone.type === type) tombstones.set(gone.id, (tombstones.get(gone.id) ?? 0) + 1);
    ({ cursor, hasMore } = page);
  }
  return tombstones;
}

/** Copies of `table`'s row `id`, `times` times, with new ids and `set` (SQL expressions of `g`, 1…times) in place of columns. */
async function copies(table: string, id: string, times: number, set: Record<string, string> = {}): Promise<void> {
  const columns = (await sql(app.databaseUrl, `select column_name from information_schema.columns where table_name = $1 and column_name <> 'id' and is_generated = 'NEVER'`, [table])).map((c) => String(c.column_name));
  await sql(
    app.databaseUrl,
    `insert into "${table}" (id, ${columns.map((c) => `"${c}"`).join(', ')}) select gen_random_uuid(), ${columns.map((c) => set[c] ?? `t."${c}"`).join(', ')} from "${table}" t, generate_series(1, $2) g where t.id = $1`,
    [id, times],
  );
}

describe('sync: raw deletes and updates', () => {
  it('a Brain database with records and a form, a file, a reminder and a person on a perimeter task: tombstones and updates', async () => {
    const { client } = anna;
    const db = await ok(client.post('/api/v1/brain/databases', { name: 'Books', properties: [{ key: 'title', name: 'Title', type: 'text' }] }));
    const records = [await ok(client.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'Dune' } })), await ok(client.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'Emma' } }))];
    const form = await ok(client.post('/api/v1/brain/forms', { name: 'Suggest a book', databaseId: db.id, config: { fields: [{ key: 'title', label: 'Title', type: 'text' }] } }));
    const file = await ok(upload(client, makePdf(), 'document', 'doc.pdf', 'application/pdf'));
    const reminder = await ok(client.post('/api/v1/reminders', { kind: 'evening_review', channel: 'email', localTime: '21:00' }));
    const person = await ok(client.post('/api/v1/people', { name: 'Carla' }));
    const call = await ok(client.post('/api/v1/perimeter/tasks', { title: 'Call Carla', personId: person.id }));
    const before = await syncFrom(client, '0');
    expect(before.changed.get(`BrainForm:${form.id}`)).toMatchObject({ id: form.id });

    await ok(client.delete(`/api/v1/brain/databases/${db.id}`));
    await ok(client.delete(`/api/v1/files/${file.id}`));
    await ok(client.delete(`/api/v1/reminders/${reminder.id}`));
    await ok(client.delete(`/api/v1/people/${person.id}`));

    const after = await syncFrom(client, before.cursor);
    for (const key of [`BrainDatabase:${db.id}`, ...records.map((r: any) => `BrainRecord:${r.id}`), `BrainForm:${form.id}`, `StoredFile:${file.id}`, `Reminder:${reminder.id}`, `Person:${person.id}`]) {
      expect(after.deleted, key).toContain(key);
    }
    expect(after.changed.get(`PerimeterTask:${call.id}`)).toMatchObject({ id: call.id, personId: null });
  });

  it('a Brain database of 5,000 records: each tombstone in the sync once, one "*" live change; a small delete names each row', async () => {
    const { client } = await signUp(app.url);
    const socket = liveClient(app.url, client.cookie);
    try {
      const live = socket.follow(`subscription { myChanges { entity id kind } }`);
      await live.waitFor(() => true);
      const heard = (from: number) => live.results.slice(from).flatMap((r) => r.data?.myChanges ?? []);
      const hears = (from: number, check: (c: any) => boolean) => live.waitFor((r) => live.results.indexOf(r) >= from && r.data?.myChanges?.some(check));
      const properties = [{ key: 'title', name: 'Title', type: 'text' }];
      const [big, small] = [await ok(client.post('/api/v1/brain/databases', { name: 'Big', properties })), await ok(client.post('/api/v1/brain/databases', { name: 'Small', properties }))];
      const first = await ok(client.post(`/api/v1/brain/databases/${big.id}/records`, { values: { title: 'Dune' } }));
      const smallRecords = [await ok(client.post(`/api/v1/brain/databases/${small.id}/records`, { values: { title: 'A' } })), await ok(client.post(`/api/v1/brain/databases/${small.id}/records`, { values: { title: 'B' } }))];
      await copies('brain_record', first.id, 4999);
      const ids = (await sql<{ id: string }>(app.databaseUrl, 'select id::text from brain_record where database_id = $1', [big.id])).map((r) => r.id);
      expect(ids).toHaveLength(5000);
      const since = (await syncFrom(client, '0')).cursor;

      let from = live.results.length;
      await ok(client.delete(`/api/v1/brain/databases/${big.id}`));
      await hears(from, (c) => c.entity === '*');
      expect(heard(from), 'one "everything" change, not 5,000').toEqual([{ entity: '*', id: '*', kind: 'updated' }]);
      const tombstones = await tombstonesSince(client, since, 'BrainRecord');
      expect(tombstones.size).toBe(5000);
      expect([...tombstones.values()].every((n) => n === 1), 'each tombstone once').toBe(true);
      expect(ids.every((id) => tombstones.has(id))).toBe(true);

      from = live.results.length;
      await ok(client.delete(`/api/v1/brain/databases/${small.id}`));
      await hears(from, (c) => c.entity === 'BrainDatabase');
      expect(heard(from).sort((a: any, b: any) => a.id.localeCompare(b.id))).toEqual(
        [{ entity: 'BrainDatabase', id: small.id, kind: 'deleted' }, ...smallRecords.map((r: any) => ({ entity: 'BrainRecord', id: r.id, kind: 'deleted' }))].sort((a, b) => a.id.localeCompare(b.id)),
      );
    } finally {
      await socket.dispose();
    }
  });

  it("a series' new rule from an occurrence on deletes its 300 later occurrences: each a tombstone once", async () => {
    const { client } = await signUp(app.url);
    const week = await generateWeek(client, '2026-11-23');
    const first = await ok(client.post('/api/v1/tasks', { title: 'Stretch', timebox: 10, dayId: week.days[0].id, recurrence: 'FREQ=DAILY' }));
    const later = await sql<{ id: string }>(app.databaseUrl, `select id::text from tasks where series_id = $1 and id <> $1 order by occurrence_date`, [first.id]);
    // A year of occurrences past the week, without days (as a full day leaves them).
    await copies('tasks', later.at(-1)!.id, 300, { occurrence_date: `t.occurrence_date + g`, day_id: 'null' });
    const gone = (await sql<{ id: string }>(app.databaseUrl, `select id::text from tasks where series_id = $1 and id <> $1 and id <> $2`, [first.id, later[0]!.id])).map((r) => r.id);
    // The 300 copies, and the week's own later occurrences (none when today is the week's Sunday).
    expect(gone.length).toBeGreaterThanOrEqual(300);
    const since = (await syncFrom(client, '0')).cursor;

    await ok(client.patch(`/api/v1/tasks/${later[0]!.id}`, { recurrence: 'FREQ=DAILY;INTERVAL=2', applyTo: 'following' }));
    const tombstones = await tombstonesSince(client, since, 'Task');
    for (const id of gone) expect(tombstones.get(id), id).toBe(1);
  });

  it('XP granted by a reaction and a one-rep max set on a global exercise (raw inserts) are in the feed', async () => {
    const { client, id } = anna;
    const since = (await syncFrom(client, '0')).cursor;
    const monday = new Date(Date.now() - ((new Date().getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const day = (await generateWeek(client, monday)).days[0];
    await ok(client.post('/api/v1/cardio/sessions', { dayId: day.id, type: 'run', duration: 30 }));
    await ok(client.patch('/api/v1/exercises/088920c9-8ef2-5b7e-9f8d-b1ff17f694c6', { oneRepMax: 110 }));

    const after = await syncFrom(client, since);
    const grants = await sql<{ id: string }>(app.databaseUrl, 'select id::text from gamification_xp_grants where user_id = $1', [id]);
    expect(grants.length).toBeGreaterThan(0);
    for (const grant of grants) expect(after.changed.get(`XpGrant:${grant.id}`), `XpGrant:${grant.id}`).toMatchObject({ id: grant.id });
    expect([...after.changed.values()].find((r) => r.exerciseId === '088920c9-8ef2-5b7e-9f8d-b1ff17f694c6')).toMatchObject({ oneRepMax: 110 });
  });
});
