import { buffer } from 'node:stream/consumers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { unzip } from '../../../test/support/zip.js';
import { expectStatus } from '../../../test/support/expectations.js';
import { databaseExportPart } from './database-export-part.js';
import { DATABASE_SEARCH_SOURCE, RECORD_SEARCH_SOURCE } from './search-sources.js';
import { formExportPart } from '../forms/form-export-part.js';
import { FORM_SEARCH_SOURCE } from '../forms/search-source.js';
import type { BrainExportPart } from '../export/brain-export-part.js';
import type { BrainSearchSource } from '../search/search-source.js';

/** The cross-module contracts of databases and forms: export parts (zip files) and search sources. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let bobId: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
});

/** Writes the parts into a yazl zip and reads it back with yauzl: file name → text. */
async function zipOf(parts: BrainExportPart[], userId: string): Promise<Map<string, string>> {
  const zip = new ZipFile();
  const em = app.server.orm.em.fork();
  for (const part of parts) await part.write(zip, em, userId);
  zip.end();
  const bytes = await buffer(zip.outputStream);
  return new Map([...(await unzip(bytes))].map(([name, content]) => [name, content.toString('utf8')]));
}

describe('export parts', () => {
  it('writes one JSON file per database with its records and one per form, without the password hash', async () => {
    const db = await alice.post('/api/v1/brain/databases', { name: 'Reading list: 2026 édition!', properties: [{ key: 'title', name: 'Title', type: 'text' }] });
    expectStatus(db, 201);
    const r1 = await alice.post(`/api/v1/brain/databases/${db.body.data.id}/records`, { values: { title: 'Dune' } });
    const r2 = await alice.post(`/api/v1/brain/databases/${db.body.data.id}/records`, { values: { title: 'Emma' } });
    const form = await alice.post('/api/v1/brain/forms', { name: 'Join us', createDatabase: { name: '???' }, config: { fields: [{ key: 'name', label: 'Name', type: 'text' }], accessPassword: 'hunter2' } });
    expectStatus(form, 201);
    await bob.post('/api/v1/brain/databases', { name: 'Bob only' });

    const files = await zipOf([databaseExportPart, formExportPart], aliceId);
    const dbFile = `databases/reading-list-2026-edition-${db.body.data.id.slice(0, 8)}.json`;
    const emptyDbFile = `databases/database-${form.body.data.databaseId.slice(0, 8)}.json`;
    const formFile = `forms/join-us-${form.body.data.id.slice(0, 8)}.json`;
    expect([...files.keys()].sort()).toEqual([dbFile, emptyDbFile, formFile].sort());
    const exported = JSON.parse(files.get(dbFile)!);
    expect(exported).toMatchObject({ id: db.body.data.id, name: 'Reading list: 2026 édition!', properties: [{ key: 'title', name: 'Title', type: 'text' }] });
    expect(exported.records.map((r: any) => r.id)).toEqual([r1.body.data.id, r2.body.data.id]);
    expect(exported.records[0].values).toEqual({ title: 'Dune' });
    expect(JSON.parse(files.get(emptyDbFile)!).records).toEqual([]);
    const exportedForm = JSON.parse(files.get(formFile)!);
    expect(exportedForm).toMatchObject({ id: form.body.data.id, name: 'Join us', hasAccessPassword: true, config: { fields: [{ key: 'name' }] } });
    expect(files.get(formFile)).not.toMatch(/argon2|hunter2|accessPasswordHash/);

    const bobFiles = await zipOf([databaseExportPart, formExportPart], bobId);
    expect([...bobFiles.keys()]).toEqual([expect.stringMatching(/^databases\/bob-only-[0-9a-f]{8}\.json$/)]);
  });
});

