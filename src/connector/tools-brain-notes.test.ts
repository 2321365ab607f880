import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { NOTE_CONTENT_MAX } from '../brain/notes/brain-notes.types.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';
import { NOTE_READ_CHUNK } from './mcp/tools/brain-notes.tools.js';

/** Issue 25: the Brain notes and databases tools (area journal), on the real service. */
type Connected = Awaited<ReturnType<typeof connectedUser>>;
let app: TestApp;
let alice: Connected;
let bob: Connected;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close()]);
  await app?.close();
});

const api = '/api/v1/brain';
async function rest(res: { status: number; text: string; body: any }, status = 200): Promise<any> {
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}
/** Brain writes record no event and earn no XP (as from the app): the user's outbox and XP stay. */
async function outbox(c: Connected): Promise<string[]> {
  return (await sql(app.databaseUrl, 'select event from event_outbox where user_id = $1', [c.user.id])).map((r) => r.event as string);
}
async function xp(c: Connected): Promise<number> {
  return (await rest(await c.user.client.get('/api/v1/gamification/stats'))).xp;
}

describe('notes', () => {
  it('brain_create_note files a note by folder and tag names; REST reads it; bad title, unknown tag, another user’s folder refused', async () => {
    const c = alice;
    const folder = await rest(await c.user.client.post(`${api}/folders`, { name: 'Travel' }), 201);
    const tag = await rest(await c.user.client.post(`${api}/tags`, { name: 'ideas' }), 201);
    const [events, points] = [await outbox(c), await xp(c)];

    const made = await callOk(c.client, 'brain_create_note', { title: ' Packing list ', content: '- passport', folder: 'travel', tags: ['IDEAS'] });
    expect(made).toEqual({ id: expect.any(String), title: 'Packing list', length: 10, folderId: folder.id, tagIds: [tag.id], updatedAt: expect.any(String), version: 1 });
    expect(await rest(await c.user.client.get(`${api}/notes/${made.id}`))).toMatchObject({ title: 'Packing list', content: '- passport', folderId: folder.id, tagIds: [tag.id] });
    expect(await outbox(c)).toEqual(events);
    expect(await xp(c)).toBe(points);

    const blank = await callError(c.client, 'brain_create_note', { title: '   ' });
    expect(blank).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['title'], message: 'title must not be blank' }] } });
    const unknownTag = await callError(c.client, 'brain_create_note', { title: 'X', tags: ['nope'] });
    expect(unknownTag).toMatchObject({ code: 'NOT_FOUND', details: { candidates: [{ id: tag.id, name: 'ideas' }] } });
    const theirs = await callError(bob.client, 'brain_create_note', { title: 'X', folderId: folder.id });
    expect(theirs).toMatchObject({ code: 'NOT_FOUND', message: 'Folder not found' });
    const theirTag = await callError(bob.client, 'brain_create_note', { title: 'X', tagIds: [tag.id] });
    expect(theirTag.code).toBe('NOT_FOUND');
    expect((await rest(await bob.user.client.get(`${api}/notes`))).length).toBe(0);
  });

  it('brain_read_note reads by id or title with folder and tag names, in chunks; ambiguous and another user’s notes refused', async () => {
    const c = alice;
    const tag = await rest(await c.user.client.post(`${api}/tags`, { name: 'long' }), 201);
    const text = 'a'.repeat(NOTE_READ_CHUNK - 1) + '😀' + 'b'.repeat(4000);
    const long = await rest(await c.user.client.post(`${api}/notes`, { title: 'Novel draft', content: text, tagIds: [tag.id] }), 201);
    await rest(await c.user.client.post(`${api}/notes`, { title: 'Novel ideas' }), 201);

    const first = await callOk(c.client, 'brain_read_note', { title: 'novel draft' });
    // The chunk stops before the emoji rather than between its two halves.
    expect(first).toMatchObject({ id: long.id, title: 'Novel draft', offset: 0, length: text.length, truncated: true, nextOffset: NOTE_READ_CHUNK - 1, folder: null, tags: [{ id: tag.id, name: 'long' }] });
    expect(first.content).toBe('a'.repeat(NOTE_READ_CHUNK - 1));
    const rest2 = await callOk(c.client, 'brain_read_note', { noteId: long.id, offset: first.nextOffset });
    expect(rest2).toMatchObject({ truncated: false, nextOffset: null, offset: NOTE_READ_CHUNK - 1 });
    expect(first.content + rest2.content).toBe(text);
    expect((await callOk(c.client, 'brain_read_note', { title: 'draft' })).id).toBe(long.id);

    const ambiguous = await callError(c.client, 'brain_read_note', { title: 'novel' });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates.map((n: any) => n.name).sort()).toEqual(['Novel draft', 'Novel ideas']);
    expect((await callError(c.client, 'brain_read_note', {})).code).toBe('VALIDATION_ERROR');
    expect((await callError(c.client, 'brain_read_note', { noteId: long.id, offset: -1 })).details.errors[0].path).toEqual(['offset']);

    expect(await callError(bob.client, 'brain_read_note', { noteId: long.id })).toMatchObject({ code: 'NOT_FOUND', message: 'Note not found' });
    const byTitle = await callError(bob.client, 'brain_read_note', { title: 'Novel draft' });
    expect(byTitle).toMatchObject({ code: 'NOT_FOUND', details: { candidates: [] } });
  });

  it('brain_append_to_note adds a line through the note service, refuses beyond the content bound with the GraphQL words, keeps concurrent appends', async () => {
    const c = alice;
    const note = await rest(await c.user.client.post(`${api}/notes`, { title: 'Log', content: 'first' }), 201);
    const [events, points] = [await outbox(c), await xp(c)];
    const appended = await callOk(c.client, 'brain_append_to_note', { title: 'log', text: 'second' });
    expect(appended).toMatchObject({ id: note.id, title: 'Log', length: 'first\nsecond'.length, appended: 7 });
    await Promise.all(['third', 'fourth', 'fifth'].map((text) => callOk(c.client, 'brain_append_to_note', { noteId: note.id, text })));
    const read = await rest(await c.user.client.get(`${api}/notes/${note.id}`));
    expect(read.content.split('\n').sort()).toEqual(['fifth', 'first', 'fourth', 'second', 'third']);
    expect(read.content.startsWith('first\nsecond\n')).toBe(true);
    expect(await outbox(c)).toEqual(events);
    expect(await xp(c)).toBe(points);

    const full = await rest(await c.user.client.post(`${api}/notes`, { title: 'Full', content: 'x'.repeat(NOTE_CONTENT_MAX - 3) }), 201);
    const tooLong = await callError(c.client, 'brain_append_to_note', { noteId: full.id, text: 'abc' });
    const words = `content must be at most ${NOTE_CONTENT_MAX} characters`;
    expect(tooLong).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['text'], message: words }] } });
    const graphql = await c.user.client.graphql('mutation($n: UUID!, $c: String!) { updateBrainNote(noteId: $n, content: $c) { id } }', { n: full.id, c: 'x'.repeat(NOTE_CONTENT_MAX + 1) });
    expect(JSON.stringify(graphql.body.errors)).toContain(words);
    expect((await rest(await c.user.client.get(`${api}/notes/${full.id}`))).content.length).toBe(NOTE_CONTENT_MAX - 3);
    // Up to the bound exactly is fine (the line break counts).
    expect((await callOk(c.client, 'brain_append_to_note', { noteId: full.id, text: 'ab' })).length).toBe(NOTE_CONTENT_MAX);

    expect(await callError(bob.client, 'brain_append_to_note', { noteId: note.id, text: 'hi' })).toMatchObject({ code: 'NOT_FOUND', message: 'Note not found' });
    expect((await rest(await c.user.client.get(`${api}/notes/${note.id}`))).content).toBe(read.content);
  });
});

