import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { expectGraphQLError, expectNotFound, expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { makePdf, upload } from '../../files/files.test-helpers.js';
import { keyHolder } from '../../public-api/public-api.test-helpers.js';
import { brainDataCounts } from './brain-data.queries.js';
import { recordStatements } from '../../../test/support/statement-counter.js';

/** Brain databases and records: CRUD, typed values, filter and sort, isolation, bad input. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;

const PROPERTIES = [
  { key: 'title', name: 'Title', type: 'text' },
  { key: 'pages', name: 'Pages', type: 'number' },
  { key: 'status', name: 'Status', type: 'select', options: ['todo', 'reading', 'done'] },
  { key: 'tags', name: 'Tags', type: 'multi_select', options: ['sf', 'history', 'math'] },
  { key: 'started', name: 'Started', type: 'date' },
  { key: 'owned', name: 'Owned', type: 'checkbox' },
  { key: 'link', name: 'Link', type: 'url' },
  { key: 'author_mail', name: 'Author mail', type: 'email' },
  { key: 'cover', name: 'Cover', type: 'file' },
];

beforeAll(async () => {
  app = await startTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

async function makeDb(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/brain/databases', { name: 'Books', properties: PROPERTIES, ...body });
  expectStatus(res, 201);
  return res.body.data;
}

async function addRecord(client: HttpClient, dbId: string, values: Record<string, unknown>): Promise<any> {
  const res = await client.post(`/api/v1/brain/databases/${dbId}/records`, { values });
  expectStatus(res, 201);
  return res.body.data;
}

describe('databases', () => {
  it('creates, reads, lists, updates and deletes a database', async () => {
    const db = await makeDb(alice);
    expect(db).toMatchObject({ name: 'Books', properties: PROPERTIES });
    expect(Object.keys(db).sort()).toEqual(['createdAt', 'id', 'name', 'properties', 'updatedAt']);
    const read = await alice.get(`/api/v1/brain/databases/${db.id}`);
    expectStatus(read, 200);
    expect(read.body.data).toEqual(db);
    const list = await alice.get('/api/v1/brain/databases');
    expect(list.body.data.map((d: any) => d.id)).toContain(db.id);
    const patched = await alice.patch(`/api/v1/brain/databases/${db.id}`, { name: 'Library', properties: PROPERTIES.slice(0, 2) });
    expectStatus(patched, 200);
    expect(patched.body.data).toMatchObject({ name: 'Library', properties: PROPERTIES.slice(0, 2) });
    await addRecord(alice, db.id, { title: 'Dune' });
    const del = await alice.delete(`/api/v1/brain/databases/${db.id}`);
    expectStatus(del, 200);
    expect(del.body.data).toEqual({ id: db.id, deleted: true });
    expectNotFound(await alice.get(`/api/v1/brain/databases/${db.id}`));
    expectNotFound(await alice.get(`/api/v1/brain/databases/${db.id}/records`));
  });

  it('refuses bad property definitions with VALIDATION_ERROR', async () => {
    const cases: unknown[] = [
      { properties: [{ key: 'a', name: 'A', type: 'colour' }] },
      { properties: [{ key: '1a', name: 'A', type: 'text' }] },
      { properties: [{ key: 'a', name: 'A', type: 'text' }, { key: 'a', name: 'B', type: 'text' }] },
      { properties: [{ key: 'a', name: 'A', type: 'select' }] },
      { properties: [{ key: 'a', name: 'A', type: 'text', options: ['x'] }] },
      { properties: 'title' },
      { name: '' },
      { name: 5 },
      { extra: true },
    ];
    for (const body of cases) expectValidation(await alice.post('/api/v1/brain/databases', { name: 'X', ...(body as object) }));
    expectValidation(await alice.post('/api/v1/brain/databases', [1, 2]));
    expectValidation(await alice.patch(`/api/v1/brain/databases/${(await makeDb(alice)).id}`, { properties: [{ key: 'a' }] }), 'properties');
    expectValidation(await alice.get('/api/v1/brain/databases/not-a-uuid'), 'databaseId');
    expectStatus(await alice.request('POST', '/api/v1/brain/databases', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectValidation(await alice.request('POST', '/api/v1/brain/databases', { rawBody: '{"name":' }));
  });

  it('needs the session cookie; an API key never reaches /api/v1/brain/*', async () => {
    expectStatus(await alice.withoutCookie().get('/api/v1/brain/databases'), 401, 'UNAUTHORIZED');
    expectStatus(await alice.withoutCookie().post('/api/v1/brain/databases', { name: 'X' }), 401, 'UNAUTHORIZED');
    // A real, working key (it opens the Public API) still opens no Brain route.
    const holder = await keyHolder(app);
    const bearer = { headers: { authorization: `Bearer ${holder.key}` } };
    expectStatus(await holder.client.withoutCookie().get('/api/public/v1/exercises/search?q=x', bearer), 200);
    expectStatus(await holder.client.withoutCookie().get('/api/v1/brain/databases', bearer), 401, 'UNAUTHORIZED');
    expectStatus(await holder.client.withoutCookie().post('/api/v1/brain/databases', { name: 'X' }, bearer), 401, 'UNAUTHORIZED');
    expectNotFound(await holder.client.withoutCookie().get('/api/public/v1/brain/databases', bearer));
  });

  it('refuses text PostgreSQL cannot store (a NUL, a lone surrogate) with VALIDATION_ERROR naming it, not a 500', async () => {
    const nul = await alice.post('/api/v1/brain/databases', { name: 'Books\u0000' });
    expectValidation(nul);
    expect(nul.body.error.details.errors.map((e: any) => e.path.join('.'))).toContain('name');
    expectValidation(await alice.post('/api/v1/brain/databases', { name: 'Ok', properties: [{ key: 'a', name: 'A\uD800', type: 'text' }] }));
    const db = await makeDb(alice);
    const record = await alice.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'a\u0000b' } });
    expectValidation(record);
    expect(record.body.error.details.errors.map((e: any) => e.path.join('.'))).toEqual(['values.title']);
    expect((await alice.get(`/api/v1/brain/databases/${db.id}/records`)).body.data).toEqual([]);
  });
});

describe('records', () => {
  it('creates, reads, merges and deletes records with typed values', async () => {
    const db = await makeDb(alice);
    const pdf = await upload(alice, makePdf(), 'document', 'cover.pdf', 'application/pdf');
    expectStatus(pdf, 201);
    const values = {
      title: 'Dune',
      pages: 412,
      status: 'reading',
      tags: ['sf'],
      started: '2026-11-01',
      owned: true,
      link: 'https://example.com/dune',
      author_mail: 'frank@example.com',
      cover: pdf.body.data.id,
    };
    const record = await addRecord(alice, db.id, values);
    expect(record).toMatchObject({ databaseId: db.id, values, formId: null });
    const read = await alice.get(`/api/v1/brain/databases/${db.id}/records/${record.id}`);
    expect(read.body.data).toEqual(record);
    const patched = await alice.patch(`/api/v1/brain/databases/${db.id}/records/${record.id}`, { values: { pages: 500, link: null } });
    expectStatus(patched, 200);
    expect(patched.body.data.values).toEqual({ ...values, pages: 500, link: undefined });
    expect('link' in patched.body.data.values).toBe(false);
    const del = await alice.delete(`/api/v1/brain/databases/${db.id}/records/${record.id}`);
    expect(del.body.data).toEqual({ id: record.id, deleted: true });
    expectNotFound(await alice.get(`/api/v1/brain/databases/${db.id}/records/${record.id}`));
  });

  it('refuses values that do not fit the properties', async () => {
    const db = await makeDb(alice);
    const otherFile = await upload(bob, makePdf(), 'document', 'b.pdf', 'application/pdf');
    const bad: [Record<string, unknown>, string][] = [
      [{ pages: 'many' }, 'pages'],
      [{ pages: '12' }, 'pages'],
      [{ status: 'lost' }, 'status'],
      [{ tags: ['sf', 'poetry'] }, 'tags'],
      [{ tags: 'sf' }, 'tags'],
      [{ started: '2026-13-01' }, 'started'],
      [{ owned: 'yes' }, 'owned'],
      [{ link: 'javascript:alert(1)' }, 'link'],
      [{ author_mail: 'not-an-email' }, 'author_mail'],
      [{ cover: otherFile.body.data.id }, 'cover'],
      [{ cover: MISSING_ID }, 'cover'],
      [{ cover: 'abc' }, 'cover'],
      [{ title: 5 }, 'title'],
      [{ nope: 'x' }, 'nope'],
    ];
    for (const [values, key] of bad) {
      const res = await alice.post(`/api/v1/brain/databases/${db.id}/records`, { values });
      expectValidation(res, 'values');
      expect(res.body.error.details.errors[0].path, JSON.stringify(values)).toEqual(['values', key]);
    }
    expectValidation(await alice.post(`/api/v1/brain/databases/${db.id}/records`, { values: [1] }), 'values');
    expectValidation(await alice.post(`/api/v1/brain/databases/${db.id}/records`, { values: {}, extra: 1 }), 'extra');
    const r = await addRecord(alice, db.id, { title: 'ok' });
    expectValidation(await alice.patch(`/api/v1/brain/databases/${db.id}/records/${r.id}`, { values: { pages: 'x' } }), 'values');
    expectValidation(await alice.get(`/api/v1/brain/databases/${db.id}/records/nope`), 'recordId');
  });

  it('filters and sorts by a property, with pagination meta', async () => {
    const db = await makeDb(alice);
    await addRecord(alice, db.id, { title: 'Dune', pages: 412, status: 'done', tags: ['sf'], owned: true });
    await addRecord(alice, db.id, { title: 'SPQR', pages: 608, status: 'reading', tags: ['history'] });
    await addRecord(alice, db.id, { title: 'Foundation', pages: 255, status: 'done', tags: ['sf', 'history'], owned: false });
    await addRecord(alice, db.id, { title: 'Gödel, Escher, Bach', pages: 777, tags: ['math'] });
    const base = `/api/v1/brain/databases/${db.id}/records`;
    const titles = (res: any) => res.body.data.map((r: any) => r.values.title);

    const byPages = await alice.get(`${base}?sort=pages&order=asc`);
    expectStatus(byPages, 200);
    expect(titles(byPages)).toEqual(['Foundation', 'Dune', 'SPQR', 'Gödel, Escher, Bach']);
    expect(byPages.body.meta).toEqual({ page: 1, limit: 50, total: 4 });
    expect(titles(await alice.get(`${base}?sort=pages&order=desc`))).toEqual(['Gödel, Escher, Bach', 'SPQR', 'Dune', 'Foundation']);
    // Records without the value come last, whatever the order.
    expect(titles(await alice.get(`${base}?sort=status&order=asc`)).at(-1)).toBe('Gödel, Escher, Bach');

    expect(titles(await alice.get(`${base}?filter[status]=done&sort=title`))).toEqual(['Dune', 'Foundation']);
    expect(titles(await alice.get(`${base}?filter[tags]=history&sort=title`))).toEqual(['Foundation', 'SPQR']);
    expect(titles(await alice.get(`${base}?filter[title]=esch`))).toEqual(['Gödel, Escher, Bach']);
    expect(titles(await alice.get(`${base}?filter[pages]=412`))).toEqual(['Dune']);
    expect(titles(await alice.get(`${base}?filter[owned]=true`))).toEqual(['Dune']);
    expect(titles(await alice.get(`${base}?filter[owned]=false&sort=title`))).toEqual(['Foundation', 'Gödel, Escher, Bach', 'SPQR']);
    expect(titles(await alice.get(`${base}?filter[title]=100%25`))).toEqual([]);
    // The same filter as one JSON object (the form GraphQL's `filter` argument takes).
    expect(titles(await alice.get(`${base}?filter=${encodeURIComponent(JSON.stringify({ status: 'done', tags: 'sf' }))}&sort=title`))).toEqual(['Dune', 'Foundation']);
    expectValidation(await alice.get(`${base}?filter=${encodeURIComponent('["done"]')}`), 'filter');

    const page2 = await alice.get(`${base}?sort=pages&limit=3&page=2`);
    expect(titles(page2)).toEqual(['Gödel, Escher, Bach']);
    expect(page2.body.meta).toEqual({ page: 2, limit: 3, total: 4 });
    expect((await alice.get(`${base}?page=9`)).body.meta.total).toBe(4);

    expectValidation(await alice.get(`${base}?sort=colour`), 'sort');
    expectValidation(await alice.get(`${base}?order=up`), 'order');
    expectValidation(await alice.get(`${base}?filter[colour]=red`), 'filter');
    expectValidation(await alice.get(`${base}?filter[pages]=many`), 'filter');
    expectValidation(await alice.get(`${base}?filter=x`), 'filter');
    expectValidation(await alice.get(`${base}?page=0`), 'page');
  });
});

describe('GraphQL', () => {
  it('serves the same operations on /graphql: JSON values, the filter object, Brain error codes', async () => {
    const { client } = await signUp(app.url);
    const gql = (query: string, variables: Record<string, unknown> = {}) => client.post('/graphql', { query, variables });
    const made = await gql('mutation($p: [JSONObject!]) { createBrainDatabase(name: "Via GraphQL", properties: $p) { id name properties } }', { p: PROPERTIES.slice(0, 3) });
    expect(made.body.errors, made.text).toBeUndefined();
    const db = made.body.data.createBrainDatabase;
    expect(db.properties).toEqual(PROPERTIES.slice(0, 3));
    const add = 'mutation($d: UUID!, $v: JSONObject) { createBrainRecord(databaseId: $d, values: $v) { id values formId } }';
    expect((await gql(add, { d: db.id, v: { title: 'Dune', status: 'done' } })).body.data.createBrainRecord).toMatchObject({ values: { title: 'Dune', status: 'done' }, formId: null });
    await gql(add, { d: db.id, v: { title: 'Emma', status: 'todo' } });
    const bad = expectGraphQLError(await gql(add, { d: db.id, v: { pages: 'many' } }), 'VALIDATION_ERROR');
    expect(bad.extensions.details.errors[0].path).toEqual(['values', 'pages']);
    const list = await gql('query($d: UUID!, $f: JSON) { brainRecords(databaseId: $d, filter: $f) { items { values } meta { total } } }', { d: db.id, f: { status: 'done' } });
    expect(list.body.data.brainRecords).toEqual({ items: [{ values: { title: 'Dune', status: 'done' } }], meta: { total: 1 } });

    const form = await gql('mutation($d: UUID) { createBrainForm(name: "Q", databaseId: $d, config: { fields: [{ key: "title", label: "Title", type: "text", required: true }] }) { id fields database { id } } }', { d: db.id });
    expect(form.body.data.createBrainForm.database.id).toBe(db.id);
    const submit = 'mutation($f: UUID!, $v: JSONObject) { submitBrainForm(formId: $f, values: $v) { record { values } quiz { score } thankYouMessage } }';
    const missing = expectGraphQLError(await gql(submit, { f: form.body.data.createBrainForm.id, v: {} }), 'VALIDATION');
    expect(missing.extensions.details.errors.map((e: any) => e.path.join('.'))).toEqual(['values.title']);
    const sent = await gql(submit, { f: form.body.data.createBrainForm.id, v: { title: 'Kindred' } });
    expect(sent.body.data.submitBrainForm).toMatchObject({ record: { values: { title: 'Kindred' } }, quiz: null });
    expectGraphQLError(await bob.post('/graphql', { query: 'query($d: UUID!) { brainDatabase(databaseId: $d) { id } }', variables: { d: db.id } }), 'NOT_FOUND');
  });
});

describe('read cost', () => {
  it('lists records, filtered and sorted, in a fixed number of statements whatever their count', async () => {
    const { client } = await signUp(app.url);
    const count = async (records: number): Promise<number> => {
      const db = await makeDb(client, { name: `Cost ${records}` });
      for (let i = 0; i < records; i++) await addRecord(client, db.id, { title: `t${i}`, pages: i, status: 'done', tags: ['sf'] });
      const recorder = recordStatements();
      const res = await client.get(`/api/v1/brain/databases/${db.id}/records?filter[status]=done&filter[tags]=sf&sort=pages`).finally(() => recorder.stop());
      expect(res.body.data).toHaveLength(records);
      return recorder.statements.length;
    };
    const one = await count(1);
    // The session check, the database, the page with its total.
    expect(one).toBeLessThanOrEqual(4);
    expect(await count(8)).toBe(one);
  });
});

describe('isolation', () => {
  it("another user's database and record answer 404 exactly like missing ones", async () => {
    const db = await makeDb(alice);
    const record = await addRecord(alice, db.id, { title: 'Mine' });
    const missing = await bob.get(`/api/v1/brain/databases/${MISSING_ID}`);
    expectNotFound(missing);
    for (const res of [
      await bob.get(`/api/v1/brain/databases/${db.id}`),
      await bob.patch(`/api/v1/brain/databases/${db.id}`, { name: 'Stolen' }),
      await bob.delete(`/api/v1/brain/databases/${db.id}`),
      await bob.get(`/api/v1/brain/databases/${db.id}/records`),
      await bob.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'x' } }),
      await bob.get(`/api/v1/brain/databases/${db.id}/records/${record.id}`),
      await bob.patch(`/api/v1/brain/databases/${db.id}/records/${record.id}`, { values: { title: 'x' } }),
      await bob.delete(`/api/v1/brain/databases/${db.id}/records/${record.id}`),
    ]) {
      expectNotFound(res);
      expect(res.body.error.message).toBe(res.body.error.details.resource === 'Record' ? 'Record not found' : missing.body.error.message);
    }
    // A record of one database is not reachable under another of the same user.
    const other = await makeDb(alice, { name: 'Other' });
    expectNotFound(await alice.get(`/api/v1/brain/databases/${other.id}/records/${record.id}`));
    expect((await bob.get('/api/v1/brain/databases')).body.data.map((d: any) => d.id)).not.toContain(db.id);
    expect((await alice.get(`/api/v1/brain/databases/${db.id}/records/${record.id}`)).body.data.values.title).toBe('Mine');
  });
});

describe('brainDataCounts', () => {
  it('counts databases, records and forms per user in one statement', async () => {
    const { client, id } = await signUp(app.url);
    const a = await makeDb(client, { name: 'A' });
    const b = await makeDb(client, { name: 'B' });
    await addRecord(client, a.id, { title: '1' });
    await addRecord(client, a.id, { title: '2' });
    expectStatus(await client.post('/api/v1/brain/forms', { name: 'F', databaseId: b.id }), 201);
    const counts = await brainDataCounts(app.server.orm.em.fork(), id);
    expect(counts).toEqual({
      databases: 2,
      records: 2,
      forms: 1,
      recordsPerDatabase: [
        { databaseId: b.id, name: 'B', records: 0 },
        { databaseId: a.id, name: 'A', records: 2 },
      ],
    });
    expect(await brainDataCounts(app.server.orm.em.fork(), aliceId)).toMatchObject({ forms: 0 });
  });
});
