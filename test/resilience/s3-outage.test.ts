import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { signUp } from '../support/http-client.js';
import { sql } from '../support/db.js';
import { blobsOnDisk, makePdf, upload } from '../../src/files/files.test-helpers.js';
import { eventually } from '../../src/reminders/reminders.test-helpers.js';
import { TrashService } from '../../src/trash/trash.service.js';
import { releaseDue } from '../../src/trash/storage-releases.js';

/**
 * The S3 bucket's server goes away under traffic and comes back (issue 34, item 3; docs/operations.md →
 * Dependencies): a real S3-compatible server (s3rver) stopped and started again on its port and data.
 */
describe('the S3 server goes away and comes back', () => {
  let s3: TestS3;
  let app: TestApp;

  beforeAll(async () => {
    s3 = await startTestS3('life-planner-outage');
    // READYZ_PROBE_CACHE_MS 0: /readyz asks S3 each time, so the outage shows at once (no 5 s reuse waited out).
    app = await startTestApp({ ...s3.env, MAX_FILE_SIZE: '1000000', READYZ_PROBE_CACHE_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  const readyz = async () => (await fetch(`${app.url}/readyz`)).json();
  const s3State = (state: string) => (body: any) => body.data?.dependencies?.s3?.state === state;

  it('refuses uploads in the envelope leaving nothing behind, keeps everything else, says so in /readyz, and uploads again when it is back', async () => {
    const anna = await signUp(app.url);
    const first = await upload(anna.client, makePdf('before'), 'document', 'before.pdf', 'application/pdf');
    expect(first.status, first.text).toBe(201);
    expect(await readyz()).toMatchObject({ ok: true, data: { status: 'ready', dependencies: { s3: { state: 'up', required: false } } } });

    // The outage.
    await s3.stop();
    const during = await eventually(readyz, s3State('down'));
    expect(during).toMatchObject({ ok: true, data: { status: 'ready', dependencies: { database: { state: 'up' }, s3: { state: 'down', required: false } } } });
    const refused = await upload(anna.client, makePdf('during'), 'document', 'during.pdf', 'application/pdf');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'STORAGE_UNAVAILABLE' } });
    // Nothing half-written: no row, nothing left in staging.
    expect(await sql(app.databaseUrl, 'select file_name from files where user_id = $1', [anna.id])).toEqual([{ file_name: 'before.pdf' }]);
    expect(await blobsOnDisk(app)).toEqual([]);
    // Other data, and the stored file's metadata and signed URL (made without the bucket), still read.
    expect((await anna.client.get('/api/v1/tasks')).status).toBe(200);
    const list = await anna.client.get('/api/v1/files');
    expect(list.status).toBe(200);
    expect((await anna.client.get(`/api/v1/files/${first.body.data.id}/url`)).status).toBe(200);

    // Back: /readyz says so, uploads work, the earlier file is still there.
    await s3.restart();
    await eventually(readyz, s3State('up'));
    const after = await upload(anna.client, makePdf('after'), 'document', 'after.pdf', 'application/pdf');
    expect(after.status, after.text).toBe(201);
    expect(await s3.keys(`${anna.id}/`)).toEqual([`${anna.id}/${first.body.data.id}/original`, `${anna.id}/${after.body.data.id}/original`].sort());
  }, 60_000);
  it('a purged file whose bytes S3 could not delete is deleted for sure: recorded with the purge, retried with backoff (a clock passed in) until S3 answers', async () => {
    const ben = await signUp(app.url);
    const uploaded = await upload(ben.client, makePdf('gone'), 'document', 'gone.pdf', 'application/pdf');
    expect(uploaded.status, uploaded.text).toBe(201);
    const fileId = uploaded.body.data.id;
    expect((await ben.client.delete(`/api/v1/files/${fileId}`)).status).toBe(200);
    const keys = () => s3.keys(`${ben.id}/${fileId}/`);
    expect(await keys()).toEqual([`${ben.id}/${fileId}/original`]);
    const pending = () => sql(app.databaseUrl, 'select attempts, next_attempt_at, last_error from trash_storage_releases where prefix = $1', [`${ben.id}/${fileId}`]);
    const deps = app.server.deps;
    const now = Date.now() + 31 * 86_400_000; // past the default retention of 30 days
    const at = (ms: number) => new Date(now + ms);

    await s3.stop();
    const trash = new TrashService(app.server.orm.em.fork(), deps);
    while ((await trash.purgeChunk(at(0))) > 0);
    expect((await ben.client.get('/api/v1/trash')).body.data).toEqual([]);
    const [failed] = await pending();
    expect(failed).toMatchObject({ attempts: 1 });
    expect(failed.last_error).toBeTruthy();
    expect(new Date(failed.next_attempt_at).getTime()).toBe(now + 60_000);
    // Not tried before its backoff; tried and failing while S3 is down: the wait doubles.
    expect(await releaseDue(deps, at(59_000))).toEqual({ tried: 0, done: 0 });
    expect(await releaseDue(deps, at(60_000))).toEqual({ tried: 1, done: 0 });
    expect(new Date((await pending())[0].next_attempt_at).getTime()).toBe(now + 60_000 + 120_000);

    await s3.restart();
    expect(await keys(), 'still orphaned until the retry').toHaveLength(1);
    expect(await releaseDue(deps, at(180_000))).toEqual({ tried: 1, done: 1 });
    expect(await keys()).toEqual([]);
    expect(await pending()).toEqual([]);
  }, 60_000);
});