describe('search', () => {
  it('brain_search finds notes, databases and records with marked snippets, by type and bounded; bad limit and empty words refused; never another user’s', async () => {
    const c = alice;
    await rest(await c.user.client.post(`${api}/notes`, { title: 'Zanzibar plans', content: 'Snorkelling at Mnemba atoll' }), 201);
    const db = await rest(await c.user.client.post(`${api}/databases`, { name: 'Zanzibar budget', properties: [{ key: 'item', name: 'Item', type: 'text' }] }), 201);
    await rest(await c.user.client.post(`${api}/databases/${db.id}/records`, { values: { item: 'Zanzibar ferry' } }), 201);

    const all = await callOk(c.client, 'brain_search', { q: 'zanzibar' });
    expect(all.results.map((r: any) => r.type).sort()).toEqual(['database', 'note', 'record']);
    const note = all.results.find((r: any) => r.type === 'note');
    expect(note).toMatchObject({ title: 'Zanzibar plans', id: expect.any(String), rank: expect.any(Number) });
    expect((await callOk(c.client, 'brain_search', { q: 'mnemba' })).results[0].snippet).toContain('<mark>Mnemba</mark>');
    expect((await callOk(c.client, 'brain_search', { q: 'zanzibar', type: 'record' })).results).toEqual([expect.objectContaining({ type: 'record', title: 'Zanzibar ferry' })]);
    expect((await callOk(c.client, 'brain_search', { q: 'zanzibar', limit: 1 })).results).toHaveLength(1);

    expect(await callError(c.client, 'brain_search', { q: 'x', limit: 51 })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['limit'], message: 'limit must be at most 50' }] } });
    expect(await callError(c.client, 'brain_search', { q: '  ' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['q'], message: 'q must not be empty' }] } });
    expect((await callError(c.client, 'brain_search', { q: 'x', type: 'task' })).details.errors[0].path).toEqual(['type']);
    expect((await callOk(bob.client, 'brain_search', { q: 'zanzibar' })).results).toEqual([]);
  });
});

