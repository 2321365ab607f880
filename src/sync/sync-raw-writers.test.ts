import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { makePdf, upload } from '../files/files.test-helpers.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { sql } from '../../test/support/db.js';

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