describe('search sources', () => {
  /** Runs a source the way a search does: owner, tsquery, rank; title and text must be valid SQL over `e`. */
  async function search(source: BrainSearchSource, userId: string, q: string) {
    return app.server.orm.em.getConnection().execute<{ id: string; title: string; text: string; rank: number }[]>(
      `select e.id, ${source.titleSql} as title, ${source.textSql} as text, ts_rank(e.search_vector, q) as rank
         from ${source.table} e, plainto_tsquery('simple', ?) q
        where e.${source.ownerColumn} = ? and e.search_vector @@ q order by rank desc`,
      [q, userId],
    );
  }

  it('keeps search_vector up to date in the database, per owner, weighting titles above bodies', async () => {
    const db = await alice.post('/api/v1/brain/databases', { name: 'Quokka sightings', properties: [{ key: 'place', name: 'Quokka place', type: 'text' }, { key: 'count', name: 'Count', type: 'number' }] });
    const other = await alice.post('/api/v1/brain/databases', { name: 'Misc', properties: [{ key: 'n', name: 'Quokka notes', type: 'text' }] });
    const rec = await alice.post(`/api/v1/brain/databases/${db.body.data.id}/records`, { values: { place: 'Rottnest island', count: 31337 } });
    const form = await alice.post('/api/v1/brain/forms', { name: 'Wombat survey', createDatabase: { name: 'W' }, config: { description: 'About marsupials', fields: [{ key: 'seen', label: 'Seen a numbat?', type: 'checkbox' }] } });

    const dbs = await search(DATABASE_SEARCH_SOURCE, aliceId, 'quokka');
    expect(dbs.map((r) => r.id)).toEqual([db.body.data.id, other.body.data.id]);
    expect(dbs[0].title).toBe('Quokka sightings');
    expect(dbs[0].text).toBe('Quokka place Count');
    expect(await search(DATABASE_SEARCH_SOURCE, bobId, 'quokka')).toEqual([]);

    const records = await search(RECORD_SEARCH_SOURCE, aliceId, 'rottnest');
    expect(records.map((r) => r.id)).toEqual([rec.body.data.id]);
    expect(records[0].title).toBe('Rottnest island');
    expect(records[0].text).toContain('Rottnest island');
    expect((await search(RECORD_SEARCH_SOURCE, aliceId, '31337')).map((r) => r.id)).toEqual([rec.body.data.id]);
    // An update is searchable at once (a generated column), the old words are gone.
    await alice.patch(`/api/v1/brain/databases/${db.body.data.id}/records/${rec.body.data.id}`, { values: { place: 'Perth zoo' } });
    expect(await search(RECORD_SEARCH_SOURCE, aliceId, 'rottnest')).toEqual([]);
    expect((await search(RECORD_SEARCH_SOURCE, aliceId, 'perth')).map((r) => r.id)).toEqual([rec.body.data.id]);

    expect((await search(FORM_SEARCH_SOURCE, aliceId, 'numbat')).map((r) => r.id)).toEqual([form.body.data.id]);
    expect((await search(FORM_SEARCH_SOURCE, aliceId, 'marsupials'))[0]).toMatchObject({ title: 'Wombat survey', text: 'About marsupials Seen a numbat?' });
  });

  it('does not index the respondent fingerprint of form answers', async () => {
    const form = await alice.post('/api/v1/brain/forms', { name: 'Fp', createDatabase: { name: 'Fp' }, config: { fields: [{ key: 'word', label: 'Word', type: 'text' }] } });
    const slug = (await alice.post(`/api/v1/brain/forms/${form.body.data.id}/publish`, { published: true })).body.data.publicSlug;
    const res = await fetch(`${app.url}/api/v1/brain/public/forms/${slug}/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ values: { word: 'kangaroo' }, respondentKey: 'zebrafingerprint' }) });
    expect(res.status).toBe(201);
    expect((await search(RECORD_SEARCH_SOURCE, aliceId, 'kangaroo')).length).toBe(1);
    expect(await search(RECORD_SEARCH_SOURCE, aliceId, 'zebrafingerprint')).toEqual([]);
  });
});
