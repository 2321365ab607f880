import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { unzip } from '../../test/support/zip.js';

/**
 * The Brain as one whole: notes, databases, records and forms together in entity search, entity types,
 * stats and the export zip (each module contributes its part; these tests see the assembled routes).
 */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

const api = '/api/v1/brain';

async function data(res: { status: number; text: string; body: any }, status = 200): Promise<any> {
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}

interface Seeded {
  note: any;
  db: any;
  record: any;
  form: any;
}

/** A note, a database with a record, and a form (with its own database) mentioning "heron". */
async function seed(client: HttpClient, prefix: string): Promise<Seeded> {
  const note = await data(await client.post(`${api}/notes`, { title: `${prefix} field notes`, content: 'Saw a grey heron by the pond.' }), 201);
  const db = await data(
    await client.post(`${api}/databases`, {
      name: `${prefix} Heron sightings`,
      properties: [
        { key: 'place', name: 'Place', type: 'text' },
        { key: 'count', name: 'Count', type: 'number' },
      ],
    }),
    201,
  );
  const record = await data(await client.post(`${api}/databases/${db.id}/records`, { values: { place: 'Heron lake shore', count: 3 } }), 201);
  const form = await data(
    await client.post(`${api}/forms`, {
      name: `${prefix} Bird survey`,
      createDatabase: { name: `${prefix} Survey answers` },
      config: { description: 'Tell us about the heron you saw', fields: [{ key: 'where', label: 'Where?', type: 'text', required: true }] },
    }),
    201,
  );
  return { note, db, record, form };
}

describe('Brain entities across notes, databases, records and forms', () => {
  let mine: Seeded;
  beforeAll(async () => {
    mine = await seed(alice, 'A');
    await seed(bob, 'B');
  });

  it('search finds each type, ranks title matches first, highlights, and shows only your own', async () => {
    const hits = await data(await alice.get(`${api}/entities/search?q=heron`));
    const byType = new Map<string, any>(hits.map((h: any) => [h.type, h]));
    expect([...byType.keys()].sort()).toEqual(['database', 'form', 'note', 'record']);
    expect(byType.get('note')).toMatchObject({ id: mine.note.id });
    expect(byType.get('database')).toMatchObject({ id: mine.db.id, title: 'A Heron sightings' });
    expect(byType.get('record')).toMatchObject({ id: mine.record.id });
    expect(byType.get('form')).toMatchObject({ id: mine.form.id, title: 'A Bird survey' });
    // Snippets come from the text (a database's is its property names: its match here is its name).
    for (const type of ['note', 'record', 'form']) expect(byType.get(type).snippet, type).toMatch(/<mark>heron<\/mark>/i);
    // The database's name (weight A) outranks the note, which has heron only in its body (weight B).
    expect(byType.get('database').rank).toBeGreaterThan(byType.get('note').rank);
    expect(hits.map((h: any) => h.rank)).toEqual([...hits.map((h: any) => h.rank)].sort((a: number, b: number) => b - a));
    // Bob's entities never appear (his titles start with B).
    expect(hits.every((h: any) => !String(h.title).startsWith('B '))).toBe(true);
    expect((await data(await alice.get(`${api}/entities/search?q=heron&type=record`))).map((h: any) => h.id)).toEqual([mine.record.id]);
  });

  it('a record edit or a form rename is searchable at once', async () => {
    await data(await alice.patch(`${api}/databases/${mine.db.id}/records/${mine.record.id}`, { values: { place: 'Kingfisher bank' } }));
    expect((await data(await alice.get(`${api}/entities/search?q=kingfisher`))).map((h: any) => h.id)).toEqual([mine.record.id]);
    await data(await alice.patch(`${api}/forms/${mine.form.id}`, { name: 'A Egret census' }));
    expect((await data(await alice.get(`${api}/entities/search?q=egret`))).map((h: any) => h.id)).toEqual([mine.form.id]);
  });

  it('entity types and stats count databases, records and forms too', async () => {
    const types = await data(await alice.get(`${api}/entities/types`));
    // Two databases: the one made directly and the one the form created.
    expect(types).toEqual(
      expect.arrayContaining([
        { type: 'note', count: 1 },
        { type: 'database', count: 2 },
        { type: 'record', count: 1 },
        { type: 'form', count: 1 },
      ]),
    );
    expect(types).toHaveLength(4);
    const stats = await data(await alice.get(`${api}/stats`));
    expect(stats).toMatchObject({ notes: 1, databases: 2, records: 1, forms: 1 });
    expect(stats.recordsPerDatabase).toEqual([
      { databaseId: mine.db.id, name: 'A Heron sightings', records: 1 },
      { databaseId: mine.form.databaseId, name: 'A Survey answers', records: 0 },
    ]);
  });

  it('the export zip holds the notes as Markdown, each database with its records and each form as JSON', async () => {
    const response = await fetch(`${app.url}${api}/export`, { headers: { cookie: alice.cookie! } });
    expect(response.status).toBe(200);
    const files = new Map([...(await unzip(Buffer.from(await response.arrayBuffer())))].filter(([name]) => !name.endsWith('/')).map(([name, bytes]) => [name, bytes.toString('utf8')]));
    const names = [...files.keys()];
    expect(names.filter((n) => n.endsWith('.md'))).toHaveLength(1);
    const databases = names.filter((n) => n.startsWith('databases/')).map((n) => JSON.parse(files.get(n)!));
    expect(databases.map((d) => d.id ?? d.database?.id).sort()).toEqual([mine.db.id, mine.form.databaseId].sort());
    const sightings = JSON.stringify(databases.find((d) => (d.id ?? d.database?.id) === mine.db.id));
    expect(sightings).toContain(mine.record.id);
    const forms = names.filter((n) => n.startsWith('forms/')).map((n) => files.get(n)!);
    expect(forms).toHaveLength(1);
    expect(forms[0]).toContain(mine.form.id);
    expect([...files.values()].join('\n')).not.toMatch(/B Heron sightings|B Bird survey|B field notes/);
  });
});
