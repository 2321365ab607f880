import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { blobsOnDisk, dbRows, fetchHandedOut, makeImage, upload, waitForVariants } from './files.test-helpers.js';
import { GENERATE_VARIANTS_JOB } from './files-runtime.js';
import sharp from 'sharp';

/** IMAGE_PROCESSING_MODE=lazy: no job; a variant is made by its first request, once. */
let app: TestApp;
let alice: HttpClient;

beforeAll(async () => {
  app = await startTestApp({ IMAGE_PROCESSING_MODE: 'lazy' });
  ({ client: alice } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

const variantRows = (fileId: string) =>
  dbRows(app, 'select variant, status, width, height, size, created_at from image_variants where file_id = ? order by variant', [fileId]);

describe('lazy variants', () => {
  it('makes nothing after the upload, then each variant on its first request with the right size', async () => {
    const up = await upload(alice, await makeImage('jpeg', 1000, 2000), 'image', 'tall.jpg');
    const id = up.body.data.id;
    await new Promise((r) => setTimeout(r, 1500)); // an eager job would have run by now
    expect((await variantRows(id)).map((r) => r.variant)).toEqual(['original']);
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id))).toHaveLength(1);

    const expected: Record<string, [number, number]> = { thumbnail: [150, 150], small: [200, 400], medium: [400, 800], large: [600, 1200] };
    for (const [variant, [w, h]] of Object.entries(expected)) {
      const res = await alice.get(`/api/v1/files/${id}/url?variant=${variant}`);
      expect(res.status, res.text).toBe(200);
      expect([res.body.data.width, res.body.data.height]).toEqual([w, h]);
      const bytes = Buffer.from(await (await fetchHandedOut(app, res.body.data.url)).arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height]).toEqual([w, h]);
    }
    expect((await variantRows(id)).map((r) => [r.variant, r.status, r.width, r.height])).toEqual([
      ['large', 'ready', 600, 1200],
      ['medium', 'ready', 400, 800],
      ['original', 'ready', 1000, 2000],
      ['small', 'ready', 200, 400],
      ['thumbnail', 'ready', 150, 150],
    ]);
  });

  it('makes a variant exactly once when many requests race for it (REST and GraphQL together)', async () => {
    const up = await upload(alice, await makeImage('jpeg', 2400, 1800), 'image', 'race.jpg');
    const id = up.body.data.id;
    const rest = Array.from({ length: 6 }, () => alice.get(`/api/v1/files/${id}/url?variant=large`));
    const gql = Array.from({ length: 6 }, () =>
      alice.graphql(`query($id: UUID!) { fileUrl(fileId: $id, variant: large) { url width height } }`, { id }),
    );
    const [restResults, gqlResults] = await Promise.all([Promise.all(rest), Promise.all(gql)]);
    for (const r of restResults) {
      expect(r.status, r.text).toBe(200);
      expect([r.body.data.width, r.body.data.height]).toEqual([1200, 900]);
    }
    for (const r of gqlResults) {
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      expect([r.body.data.fileUrl.width, r.body.data.fileUrl.height]).toEqual([1200, 900]);
    }
    const rows = (await variantRows(id)).filter((r) => r.variant === 'large');
    expect(rows).toHaveLength(1);
    // Everyone got the same blob (one made, never overwritten by a second maker).
    const sizes = new Set<number>();
    for (const r of restResults) sizes.add((await (await fetchHandedOut(app, r.body.data.url)).arrayBuffer()).byteLength);
    expect([...sizes]).toEqual([rows[0].size]);
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id)).sort()).toEqual([`${up.body.data.userId}/${id}/large`, `${up.body.data.userId}/${id}/original`]);
  });

  it('the variants job alone (the eager backstop, on any instance) makes every variant', async () => {
    const up = await upload(alice, await makeImage('jpeg', 1200, 800), 'image', 'backstop.jpg');
    const id = up.body.data.id;
    await app.server.deps.jobs.agenda.now(GENERATE_VARIANTS_JOB, { fileId: id });
    const variants = await waitForVariants(alice, id);
    expect(variants.map((v: any) => [v.variant, v.status, v.width, v.height])).toEqual([
      ['original', 'ready', 1200, 800],
      ['thumbnail', 'ready', 150, 150],
      ['small', 'ready', 400, 267],
      ['medium', 'ready', 800, 533],
      ['large', 'ready', 1200, 800],
    ]);
  });

  it('a variant request racing a delete leaves no blob behind', async () => {
    const up = await upload(alice, await makeImage('png', 1500, 1500), 'image', 'x.png', 'image/png');
    const id = up.body.data.id;
    const [made, del] = await Promise.all([alice.get(`/api/v1/files/${id}/url?variant=medium`), alice.delete(`/api/v1/files/${id}`)]);
    expect(del.status).toBe(200);
    expect([200, 404]).toContain(made.status);
    // The delete moved it to the trash; emptied, every blob under the file goes, a variant made in the race too.
    expect((await alice.delete('/api/v1/trash')).status).toBe(200);
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id))).toEqual([]);
    expect(await dbRows(app, 'select id from image_variants where file_id = ?', [id])).toEqual([]);
  });
});
