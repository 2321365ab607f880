import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';

/** Brain reads cost a fixed number of SQL statements however much the user holds. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const api = '/api/v1/brain';

/** The statements of one request (background work is not counted: test/support/statement-counter.ts). */
async function statements(send: () => Promise<{ status: number; text: string }>): Promise<number> {
  const recorder = recordStatements();
  const res = await send().finally(() => recorder.stop());
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return recorder.statements.length;
}

async function fill(client: HttpClient, notes: number): Promise<void> {
  const folder = (await client.post(`${api}/folders`, { name: 'F' })).body.data;
  const tag = (await client.post(`${api}/tags`, { name: 't' })).body.data;
  for (let i = 0; i < notes; i++) {
    const res = await client.post(`${api}/notes`, { title: `Note ${i} searchword`, content: `body ${i} searchword`, folderId: folder.id, tagIds: [tag.id] });
    expect(res.status, res.text).toBe(201);
  }
  // As many databases (one record each) and forms, so the other Brain types grow with it too.
  for (let i = 0; i < Math.min(notes, 10); i++) {
    const db = await client.post(`${api}/databases`, { name: `DB ${i} searchword`, properties: [{ key: 'title', name: 'Title', type: 'text' }] });
    expect(db.status, db.text).toBe(201);
    const record = await client.post(`${api}/databases/${db.body.data.id}/records`, { values: { title: `searchword ${i}` } });
    expect(record.status, record.text).toBe(201);
    const form = await client.post(`${api}/forms`, { name: `Form ${i} searchword`, databaseId: db.body.data.id, config: { fields: [{ key: 'title', label: 'Title', type: 'text' }] } });
    expect(form.status, form.text).toBe(201);
  }
}

describe('SQL statements per Brain read', () => {
  it('the note list, search, types, stats and export cost the same for 1 note (database, record, form) and for 40 notes (10 of each)', async () => {
    const { client: small } = await signUp(app.url);
    const { client: large } = await signUp(app.url);
    await fill(small, 1);
    await fill(large, 40);
    const reads: [string, (c: HttpClient) => Promise<{ status: number; text: string }>][] = [
      ['notes', (c) => c.get(`${api}/notes`)],
      ['search', (c) => c.get(`${api}/entities/search?q=searchword&limit=50`)],
      ['types', (c) => c.get(`${api}/entities/types`)],
      ['stats', (c) => c.get(`${api}/stats`)],
      ['export', async (c) => {
        const res = await fetch(`${app.url}${api}/export`, { headers: { cookie: c.cookie! } });
        await res.arrayBuffer();
        return { status: res.status, text: '' };
      }],
    ];
    for (const [name, read] of reads) {
      const few = await statements(() => read(small));
      const many = await statements(() => read(large));
      expect(many, name).toBe(few);
      // the read itself, the session check not counted (the export reads folders, notes and tags, then
      // databases, their records and forms)
      expect(few, name).toBeLessThanOrEqual(name === 'export' ? 6 : 2);
    }
  });
});
