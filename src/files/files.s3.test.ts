import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { startTestS3, type TestS3 } from '../../test/support/s3-server.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { blobsOnDisk, expectRule, makeImage, makePdf, upload, waitForVariants } from './files.test-helpers.js';

/** FILE_STORAGE_ADAPTER=s3 against a real S3-compatible server (s3rver) on loopback, path-style. */
let s3: TestS3;
let app: TestApp;
let alice: HttpClient;
let aliceId: string;

beforeAll(async () => {
  s3 = await startTestS3('life-planner-test');
  app = await startTestApp({ ...s3.env, MAX_FILE_SIZE: '1000000' });
  ({ client: alice, id: aliceId } = await signUp(app.url));
}, 60_000);
afterAll(async () => {
  await app?.close();
  await s3?.close();
});

const objectKeys = (prefix = '') => s3.keys(prefix);

describe('s3 storage', () => {
  it('stores the upload and its eager variants as objects; presigned URLs load directly from the bucket', async () => {
    const jpeg = await makeImage('jpeg', 1000, 800, { exifOrientation: 8, gps: true });
    const up = await upload(alice, jpeg, 'image', 'on-s3.jpg');
    expect(up.status, up.text).toBe(201);
    const id = up.body.data.id;
    expect(up.body.data.storageAdapter).toBe('s3');
    const variants = await waitForVariants(alice, id);
    expect(Object.fromEntries(variants.map((v: any) => [v.variant, [v.width, v.height]]))).toEqual({
      original: [800, 1000],
      thumbnail: [150, 150],
      small: [320, 400],
      medium: [640, 800],
      large: [800, 1000],
    });
    expect(await objectKeys(`${aliceId}/${id}/`)).toEqual(['large', 'medium', 'original', 'small', 'thumbnail'].map((v) => `${aliceId}/${id}/${v}`));
    // Nothing went to the local disk but the (emptied) staging folder.
    expect(await blobsOnDisk(app)).toEqual([]);

    // The URL points at the S3 server itself, signed for a limited time.
    const original = await fetch(up.body.data.url);
    expect(up.body.data.url).toContain('X-Amz-Signature=');
    expect(up.body.data.url).toContain('X-Amz-Expires=900');
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(jpeg)).toBe(true);
    const small = await alice.get(`/api/v1/files/${id}/url?variant=small`);
    const res = await fetch(small.body.data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([320, 400, undefined]);

    // The service's own download streams from S3 too.
    const dl = await fetch(`${app.url}/api/v1/files/${id}/download`, { headers: { cookie: alice.cookie! } });
    expect(dl.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await dl.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('deletes every object of the file from the bucket', async () => {
    const up = await upload(alice, await makeImage('webp', 600, 600), 'image', 'bye.webp', 'image/webp');
    const id = up.body.data.id;
    await waitForVariants(alice, id);
    expect(await objectKeys(`${aliceId}/${id}/`)).toHaveLength(5);
    const pdf = await upload(alice, makePdf(), 'document', 'doc.pdf', 'application/pdf');
    expect((await alice.delete(`/api/v1/files/${id}`)).status).toBe(200);
    expect((await alice.delete(`/api/v1/files/${pdf.body.data.id}`)).status).toBe(200);
    // In the trash the objects stay (a restore finds them); emptying it deletes them.
    expect(await objectKeys(`${aliceId}/${id}/`)).toHaveLength(5);
    expect((await alice.delete('/api/v1/trash')).body.data).toEqual({ deleted: 2 });
    expect(await objectKeys(`${aliceId}/${id}/`)).toEqual([]);
    expect(await objectKeys(`${aliceId}/${pdf.body.data.id}/`)).toEqual([]);
  });

  it('a refused upload leaves no object and no row', async () => {
    const before = await objectKeys();
    expectRule(await upload(alice, Buffer.from('not an image'.repeat(100)), 'image', 'x.png', 'image/png'), 'file_type');
    expectRule(await upload(alice, Buffer.concat([await makeImage('jpeg', 10, 10), Buffer.alloc(1_100_000)]), 'image'), 'file_size');
    expect(await objectKeys()).toEqual(before);
    expect(await blobsOnDisk(app)).toEqual([]);
  });
});