describe('databases', () => {
  const properties = [
    { key: 'title', name: 'Title', type: 'text' },
    { key: 'prio', name: 'Priority', type: 'select', options: ['low', 'high'] },
    { key: 'due', name: 'Due date', type: 'date' },
    { key: 'done', name: 'Done', type: 'checkbox' },
  ];

  it('brain_databases lists the user’s databases with their properties, paginated', async () => {
    const c = await connectedUser(app);
    try {
      const older = await rest(await c.user.client.post(`${api}/databases`, { name: 'Reading', properties: [{ key: 'book', name: 'Book', type: 'text' }] }), 201);
      const newer = await rest(await c.user.client.post(`${api}/databases`, { name: 'Chores', properties }), 201);
      const list = await callOk(c.client, 'brain_databases', {});
      expect(list.meta).toEqual({ page: 1, limit: 20, total: 2 });
      expect(list.databases.map((d: any) => d.id)).toEqual([newer.id, older.id]);
      expect(list.databases[0].properties).toEqual([
        { key: 'title', name: 'Title', type: 'text', options: null },
        { key: 'prio', name: 'Priority', type: 'select', options: ['low', 'high'] },
        { key: 'due', name: 'Due date', type: 'date', options: null },
        { key: 'done', name: 'Done', type: 'checkbox', options: null },
      ]);
      const second = await callOk(c.client, 'brain_databases', { page: 2, limit: 1 });
      expect(second).toMatchObject({ databases: [{ id: older.id, name: 'Reading' }], meta: { page: 2, limit: 1, total: 2 } });
      expect((await callError(c.client, 'brain_databases', { limit: 0 })).details.errors[0].path).toEqual(['limit']);
      expect(await callOk(bob.client, 'brain_databases', {})).toMatchObject({ databases: [], meta: { total: 0 } });
    } finally {
      await c.client.close();
    }
  });

  it('brain_add_record adds a record by database name with values by property name, validated as REST does; another user’s database refused', async () => {
    const c = alice;
    const db = await rest(await c.user.client.post(`${api}/databases`, { name: 'Chores', properties }), 201);
    const [events, points] = [await outbox(c), await xp(c)];

    const added = await callOk(c.client, 'brain_add_record', { database: 'chores', values: { Title: 'Bins', priority: 'high', due: '2030-01-02', Done: false } });
    expect(added).toEqual({ id: expect.any(String), databaseId: db.id, databaseName: 'Chores', values: { title: 'Bins', prio: 'high', due: '2030-01-02', done: false }, createdAt: expect.any(String) });
    const records = await rest(await c.user.client.get(`${api}/databases/${db.id}/records`));
    expect(records).toEqual([expect.objectContaining({ id: added.id, values: { title: 'Bins', prio: 'high', due: '2030-01-02', done: false } })]);
    expect(await outbox(c)).toEqual(events);
    expect(await xp(c)).toBe(points);

    const wrong = await callError(c.client, 'brain_add_record', { databaseId: db.id, values: { Priority: 'urgent', done: 'yes' } });
    expect(wrong.code).toBe('VALIDATION_ERROR');
    expect(wrong.details.errors).toEqual([
      { path: ['values', 'prio'], message: 'Priority must be one of the options: low, high' },
      { path: ['values', 'done'], message: 'Done must be true or false' },
    ]);
    const viaRest = await c.user.client.post(`${api}/databases/${db.id}/records`, { values: { prio: 'urgent', done: 'yes' } });
    expect(viaRest.status).toBe(400);
    expect(viaRest.body.error.details.errors).toEqual(wrong.details.errors);
    expect((await callError(c.client, 'brain_add_record', { databaseId: db.id, values: { Colour: 'red' } })).details.errors).toEqual([{ path: ['values', 'Colour'], message: 'unknown property Colour' }]);
    expect(await callError(c.client, 'brain_add_record', { database: 'nowhere', values: {} })).toMatchObject({ code: 'NOT_FOUND', details: { candidates: expect.arrayContaining([{ id: db.id, name: 'Chores' }]) } });
    expect((await rest(await c.user.client.get(`${api}/databases/${db.id}/records`))).length).toBe(1);

    expect(await callError(bob.client, 'brain_add_record', { databaseId: db.id, values: { title: 'x' } })).toMatchObject({ code: 'NOT_FOUND', message: 'Database not found' });
    expect((await callError(bob.client, 'brain_add_record', { database: 'Chores', values: {} })).code).toBe('NOT_FOUND');
  });
});

