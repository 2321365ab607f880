import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { markSnippet, searchQuery } from './brain-search.service.js';

/** Full-text entity search, entity types, reindex and stats over real HTTP and PostgreSQL. */
let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

const api = '/api/v1/brain';

async function data(res: { status: number; text: string; body: any }, status = 200): Promise<any> {
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}
const note = async (c: HttpClient, title: string, content = '', extra: Record<string, unknown> = {}) =>
  data(await c.post(`${api}/notes`, { title, content, ...extra }), 201);
const search = async (c: HttpClient, q: string, extra = '') => data(await c.get(`${api}/entities/search?q=${encodeURIComponent(q)}${extra}`));

async function rowVersions(ids: string[]): Promise<Map<string, { xmin: string; updatedAt: string }>> {
  const rows: { id: string; xmin: string; updated_at: Date }[] = await app.server.orm.em
    .fork()
    .getConnection()
    .execute(`select id, xmin::text as xmin, updated_at from brain_note where id = any(string_to_array(?, ',')::uuid[])`, [ids.join(',')]);
  return new Map(rows.map((r) => [r.id, { xmin: r.xmin, updatedAt: String(r.updated_at) }]));
}

describe('GET /brain/entities/search', () => {
  it('ranks a title match above a body match and highlights the matches in the snippet', async () => {
    const { client } = await signUp(app.url);
    const inBody = await note(client, 'Weekly review', 'Check the garden hose and water the tomatoes before the heat.');
    const inTitle = await note(client, 'Tomatoes', 'Plant them in May.');
    await note(client, 'Unrelated', 'Nothing to see here.');

    const hits = await search(client, 'tomatoes');
    expect(hits.map((h: any) => h.id)).toEqual([inTitle.id, inBody.id]);
    expect(hits[0]).toMatchObject({ type: 'note', id: inTitle.id, title: 'Tomatoes' });
    expect(hits[0].rank).toBeGreaterThan(hits[1].rank);
    expect(hits[1].rank).toBeGreaterThan(0);
    expect(hits[1].snippet).toContain('water the <mark>tomatoes</mark> before');
    expect(Object.keys(hits[0]).sort()).toEqual(['id', 'rank', 'snippet', 'title', 'type']);

    // every word must match; a word matches the start of a longer one; case and punctuation do not matter
    expect((await search(client, 'garden TOMATO!')).map((h: any) => h.id)).toEqual([inBody.id]);
    expect((await search(client, 'tomatoes hose')).map((h: any) => h.id)).toEqual([inBody.id]);
    expect(await search(client, 'tomatoes cucumber')).toEqual([]);
    expect(await search(client, '!!! ???')).toEqual([]);
    expect(await search(client, 'tomatoes', '&type=database')).toEqual([]);
    expect((await search(client, 'tomatoes', '&type=note&limit=1')).map((h: any) => h.id)).toEqual([inTitle.id]);

    // an edit is searchable at once (the database keeps the vector)
    await data(await client.patch(`${api}/notes/${inBody.id}`, { content: 'Only cucumbers now.' }));
    expect((await search(client, 'tomatoes')).map((h: any) => h.id)).toEqual([inTitle.id]);
    expect((await search(client, 'cucumbers')).map((h: any) => h.id)).toEqual([inBody.id]);
    await data(await client.delete(`${api}/notes/${inTitle.id}`));
    expect(await search(client, 'tomatoes')).toEqual([]);
  });

  it('escapes the note text in the snippet: only <mark> is markup', async () => {
    const { client } = await signUp(app.url);
    await note(client, 'Markup', '<script>alert(1)</script> keyword: 1 < 2 and 3 > 2 & "q" and more words after it');
    const [hit] = await search(client, 'keyword');
    expect(hit.snippet).toContain('1 &lt; 2 and 3 &gt; 2 &amp; &quot;q&quot;');
    expect(hit.snippet).not.toContain('<script>');
    expect(hit.snippet).toContain('<mark>keyword</mark>');
    expect(hit.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('finds only your own entities', async () => {
    const { client: one } = await signUp(app.url);
    const { client: two } = await signUp(app.url);
    const mine = await note(one, 'Zanzibar trip');
    await note(two, 'Zanzibar diary');
    expect((await search(one, 'zanzibar')).map((h: any) => h.id)).toEqual([mine.id]);
  });

  it('refuses an empty, blank or too long q, and a bad type or limit (400)', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.get(`${api}/entities/search`), 'q');
    expectValidation(await client.get(`${api}/entities/search?q=`), 'q');
    expectValidation(await client.get(`${api}/entities/search?q=%20%20`), 'q');
    expectValidation(await client.get(`${api}/entities/search?q=${'a'.repeat(201)}`), 'q');
    await search(client, 'a'.repeat(200));
    expectValidation(await client.get(`${api}/entities/search?q=x&type=planet`), 'type');
    expectValidation(await client.get(`${api}/entities/search?q=x&limit=0`), 'limit');
    expectValidation(await client.get(`${api}/entities/search?q=x&limit=51`), 'limit');
    expectValidation(await client.get(`${api}/entities/search?q=x&limit=many`), 'limit');
    expectStatus(await client.withoutCookie().get(`${api}/entities/search?q=x`), 401, 'UNAUTHORIZED');
  });

  it('builds tsqueries from words only and marks snippets safely', () => {
    expect(searchQuery("Plan's  2026 (draft)")).toBe("'plan':* & 's':* & '2026':* & 'draft':*");
    expect(searchQuery("':* | !")).toBeNull();
    expect(searchQuery('Éte café')).toBe("'éte':* & 'café':*");
    expect(markSnippet('a \uE000b\uE001 <c>')).toBe('a <mark>b</mark> &lt;c&gt;');
  });
});

describe('GET /brain/entities/types and POST /brain/entities/reindex', () => {
  it('lists the searchable types with your counts', async () => {
    const { client } = await signUp(app.url);
    expect(await data(await client.get(`${api}/entities/types`))).toEqual(['note', 'database', 'record', 'form'].map((type) => ({ type, count: 0 })));
    await note(client, 'One');
    await note(client, 'Two');
    expect(await data(await client.get(`${api}/entities/types`))).toEqual(['note', 'database', 'record', 'form'].map((type) => ({ type, count: type === 'note' ? 2 : 0 })));
  });

  it("recomputes every search vector of yours (each row rewritten, updatedAt kept), not another user's", async () => {
    const { client } = await signUp(app.url);
    const { client: other } = await signUp(app.url);
    const a = await note(client, 'Alpha', 'first body');
    const b = await note(client, 'Beta', 'second body');
    const c = await note(other, 'Gamma', 'other body');
    const before = await rowVersions([a.id, b.id, c.id]);

    const result = await data(await client.post(`${api}/entities/reindex`));
    expect(result).toEqual({ reindexed: 2, types: ['note', 'database', 'record', 'form'].map((type) => ({ type, count: type === 'note' ? 2 : 0 })) });

    const after = await rowVersions([a.id, b.id, c.id]);
    for (const id of [a.id, b.id]) {
      expect(after.get(id)!.xmin).not.toBe(before.get(id)!.xmin);
      expect(after.get(id)!.updatedAt).toBe(before.get(id)!.updatedAt);
    }
    expect(after.get(c.id)).toEqual(before.get(c.id));
    expect((await search(client, 'body')).map((h: any) => h.title).sort()).toEqual(['Alpha', 'Beta']);
    expect(await data(await client.get(`${api}/notes/${a.id}`))).toMatchObject({ title: 'Alpha', content: 'first body', updatedAt: a.updatedAt });
    expectStatus(await client.withoutCookie().post(`${api}/entities/reindex`), 401, 'UNAUTHORIZED');
  });
});

describe('GET /brain/stats', () => {
  it('counts notes, folders, tags, canvases and the words in notes', async () => {
    const { client } = await signUp(app.url);
    const empty = await data(await client.get(`${api}/stats`));
    expect(empty).toEqual({ notes: 0, folders: 0, tags: 0, canvases: 0, words: 0, databases: 0, records: 0, forms: 0, recordsPerDatabase: [] });

    const f = await data(await client.post(`${api}/folders`, { name: 'F' }), 201);
    await data(await client.post(`${api}/folders`, { name: 'G', parentId: f.id }), 201);
    await data(await client.post(`${api}/tags`, { name: 't' }), 201);
    // 8 words (Heading here one **two** don't stop 3 times): Markdown marks standing alone (#, -, **, ---, >) are not words; don't is one word
    const n = await note(client, 'Title words do not count', "# Heading here\n\n- one **two**\n---\n> don't stop 3 times");
    await note(client, 'Empty');
    await note(client, 'Spaces', '   \n\t ');
    await data(await client.post(`${api}/canvases`, { name: 'Board', cards: [{ entityType: 'note', entityId: n.id, x: 0, y: 0 }] }), 201);
    await signUp(app.url).then(async ({ client: other }) => note(other, 'Not mine', 'many many words here'));

    expect(await data(await client.get(`${api}/stats`))).toEqual({
      notes: 3,
      folders: 2,
      tags: 1,
      canvases: 1,
      words: 8,
      databases: 0,
      records: 0,
      forms: 0,
      recordsPerDatabase: [],
    });
  });
});
