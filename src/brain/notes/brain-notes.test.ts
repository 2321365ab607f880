import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { expectNotFound, expectRule, expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { keyHolder } from '../../public-api/public-api.test-helpers.js';

/** Brain notes, nested folders, Brain tags and canvases over real HTTP and PostgreSQL. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});

const api = '/api/v1/brain';

async function created(res: { status: number; text: string; body: any }): Promise<any> {
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}
async function ok(res: { status: number; text: string; body: any }): Promise<any> {
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
const note = async (c: HttpClient, body: Record<string, unknown> = {}) => created(await c.post(`${api}/notes`, { title: 'Note', ...body }));
const folder = async (c: HttpClient, body: Record<string, unknown> = {}) => created(await c.post(`${api}/folders`, { name: 'Folder', ...body }));
const tag = async (c: HttpClient, body: Record<string, unknown> = {}) => created(await c.post(`${api}/tags`, { name: 'tag', ...body }));
const titles = (list: any[]) => list.map((n) => n.title);

describe('notes', () => {
  it('creates (201), gets, lists newest edit first with meta, patches, deletes', async () => {
    const { client } = await signUp(app.url);
    const a = await created(await client.post(`${api}/notes`, { title: ' Groceries ', content: '# Milk\n- eggs' }));
    expect(a).toMatchObject({ title: 'Groceries', content: '# Milk\n- eggs', folderId: null, tagIds: [] });
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.searchVector).toBeUndefined();
    expect(a.createdAt).toEqual(expect.any(String));
    const b = await note(client, { title: 'Ideas' });
    expect(b.content).toBe('');

    expect((await ok(await client.get(`${api}/notes/${a.id}`))).title).toBe('Groceries');
    const list = await client.get(`${api}/notes`);
    expect(titles(list.body.data)).toEqual(['Ideas', 'Groceries']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 2 });

    const patched = await ok(await client.patch(`${api}/notes/${a.id}`, { content: 'Oat milk', title: 'Shopping' }));
    expect(patched).toMatchObject({ title: 'Shopping', content: 'Oat milk' });
    expect(new Date(patched.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(a.updatedAt).getTime());
    expect(titles((await client.get(`${api}/notes`)).body.data)).toEqual(['Shopping', 'Ideas']);
    expect(titles((await client.get(`${api}/notes?limit=1&page=2`)).body.data)).toEqual(['Ideas']);

    expect(await ok(await client.delete(`${api}/notes/${a.id}`))).toEqual({ id: a.id, message: 'Note deleted' });
    expectNotFound(await client.get(`${api}/notes/${a.id}`));
    expectNotFound(await client.delete(`${api}/notes/${a.id}`));
    expectNotFound(await client.patch(`${api}/notes/${MISSING_ID}`, { title: 'x' }));
  });

  it('files notes in folders and filters the list by folder, unfiled and tag', async () => {
    const { client } = await signUp(app.url);
    const work = await folder(client, { name: 'Work' });
    const home = await folder(client, { name: 'Home' });
    const urgent = await tag(client, { name: 'urgent' });
    const later = await tag(client, { name: 'later' });
    const a = await note(client, { title: 'A', folderId: work.id, tagIds: [urgent.id, later.id, urgent.id] });
    expect(a.tagIds.sort()).toEqual([urgent.id, later.id].sort());
    const b = await note(client, { title: 'B', folderId: home.id, tagIds: [later.id] });
    const c = await note(client, { title: 'C' });

    expect(titles((await client.get(`${api}/notes?folderId=${work.id}`)).body.data)).toEqual(['A']);
    expect(titles((await client.get(`${api}/notes?unfiled=true`)).body.data)).toEqual(['C']);
    expect(titles((await client.get(`${api}/notes?tagId=${later.id}`)).body.data).sort()).toEqual(['A', 'B']);
    expect(titles((await client.get(`${api}/notes?tagId=${urgent.id}&folderId=${work.id}`)).body.data)).toEqual(['A']);
    expect((await client.get(`${api}/notes?tagId=${urgent.id}&folderId=${home.id}`)).body.data).toEqual([]);

    // attach and detach tags by sending the whole set; move between folders and to the top
    expect((await ok(await client.patch(`${api}/notes/${b.id}`, { tagIds: [urgent.id, later.id] }))).tagIds.sort()).toEqual([urgent.id, later.id].sort());
    expect((await ok(await client.patch(`${api}/notes/${b.id}`, { tagIds: [later.id] }))).tagIds).toEqual([later.id]);
    expect((await ok(await client.patch(`${api}/notes/${b.id}`, { tagIds: [] }))).tagIds).toEqual([]);
    expect((await ok(await client.patch(`${api}/notes/${b.id}`, { folderId: work.id }))).folderId).toBe(work.id);
    expect((await ok(await client.patch(`${api}/notes/${b.id}`, { folderId: null }))).folderId).toBeNull();
    expect((await ok(await client.patch(`${api}/notes/${c.id}`, { title: 'C2' }))).folderId).toBeNull();
    expectNotFound(await client.post(`${api}/notes`, { title: 'x', folderId: MISSING_ID }), 'folderId');
    expectNotFound(await client.post(`${api}/notes`, { title: 'x', tagIds: [MISSING_ID] }), 'tagIds');
    expectNotFound(await client.get(`${api}/notes?folderId=${MISSING_ID}`), 'folderId');
    expectNotFound(await client.get(`${api}/notes?tagId=${MISSING_ID}`), 'tagId');
  });

  it('refuses bad input with 400 VALIDATION_ERROR, never 500', async () => {
    const { client } = await signUp(app.url);
    const n = await note(client);
    expectValidation(await client.post(`${api}/notes`, {}), 'title');
    expectValidation(await client.post(`${api}/notes`, { title: '   ' }), 'title');
    expectValidation(await client.post(`${api}/notes`, { title: 'x'.repeat(301) }), 'title');
    expectValidation(await client.post(`${api}/notes`, { title: 5 }));
    expectValidation(await client.post(`${api}/notes`, { title: 'x', content: 7 }));
    expectValidation(await client.post(`${api}/notes`, { title: 'x', content: 'a\u0000b' }), 'content');
    expectValidation(await client.post(`${api}/notes`, { title: 'x', folderId: 'nope' }));
    expectValidation(await client.post(`${api}/notes`, { title: 'x', tagIds: ['nope'] }));
    expectValidation(await client.post(`${api}/notes`, { title: 'x', tagIds: 'nope' }));
    expectValidation(await client.patch(`${api}/notes/${n.id}`, { title: null }), 'title');
    expectValidation(await client.patch(`${api}/notes/${n.id}`, { tagIds: null }), 'tagIds');
    expectValidation(await client.get(`${api}/notes/not-a-uuid`));
    expectValidation(await client.delete(`${api}/notes/123`));
    expectValidation(await client.get(`${api}/notes?folderId=x`));
    expectValidation(await client.get(`${api}/notes?limit=0`));
    expectStatus(await client.withoutCookie().get(`${api}/notes`), 401, 'UNAUTHORIZED');
  });
});

describe('folders', () => {
  it('nest, list flat by name, rename, move, refuse a cycle, delete only when empty', async () => {
    const { client } = await signUp(app.url);
    const root = await folder(client, { name: 'Root' });
    expect(root).toMatchObject({ name: 'Root', parentId: null });
    const child = await folder(client, { name: 'Child', parentId: root.id });
    const grandchild = await folder(client, { name: 'Grandchild', parentId: child.id });
    const other = await folder(client, { name: 'Archive' });
    const list = await client.get(`${api}/folders`);
    expect(list.body.data.map((f: any) => [f.name, f.parentId])).toEqual([
      ['Archive', null],
      ['Child', root.id],
      ['Grandchild', child.id],
      ['Root', null],
    ]);
    expect(list.body.meta).toMatchObject({ total: 4 });
    expect((await ok(await client.get(`${api}/folders/${child.id}`))).name).toBe('Child');

    // rename
    expect((await ok(await client.patch(`${api}/folders/${child.id}`, { name: ' Kid ' }))).name).toBe('Kid');
    // cycles: into itself, into its child, into its grandchild
    expectRule(await client.patch(`${api}/folders/${root.id}`, { parentId: root.id }), 'brain_folder_cycle');
    expectRule(await client.patch(`${api}/folders/${root.id}`, { parentId: child.id }), 'brain_folder_cycle');
    expectRule(await client.patch(`${api}/folders/${root.id}`, { parentId: grandchild.id }), 'brain_folder_cycle');
    expect((await ok(await client.get(`${api}/folders/${root.id}`))).parentId).toBeNull();
    // a real move, then to the top
    expect((await ok(await client.patch(`${api}/folders/${child.id}`, { parentId: other.id }))).parentId).toBe(other.id);
    expect((await ok(await client.patch(`${api}/folders/${grandchild.id}`, { parentId: null }))).parentId).toBeNull();
    expect((await ok(await client.patch(`${api}/folders/${root.id}`, { parentId: grandchild.id }))).parentId).toBe(grandchild.id);
    expectNotFound(await client.patch(`${api}/folders/${root.id}`, { parentId: MISSING_ID }), 'parentId');
    expectNotFound(await client.post(`${api}/folders`, { name: 'x', parentId: MISSING_ID }), 'parentId');

    // delete: not while it holds a sub-folder or a note
    expectRule(await client.delete(`${api}/folders/${other.id}`), 'brain_folder_not_empty');
    const n = await note(client, { folderId: child.id });
    expectRule(await client.delete(`${api}/folders/${child.id}`), 'brain_folder_not_empty');
    await ok(await client.patch(`${api}/notes/${n.id}`, { folderId: null }));
    expect(await ok(await client.delete(`${api}/folders/${child.id}`))).toEqual({ id: child.id, message: 'Folder deleted' });
    expect(await ok(await client.delete(`${api}/folders/${other.id}`))).toEqual({ id: other.id, message: 'Folder deleted' });
    expectNotFound(await client.get(`${api}/folders/${child.id}`));
    expectNotFound(await client.delete(`${api}/folders/${child.id}`));
  });

  it('refuses nesting deeper than 32 levels', async () => {
    const { client } = await signUp(app.url);
    let parentId: string | null = null;
    let top: any;
    for (let i = 0; i < 32; i++) {
      const f: any = await folder(client, { name: `L${i}`, parentId });
      top ??= f;
      parentId = f.id;
    }
    expectRule(await client.post(`${api}/folders`, { name: 'too deep', parentId }), 'brain_folder_depth');
    const extra = await folder(client, { name: 'Extra' });
    await folder(client, { name: 'Below', parentId: extra.id });
    // Extra (2 levels) under the 31st level would reach 33
    expectRule(await client.patch(`${api}/folders/${extra.id}`, { parentId: top.id === parentId ? parentId : (await client.get(`${api}/folders?limit=100`)).body.data.find((f: any) => f.name === 'L30').id }), 'brain_folder_depth');
  });

  it('refuses bad folder input', async () => {
    const { client } = await signUp(app.url);
    const f = await folder(client);
    expectValidation(await client.post(`${api}/folders`, {}), 'name');
    expectValidation(await client.post(`${api}/folders`, { name: '' }), 'name');
    expectValidation(await client.post(`${api}/folders`, { name: 'x'.repeat(201) }), 'name');
    expectValidation(await client.post(`${api}/folders`, { name: 'x', parentId: 42 }));
    expectValidation(await client.patch(`${api}/folders/${f.id}`, { name: null }), 'name');
    expectValidation(await client.get(`${api}/folders/xyz`));
  });
});

describe('brain tags', () => {
  it('create (201), list by name, rename, refuse a duplicate name ignoring case, delete and leave the notes', async () => {
    const { client } = await signUp(app.url);
    const b = await tag(client, { name: 'beta', color: '#00FF00' });
    const a = await tag(client, { name: 'Alpha' });
    expect(b).toMatchObject({ name: 'beta', color: '#00FF00' });
    expect(b.nameKey).toBeUndefined();
    expect((await client.get(`${api}/tags`)).body.data.map((t: any) => t.name)).toEqual(['Alpha', 'beta']);
    expectRule(await client.post(`${api}/tags`, { name: 'ALPHA' }), 'brain_tag_exists');
    expectRule(await client.patch(`${api}/tags/${b.id}`, { name: 'alpha' }), 'brain_tag_exists');
    expect((await ok(await client.patch(`${api}/tags/${a.id}`, { name: 'ALPHA', color: null }))).name).toBe('ALPHA');
    expect((await ok(await client.get(`${api}/tags/${a.id}`))).name).toBe('ALPHA');

    // Brain tags are not project tags, and project tags are not Brain tags
    expect((await client.get('/api/v1/tags')).body.data).toEqual([]);
    const projectTag = await created(await client.post('/api/v1/tags', { name: 'project' }));
    expectNotFound(await client.post(`${api}/notes`, { title: 'x', tagIds: [projectTag.id] }), 'tagIds');

    const n = await note(client, { tagIds: [a.id, b.id] });
    expect(await ok(await client.delete(`${api}/tags/${a.id}`))).toEqual({ id: a.id, message: 'Tag deleted' });
    expect((await ok(await client.get(`${api}/notes/${n.id}`))).tagIds).toEqual([b.id]);
    expectNotFound(await client.delete(`${api}/tags/${a.id}`));
    // the name is free again
    await tag(client, { name: 'alpha' });

    expectValidation(await client.post(`${api}/tags`, { name: 'x', color: 'red' }), 'color');
    expectValidation(await client.post(`${api}/tags`, { name: '' }), 'name');
    expectValidation(await client.delete(`${api}/tags/1`));
  });

  it('two users may use the same tag name', async () => {
    const { client: one } = await signUp(app.url);
    const { client: two } = await signUp(app.url);
    await tag(one, { name: 'shared' });
    await tag(two, { name: 'shared' });
  });
});

describe('canvases', () => {
  it('saves boards of entity cards: create (201), list, get, replace cards, rename, delete', async () => {
    const { client } = await signUp(app.url);
    const n1 = await note(client, { title: 'One' });
    const n2 = await note(client, { title: 'Two' });
    const empty = await created(await client.post(`${api}/canvases`, { name: 'Empty' }));
    expect(empty).toMatchObject({ name: 'Empty', cards: [] });
    const board = await created(
      await client.post(`${api}/canvases`, {
        name: 'Plan',
        cards: [
          { entityType: 'note', entityId: n1.id, x: 10, y: -20.5 },
          { entityType: 'note', entityId: n2.id, x: 300, y: 40, w: 240, h: 120 },
        ],
      }),
    );
    expect(board.cards).toEqual([
      { entityType: 'note', entityId: n1.id, x: 10, y: -20.5, w: null, h: null },
      { entityType: 'note', entityId: n2.id, x: 300, y: 40, w: 240, h: 120 },
    ]);
    expect((await client.get(`${api}/canvases`)).body.data.map((c: any) => c.name)).toEqual(['Empty', 'Plan']);
    expect((await ok(await client.get(`${api}/canvases/${board.id}`))).cards).toHaveLength(2);
    const moved = await ok(await client.patch(`${api}/canvases/${board.id}`, { cards: [{ entityType: 'note', entityId: n2.id, x: 1, y: 2 }] }));
    expect(moved.cards).toEqual([{ entityType: 'note', entityId: n2.id, x: 1, y: 2, w: null, h: null }]);
    expect(moved.name).toBe('Plan');
    const renamed = await ok(await client.patch(`${api}/canvases/${board.id}`, { name: 'Roadmap' }));
    expect(renamed).toMatchObject({ name: 'Roadmap', cards: moved.cards });
    expect(await ok(await client.delete(`${api}/canvases/${board.id}`))).toEqual({ id: board.id, message: 'Canvas deleted' });
    expectNotFound(await client.get(`${api}/canvases/${board.id}`));

    // a card must show an entity that exists (and is yours)
    expectNotFound(await client.post(`${api}/canvases`, { name: 'x', cards: [{ entityType: 'note', entityId: MISSING_ID, x: 0, y: 0 }] }), 'cards');
    // bad input
    const card = { entityType: 'note', entityId: n1.id, x: 0, y: 0 };
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, entityType: 'planet' }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, x: 'left' }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, w: 0 }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, y: 1e9 }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, entityId: 'nope' }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: [{ ...card, z: 1 }] }));
    expectValidation(await client.post(`${api}/canvases`, { name: 'x', cards: Array.from({ length: 501 }, () => card) }));
    expectValidation(await client.post(`${api}/canvases`, { cards: [] }), 'name');
    expectValidation(await client.patch(`${api}/canvases/${empty.id}`, { cards: null }), 'cards');
  });
});

describe('isolation', () => {
  it("answers 404 for another user's note, folder, tag and canvas, in the path, the body and the query", async () => {
    const f = await folder(alice, { name: 'Private' });
    const t = await tag(alice, { name: 'secret' });
    const n = await note(alice, { title: 'Diary', folderId: f.id, tagIds: [t.id] });
    const c = await created(await alice.post(`${api}/canvases`, { name: 'Mine', cards: [{ entityType: 'note', entityId: n.id, x: 0, y: 0 }] }));

    expectNotFound(await bob.get(`${api}/notes/${n.id}`));
    expectNotFound(await bob.patch(`${api}/notes/${n.id}`, { title: 'x' }));
    expectNotFound(await bob.delete(`${api}/notes/${n.id}`));
    expectNotFound(await bob.get(`${api}/folders/${f.id}`));
    expectNotFound(await bob.patch(`${api}/folders/${f.id}`, { name: 'x' }));
    expectNotFound(await bob.delete(`${api}/folders/${f.id}`));
    expectNotFound(await bob.get(`${api}/tags/${t.id}`));
    expectNotFound(await bob.patch(`${api}/tags/${t.id}`, { name: 'x' }));
    expectNotFound(await bob.delete(`${api}/tags/${t.id}`));
    expectNotFound(await bob.get(`${api}/canvases/${c.id}`));
    expectNotFound(await bob.patch(`${api}/canvases/${c.id}`, { name: 'x' }));
    expectNotFound(await bob.delete(`${api}/canvases/${c.id}`));

    const own = await note(bob, { title: 'Mine' });
    const ownFolder = await folder(bob);
    expectNotFound(await bob.post(`${api}/notes`, { title: 'x', folderId: f.id }), 'folderId');
    expectNotFound(await bob.post(`${api}/notes`, { title: 'x', tagIds: [t.id] }), 'tagIds');
    expectNotFound(await bob.patch(`${api}/notes/${own.id}`, { folderId: f.id }), 'folderId');
    expectNotFound(await bob.patch(`${api}/notes/${own.id}`, { tagIds: [t.id] }), 'tagIds');
    expectNotFound(await bob.post(`${api}/folders`, { name: 'x', parentId: f.id }), 'parentId');
    expectNotFound(await bob.patch(`${api}/folders/${ownFolder.id}`, { parentId: f.id }), 'parentId');
    expectNotFound(await bob.get(`${api}/notes?folderId=${f.id}`), 'folderId');
    expectNotFound(await bob.get(`${api}/notes?tagId=${t.id}`), 'tagId');
    expectNotFound(await bob.post(`${api}/canvases`, { name: 'x', cards: [{ entityType: 'note', entityId: n.id, x: 0, y: 0 }] }), 'cards');
    expect(titles((await bob.get(`${api}/notes`)).body.data)).not.toContain('Diary');
    expect((await bob.get(`${api}/folders`)).body.data.map((x: any) => x.id)).toEqual([ownFolder.id]);
    expect((await bob.get(`${api}/tags`)).body.data).toEqual([]);
    expect((await bob.get(`${api}/canvases`)).body.data).toEqual([]);

    // nothing of alice's changed
    expect(await ok(await alice.get(`${api}/notes/${n.id}`))).toMatchObject({ title: 'Diary', folderId: f.id, tagIds: [t.id] });
    expect((await ok(await alice.get(`${api}/canvases/${c.id}`))).name).toBe('Mine');
  });

  it('an API key cannot call /api/v1/brain/*, and the Public API has no Brain routes', async () => {
    const holder = await keyHolder(app);
    const n = await note(holder.client, { title: 'Keyed' });
    const bearer = { headers: { authorization: `Bearer ${holder.key}` } };
    const anonymous = holder.client.withoutCookie();
    for (const path of ['/notes', `/notes/${n.id}`, '/folders', '/tags', '/canvases', '/entities/search?q=keyed', '/entities/types', '/stats', '/export']) {
      expectStatus(await anonymous.get(`${api}${path}`, bearer), 401, 'UNAUTHORIZED');
    }
    expectStatus(await anonymous.post(`${api}/notes`, { title: 'x' }, bearer), 401, 'UNAUTHORIZED');
    expectStatus(await anonymous.post(`${api}/entities/reindex`, undefined, bearer), 401, 'UNAUTHORIZED');
    for (const path of ['/brain/notes', '/brain/entities/search?q=keyed', '/brain/export']) {
      expectStatus(await holder.api.get(path), 404, 'NOT_FOUND');
    }
    expectStatus(await holder.api.post('/brain/notes', { title: 'x' }), 404, 'NOT_FOUND');
    // the note is still there, unchanged, for its owner's session
    expect((await ok(await holder.client.get(`${api}/notes`))).map((x: any) => x.title)).toEqual(['Keyed']);
  });
});
