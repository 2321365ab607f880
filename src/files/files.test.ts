import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import {
  blobsOnDisk,
  dbRows,
  expectRule, expectValidation,
  fetchHandedOut,
  makeImage,
  makePdf,
  postMultipart,
  postRawMultipart,
  until,
  upload,
  waitForVariants,
} from './files.test-helpers.js';
import { GENERATE_VARIANTS_JOB } from './files-runtime.js';
import { BACKSTOP_DELAY_MS } from './variant-worker.js';

/** Disk storage, eager variants, a 2 MB MAX_FILE_SIZE so that oversize uploads stay quick. */
const MAX = 2_000_000;
let app: TestApp;
let alice: HttpClient;
let aliceId: string;

beforeAll(async () => {
  app = await startTestApp({ MAX_FILE_SIZE: String(MAX) });
  ({ client: alice, id: aliceId } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

async function fileCount(userId: string): Promise<number> {
  const [row] = await dbRows(app, 'select count(*)::int as n from files where user_id = ?', [userId]);
  return row.n;
}

describe('upload', () => {
  it('stores a JPEG, PNG, WebP and PDF and answers 201 with the documented fields; the type comes from the bytes', async () => {
    const cases = [
      { data: await makeImage('jpeg', 64, 48), fileType: 'image', mime: 'image/jpeg' },
      // Declared as a JPEG named .jpg: the bytes are a PNG, and that is what counts.
      { data: await makeImage('png', 64, 48), fileType: 'image', mime: 'image/png' },
      { data: await makeImage('webp', 64, 48), fileType: 'image', mime: 'image/webp' },
      { data: makePdf(), fileType: 'document', mime: 'application/pdf' },
    ];
    for (const c of cases) {
      const res = await upload(alice, c.data, c.fileType, 'any-name.jpg', 'image/jpeg');
      expect(res.status, res.text).toBe(201);
      expect(res.body.ok).toBe(true);
      const data = res.body.data;
      expect(data).toMatchObject({ fileName: 'any-name.jpg', fileType: c.fileType, mimeType: c.mime, size: c.data.length, isImage: c.fileType === 'image' });
      expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(data.url).toMatch(/^http:\/\/localhost:\d+\/api\/v1\/files\/[0-9a-f-]{36}\/content\?/);
      expect(data.storageKey).toBe(`${aliceId}/${data.id}/original`);
      const fetched = await fetchHandedOut(app, data.url);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(c.data)).toBe(true);
    }
  });

  it('keeps unsafe file names as metadata only: path separators, control characters, 300 characters', async () => {
    const pdf = makePdf();
    const evil = await postRawMultipart(alice, '/api/v1/files/upload', [
      { name: 'fileType', data: 'document' },
      { name: 'file', fileNameStar: '..\\..\\windows/../evil\x01\x1bname\r\n;".pdf', contentType: 'application/pdf', data: pdf },
    ]);
    expect(evil.status, evil.text).toBe(201);
    expect(evil.body.data.fileName).toBe('evilname;".pdf');
    expect(evil.body.data.storageKey).toBe(`${aliceId}/${evil.body.data.id}/original`);

    const long = `${'a'.repeat(296)}.pdf`;
    const longRes = await upload(alice, pdf, 'document', long, 'application/pdf');
    expect(longRes.status).toBe(201);
    expect(longRes.body.data.fileName).toBe(`${'a'.repeat(251)}.pdf`);

    const bidi = await upload(alice, pdf, 'document', 'scan\u061C\u2066\u200Bfdp.exe.pdf', 'application/pdf');
    expect(bidi.body.data.fileName).toBe('scanfdp.exe.pdf');

    const unicode = await upload(alice, pdf, 'document', 'résumé 📄.pdf', 'application/pdf');
    expect(unicode.body.data.fileName).toBe('résumé 📄.pdf');

    // The download header is safe for every one of them.
    const dl = await alice.get(`/api/v1/files/${evil.body.data.id}/download`);
    expect(dl.headers.get('content-disposition')).toBe(`attachment; filename="evilname__.pdf"; filename*=UTF-8''evilname%3B%22.pdf`);
    const dlUnicode = await alice.get(`/api/v1/files/${unicode.body.data.id}/download`);
    expect(dlUnicode.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%F0%9F%93%84.pdf`);
    // Blobs live under identifier-only keys.
    for (const path of await blobsOnDisk(app)) expect(path).toMatch(/^[0-9a-f-]{36}\/[0-9a-f-]{36}\/(original|thumbnail|small|medium|large)$/);
  });

  it('downloads the exact bytes with Content-Type, Content-Length and a Content-Disposition', async () => {
    const jpeg = await makeImage('jpeg', 120, 80, { exifOrientation: 6, gps: true });
    const up = await upload(alice, jpeg, 'image', 'holiday.jpeg');
    const res = await fetch(`${app.url}/api/v1/files/${up.body.data.id}/download`, { headers: { cookie: alice.cookie! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe(String(jpeg.length));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="holiday.jpeg"; filename*=UTF-8''holiday.jpeg`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(jpeg)).toBe(true); // the original keeps its EXIF (unmodified)
    expect((await sharp(body).metadata()).orientation).toBe(6);
    const head = await fetch(`${app.url}/api/v1/files/${up.body.data.id}/download`, { method: 'HEAD', headers: { cookie: alice.cookie! } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(jpeg.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // Without the session cookie: 401.
    const anonymous = await alice.withoutCookie().get(`/api/v1/files/${up.body.data.id}/download`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('refusals leave nothing behind', () => {
  let bob: HttpClient;
  let bobId: string;
  beforeAll(async () => {
    ({ client: bob, id: bobId } = await signUp(app.url));
  });

  async function expectNothingStored() {
    expect(await fileCount(bobId)).toBe(0);
    const blobs = (await blobsOnDisk(app)).filter((p) => p.startsWith(bobId) || p.startsWith('.staging'));
    expect(blobs).toEqual([]);
  }

  it('refuses an oversize file (400 VALIDATION_ERROR, rule file_size) and deletes the partial blob', async () => {
    const big = Buffer.concat([await makeImage('jpeg', 32, 32), randomBytes(MAX + 500_000)]);
    const res = await upload(bob, big, 'image', 'big.jpg');
    expectRule(res, 'file_size');
    expect(res.body.error.details.maxBytes).toBe(MAX);
    expect(res.body.error.details.errors[0].path).toEqual(['file']);
    await expectNothingStored();
  });

  it('accepts a file of exactly MAX_FILE_SIZE bytes', async () => {
    const exact = Buffer.concat([await makeImage('jpeg', 32, 32)]);
    const padded = Buffer.concat([exact, Buffer.alloc(MAX - exact.length)]);
    const res = await upload(bob, padded, 'image', 'exact.jpg');
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.size).toBe(MAX);
    expect((await bob.delete(`/api/v1/files/${res.body.data.id}`)).status).toBe(200);
    // The delete moves it to the trash (docs/trash.md); its bytes go when the trash is emptied.
    expect((await bob.delete('/api/v1/trash')).body.data).toEqual({ deleted: 1 });
    await expectNothingStored();
  });

  it('refuses bytes of no known type declared as a JPEG', async () => {
    const res = await upload(bob, randomBytes(5000), 'image', 'photo.jpg', 'image/jpeg');
    expectRule(res, 'file_type');
    expect(res.body.error.message).toMatch(/not of a recognised type/);
    await expectNothingStored();
  });

  it('refuses a .png that is not a PNG (a text file)', async () => {
    const res = await upload(bob, Buffer.from('just some text, not an image at all\n'.repeat(20)), 'image', 'fake.png', 'image/png');
    expectRule(res, 'file_type');
    await expectNothingStored();
  });

  it('refuses a real image of a type outside the allowed lists (GIF)', async () => {
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0a0' } }).gif().toBuffer();
    const res = await upload(bob, gif, 'image', 'anim.gif', 'image/gif');
    expectRule(res, 'file_type');
    expect(res.body.error.message).toMatch(/image\/gif are not allowed/);
    await expectNothingStored();
  });

  it('refuses a fileType that does not match the bytes, both ways', async () => {
    const asImage = await upload(bob, makePdf(), 'image', 'doc.pdf', 'application/pdf');
    expectRule(asImage, 'file_type');
    expect(asImage.body.error.details.errors[0].path).toEqual(['fileType']);
    const asDocument = await upload(bob, await makeImage('png', 10, 10), 'document', 'pic.png', 'image/png');
    expectRule(asDocument, 'file_type');
    await expectNothingStored();
  });

  it('refuses a missing or unknown fileType, a missing file, two files and a body that is not multipart', async () => {
    const png = await makeImage('png', 10, 10);
    expectValidation(await postMultipart(bob, '/api/v1/files/upload', { file: { data: png, fileName: 'a.png' } }));
    expectValidation(await upload(bob, png, 'video', 'a.png'));
    expectValidation(await postMultipart(bob, '/api/v1/files/upload', { fileType: 'image' }));
    const two = await postRawMultipart(bob, '/api/v1/files/upload', [
      { name: 'fileType', data: 'image' },
      { name: 'file', fileName: 'a.png', data: png },
      { name: 'file', fileName: 'b.png', data: png },
    ]);
    expectValidation(two);
    expectValidation(await bob.post('/api/v1/files/upload', { fileType: 'image' }));
    await expectNothingStored();
  });

  it('answers 401 without a session and 405 for another method', async () => {
    const res = await upload(bob.withoutCookie(), await makeImage('png', 10, 10), 'image');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    const get = await bob.get('/api/v1/files/upload');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await expectNothingStored();
  });
});

describe('variants (eager)', () => {
  it('makes thumbnail (cover 150x150) and small/medium/large (inside, never enlarged), EXIF-rotated, GPS stripped', async () => {
    // 1600x1200 stored with EXIF orientation 6: displayed 1200 wide, 1600 high.
    const jpeg = await makeImage('jpeg', 1600, 1200, { exifOrientation: 6, gps: true });
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const up = await upload(alice, jpeg, 'image', 'portrait.jpg');
    expect(up.body.data.metadata).toMatchObject({ width: 1200, height: 1600, format: 'jpeg' });
    const variants = await waitForVariants(alice, up.body.data.id);
    const dims = Object.fromEntries(variants.map((v: any) => [v.variant, [v.status, v.width, v.height]]));
    expect(dims).toEqual({
      original: ['ready', 1200, 1600],
      thumbnail: ['ready', 150, 150],
      small: ['ready', 300, 400],
      medium: ['ready', 600, 800],
      large: ['ready', 900, 1200],
    });
    for (const variant of ['thumbnail', 'small', 'medium', 'large']) {
      const url = await alice.get(`/api/v1/files/${up.body.data.id}/url?variant=${variant}`);
      expect(url.status, url.text).toBe(200);
      const res = await fetchHandedOut(app, url.body.data.url);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height]).toEqual(dims[variant].slice(1));
      expect(meta.exif).toBeUndefined(); // GPS and the rest of EXIF are gone
      expect(meta.orientation).toBeUndefined();
      expect(variants.find((v: any) => v.variant === variant).size).toBe(bytes.length);
      if (variant === 'small') {
        // The blue-ish left half of the stored pixels is at the top once rotated (orientation 6 = 90° clockwise).
        const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
        const blueAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 2]!;
        expect(blueAt(150, 20)).toBeGreaterThan(150);
        expect(blueAt(150, 380)).toBeLessThan(100);
      }
    }
  });

  it('makes the variants on the instance that stored the upload and removes the backstop job afterwards', async () => {
    // Large enough that making its variants takes far longer than the one query below.
    const up = await upload(alice, await makeImage('jpeg', 3000, 2000), 'image', 'backstop.jpg');
    const id = up.body.data.id;
    const backstops = () => dbRows(app, `select next_run_at from agenda_jobs where name = ? and data->>'fileId' = ?`, [GENERATE_VARIANTS_JOB, id]);
    // Answered once the backstop is stored, due well after the variants are normally made here.
    const [queued] = await backstops();
    expect(new Date(queued.next_run_at).getTime() - Date.now()).toBeGreaterThan(BACKSTOP_DELAY_MS / 2);
    expect((await waitForVariants(alice, id)).every((v: any) => v.status === 'ready')).toBe(true);
    await until(async () => (await backstops()).length === 0);
  });

  it('fits wide PNG and WebP images inside each box, keeping their format', async () => {
    const png = await upload(alice, await makeImage('png', 2000, 500), 'image', 'wide.png', 'image/png');
    const webp = await upload(alice, await makeImage('webp', 300, 200), 'image', 'small.webp', 'image/webp');
    const dims = async (id: string) => Object.fromEntries((await waitForVariants(alice, id)).map((v: any) => [v.variant, [v.width, v.height]]));
    expect(await dims(png.body.data.id)).toEqual({ original: [2000, 500], thumbnail: [150, 150], small: [400, 100], medium: [800, 200], large: [1200, 300] });
    // Smaller than the boxes: never enlarged (only the thumbnail is a fixed square).
    expect(await dims(webp.body.data.id)).toEqual({ original: [300, 200], thumbnail: [150, 150], small: [300, 200], medium: [300, 200], large: [300, 200] });
    const url = await alice.get(`/api/v1/files/${png.body.data.id}/url?variant=medium`);
    const res = await fetchHandedOut(app, url.body.data.url);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('png');
  });

  it('marks every variant of a corrupt image failed with a clear error; the worker goes on', async () => {
    // A JPEG signature followed by garbage: accepted as image/jpeg, undecodable.
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(20_000)]);
    const up = await upload(alice, corrupt, 'image', 'broken.jpg');
    expect(up.status, up.text).toBe(201);
    const variants = await waitForVariants(alice, up.body.data.id);
    for (const v of variants.filter((v: any) => v.variant !== 'original')) {
      expect(v.status).toBe('failed');
      expect(v.error).toMatch(/^The image could not be processed: /);
      expect(v.size).toBe(0);
    }
    const url = await alice.get(`/api/v1/files/${up.body.data.id}/url?variant=small`);
    expectRule(url, 'image_variant_failed');
    // No blob for a failed variant; the original is still there.
    const blobs = (await blobsOnDisk(app)).filter((p) => p.includes(up.body.data.id));
    expect(blobs).toEqual([`${aliceId}/${up.body.data.id}/original`]);
    // The job runner still works.
    const next = await upload(alice, await makeImage('jpeg', 200, 100), 'image');
    expect((await waitForVariants(alice, next.body.data.id)).every((v: any) => v.status === 'ready')).toBe(true);
  });
});

describe('urls, lists, deletion', () => {
  it('signs short-lived URLs: a changed signature or expiry is refused, documents have only the original', async () => {
    const pdf = makePdf('url test');
    const up = await upload(alice, pdf, 'document', 'doc.pdf', 'application/pdf');
    const res = await alice.get(`/api/v1/files/${up.body.data.id}/url`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ fileId: up.body.data.id, variant: 'original', mimeType: 'application/pdf' });
    const expiresAt = new Date(res.body.data.expiresAt).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const ok = await fetchHandedOut(app, res.body.data.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await ok.arrayBuffer()).equals(pdf)).toBe(true);
    // Served inline from our origin, sandboxed: no script, form or same-origin access in the viewer.
    expect(ok.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(ok.headers.get('content-security-policy')).toBe('sandbox');
    const download = await alice.get(`/api/v1/files/${up.body.data.id}/download`);
    expect(download.headers.get('content-security-policy')).toBe('sandbox');

    const url = new URL(res.body.data.url);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await fetchHandedOut(app, url.toString())).status).toBe(401);
    const other = new URL(res.body.data.url);
    other.searchParams.set('variant', 'small');
    expect((await fetchHandedOut(app, other.toString())).status).toBe(401);

    expectRule(await alice.get(`/api/v1/files/${up.body.data.id}/url?variant=small`), 'file_variant');
    expectValidation(await alice.get(`/api/v1/files/${up.body.data.id}/url?variant=huge`));
    expectValidation(await alice.get('/api/v1/files/not-a-uuid'));
    expectValidation(await alice.get('/api/v1/files/not-a-uuid/download'));
  });

  it('lists the caller\'s files newest first, paginated, filtered by fileType, mimeType and name', async () => {
    const { client: carol } = await signUp(app.url);
    await upload(carol, makePdf(), 'document', 'Tax return 2025.pdf', 'application/pdf');
    await upload(carol, await makeImage('png', 20, 20), 'image', 'cat.png', 'image/png');
    await upload(carol, await makeImage('jpeg', 20, 20), 'image', 'dog_100%.jpg');
    const all = await carol.get('/api/v1/files');
    expect(all.body.data.map((f: any) => f.fileName)).toEqual(['dog_100%.jpg', 'cat.png', 'Tax return 2025.pdf']);
    expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const page2 = await carol.get('/api/v1/files?limit=2&page=2');
    expect(page2.body.data.map((f: any) => f.fileName)).toEqual(['Tax return 2025.pdf']);
    // The total is right whether the page is full, partial (the last one) or past the end.
    for (const page of [1, 2, 5]) expect((await carol.get(`/api/v1/files?limit=2&page=${page}`)).body.meta).toEqual({ page, limit: 2, total: 3 });
    expect((await carol.get('/api/v1/files?fileType=image')).body.meta.total).toBe(2);
    expect((await carol.get('/api/v1/files?mimeType=image/png')).body.data.map((f: any) => f.fileName)).toEqual(['cat.png']);
    expect((await carol.get('/api/v1/files?search=TAX')).body.data.map((f: any) => f.fileName)).toEqual(['Tax return 2025.pdf']);
    expect((await carol.get('/api/v1/files?search=100%25')).body.data.map((f: any) => f.fileName)).toEqual(['dog_100%.jpg']);
    expect((await carol.get('/api/v1/files?search=_')).body.meta.total).toBe(1);
  });

  it('deletes the row and every variant row (its blobs once out of the trash); handed-out URLs stop working', async () => {
    const up = await upload(alice, await makeImage('jpeg', 900, 600), 'image', 'gone.jpg');
    const id = up.body.data.id;
    await waitForVariants(alice, id);
    const thumb = (await alice.get(`/api/v1/files/${id}/url?variant=thumbnail`)).body.data.url;
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id))).toHaveLength(5);
    const del = await alice.delete(`/api/v1/files/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id, message: 'File deleted' });
    // In the trash its bytes stay (a restore finds them); deleted from the trash, they go.
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id))).toHaveLength(5);
    const entry = (await alice.get('/api/v1/trash?limit=100')).body.data.find((e: any) => e.recordId === id);
    expect((await alice.delete(`/api/v1/trash/${entry.id}`)).status).toBe(200);
    expect((await blobsOnDisk(app)).filter((p) => p.includes(id))).toEqual([]);
    expect(await dbRows(app, 'select id from image_variants where file_id = ?', [id])).toEqual([]);
    expect((await alice.get(`/api/v1/files/${id}`)).status).toBe(404);
    expect((await alice.get(`/api/v1/files/${id}/download`)).status).toBe(404);
    expect((await fetchHandedOut(app, thumb)).status).toBe(404);
    expect((await alice.delete(`/api/v1/files/${id}`)).status).toBe(404);
  });
});