it('conversation: "find my note about the trip" → search → read → append a line → read shows it (and REST too)', async () => {
  const c = await connectedUser(app);
  try {
    await rest(await c.user.client.post(`${api}/notes`, { title: 'Groceries', content: 'milk' }), 201);
    await rest(await c.user.client.post(`${api}/notes`, { title: 'Lisbon in May', content: 'The trip: flights booked, hotel in Alfama.' }), 201);

    const found = await callOk(c.client, 'brain_search', { q: 'trip', type: 'note' });
    expect(found.results).toHaveLength(1);
    const hit = found.results[0];
    expect(hit).toMatchObject({ type: 'note', title: 'Lisbon in May' });
    expect(hit.snippet).toContain('<mark>trip</mark>');

    const note = await callOk(c.client, 'brain_read_note', { noteId: hit.id });
    expect(note).toMatchObject({ title: 'Lisbon in May', content: 'The trip: flights booked, hotel in Alfama.', truncated: false });

    await callOk(c.client, 'brain_append_to_note', { noteId: note.id, text: '- Book a fado evening' });
    const again = await callOk(c.client, 'brain_read_note', { title: 'Lisbon' });
    expect(again.content).toBe('The trip: flights booked, hotel in Alfama.\n- Book a fado evening');
    expect((await rest(await c.user.client.get(`${api}/notes/${note.id}`))).content).toBe(again.content);
    expect((await callOk(c.client, 'brain_search', { q: 'fado' })).results.map((r: any) => r.id)).toEqual([note.id]);
  } finally {
    await c.client.close();
  }
});
