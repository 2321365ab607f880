import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { blobsOnDisk, dbRows, expectRule, expectValidation, makeImage, makePdf, postMultipart, upload, waitForVariants } from '../files/files.test-helpers.js';

/** Progress photos: multipart POST with the image, GET filtered by day or date range; own files and days only. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let bobId: string;
let aliceDay: { id: string; date: string };
let bobDay: { id: string };

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
  aliceDay = (await alice.get('/api/v1/days/today')).body.data;
  bobDay = (await bob.get('/api/v1/days/today')).body.data;
});

const photo = async (client: HttpClient, fields: Record<string, string>, data?: Buffer) =>
  postMultipart(client, '/api/v1/body-composition/photos', { ...fields, file: { data: data ?? (await makeImage('jpeg', 600, 900)), fileName: 'me.jpg', contentType: 'image/jpeg' } });

async function nothingStoredFor(userId: string) {
  expect(await dbRows(app, 'select id from files where user_id = ?', [userId])).toEqual([]);
  expect(await dbRows(app, 'select id from progress_photos where user_id = ?', [userId])).toEqual([]);
  expect((await blobsOnDisk(app)).filter((p) => p.startsWith(userId) || p.startsWith('.staging'))).toEqual([]);
}

describe('progress photos', () => {
  it('creates a photo from a multipart upload (201) with its image file, and lists it by day and range', async () => {
    const res = await photo(alice, { dayId: aliceDay.id, pose: 'front', notes: 'week 1' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ dayId: aliceDay.id, pose: 'front', notes: 'week 1', file: { fileType: 'image', mimeType: 'image/jpeg', fileName: 'me.jpg' } });
    expect(res.body.data.fileId).toBe(res.body.data.file.id);
    await waitForVariants(alice, res.body.data.fileId);
    await photo(alice, { dayId: aliceDay.id, pose: 'side' });

    const byDay = await alice.get(`/api/v1/body-composition/photos?dayId=${aliceDay.id}`);
    expect(byDay.status).toBe(200);
    expect(byDay.body.data.map((p: any) => p.pose)).toEqual(['front', 'side']);
    expect(byDay.body.meta.total).toBe(2);
    const inRange = await alice.get(`/api/v1/body-composition/photos?startDate=${aliceDay.date}&endDate=${aliceDay.date}`);
    expect(inRange.body.meta.total).toBe(2);
    expect((await alice.get('/api/v1/body-composition/photos?startDate=2000-01-01&endDate=2000-01-02')).body.meta.total).toBe(0);

    const gql = await alice.graphql(`{ progressPhotos { items { pose notes file { mimeType variants { variant width height } } } } }`);
    expect(gql.body.data.progressPhotos.items[0]).toMatchObject({ pose: 'front', notes: 'week 1', file: { mimeType: 'image/jpeg' } });
    expect(gql.body.data.progressPhotos.items[0].file.variants).toContainEqual({ variant: 'thumbnail', width: 150, height: 150 });
  });

  it('refuses a bad pose, a missing day, a document, and leaves nothing behind', async () => {
    const { client: dave, id: daveId } = await signUp(app.url);
    const day = (await dave.get('/api/v1/days/today')).body.data;
    expectValidation(await photo(dave, { dayId: day.id, pose: 'upside-down' }));
    expectValidation(await photo(dave, { pose: 'front' }));
    expectRule(await photo(dave, { dayId: day.id, pose: 'back' }, makePdf()), 'file_type');
    expectValidation(await postMultipart(dave, '/api/v1/body-composition/photos', { dayId: day.id, pose: 'back' }));
    await nothingStoredFor(daveId);
  });

  it('another user\'s day or file answers 404 naming the field; their photos stay invisible', async () => {
    const res = await photo(bob, { dayId: aliceDay.id, pose: 'front' });
    expect(res.status).toBe(404);
    expect(res.body.error.details.field).toBe('dayId');
    await nothingStoredFor(bobId);
    expect((await bob.get(`/api/v1/body-composition/photos?dayId=${aliceDay.id}`)).status).toBe(404);
    expect((await bob.get('/api/v1/body-composition/photos')).body.meta.total).toBe(0);

    // GraphQL: a photo from an uploaded file accepts only the caller's own image file.
    const aliceFile = (await upload(alice, await makeImage('png', 50, 50), 'image', 'a.png', 'image/png')).body.data;
    const stolen = await bob.graphql(`mutation($d: UUID!, $f: UUID!) { createProgressPhoto(dayId: $d, fileId: $f, pose: back) { id } }`, { d: bobDay.id, f: aliceFile.id });
    expect(stolen.body.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'fileId' } });
    const bobPdf = (await upload(bob, makePdf(), 'document', 'b.pdf', 'application/pdf')).body.data;
    const doc = await bob.graphql(`mutation($d: UUID!, $f: UUID!) { createProgressPhoto(dayId: $d, fileId: $f, pose: back) { id } }`, { d: bobDay.id, f: bobPdf.id });
    expect(doc.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    const bobImage = (await upload(bob, await makeImage('png', 50, 50), 'image', 'b.png', 'image/png')).body.data;
    const ok = await bob.graphql(`mutation($d: UUID!, $f: UUID!) { createProgressPhoto(dayId: $d, fileId: $f, pose: back, notes: "n") { pose fileId } }`, { d: bobDay.id, f: bobImage.id });
    expect(ok.body.data.createProgressPhoto).toEqual({ pose: 'back', fileId: bobImage.id });
    // Deleting the file deletes the photo that shows it.
    await bob.delete(`/api/v1/files/${bobImage.id}`);
    expect((await bob.get('/api/v1/body-composition/photos')).body.meta.total).toBe(0);
  });
});
