import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { blobsOnDisk, makeImage, upload } from './files.test-helpers.js';
import { expectNotFound } from '../../test/support/expectations.js';
import { MISSING_ID } from '../../test/support/fixtures.js';

/** A user reaches only their own files: another user's id answers 404 exactly like a missing one. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let aliceFile: any;

beforeAll(async () => {
  app = await startTestApp({ IMAGE_PROCESSING_MODE: 'lazy' });
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  aliceFile = (await upload(alice, await makeImage('jpeg', 400, 300), 'image', 'alice.jpg')).body.data;
  await upload(bob, await makeImage('png', 40, 30), 'image', 'bob.png', 'image/png');
});
afterAll(async () => {
  await app?.close();
});

async function aliceFileIntact() {
  const res = await alice.get(`/api/v1/files/${aliceFile.id}`);
  expect(res.status).toBe(200);
  expect((await blobsOnDisk(app)).filter((p) => p.includes(aliceFile.id))).toEqual([`${aliceFile.userId}/${aliceFile.id}/original`]);
}

describe('REST', () => {
  it('answers 404 for another user\'s file on every route, as for a missing one', async () => {
    for (const id of [aliceFile.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/files/${id}`));
      expectNotFound(await bob.get(`/api/v1/files/${id}/url`));
      expectNotFound(await bob.get(`/api/v1/files/${id}/url?variant=thumbnail`));
      expectNotFound(await bob.get(`/api/v1/files/${id}/download`));
      expectNotFound(await bob.delete(`/api/v1/files/${id}`));
    }
    // The refused variant request made nothing.
    await aliceFileIntact();
    const list = await bob.get('/api/v1/files');
    expect(list.body.data.map((f: any) => f.fileName)).toEqual(['bob.png']);
  });
});

describe('GraphQL', () => {
  it('answers NOT_FOUND for another user\'s file in file, fileUrl and deleteFile', async () => {
    const q = await bob.graphql(`query($id: UUID!) { file(fileId: $id) { id } }`, { id: aliceFile.id });
    expect(q.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const u = await bob.graphql(`query($id: UUID!) { fileUrl(fileId: $id, variant: small) { url } }`, { id: aliceFile.id });
    expect(u.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const d = await bob.graphql(`mutation($id: UUID!) { deleteFile(fileId: $id) { id } }`, { id: aliceFile.id });
    expect(d.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const list = await bob.graphql(`{ files { items { fileName } meta { total } } }`);
    expect(list.body.data.files).toEqual({ items: [{ fileName: 'bob.png' }], meta: { total: 1 } });
    const own = await alice.graphql(`query($id: UUID!) { file(fileId: $id) { fileName url variants { variant } } }`, { id: aliceFile.id });
    expect(own.body.data.file).toMatchObject({ fileName: 'alice.jpg', variants: [{ variant: 'original' }] });
    await aliceFileIntact();
  });
});
