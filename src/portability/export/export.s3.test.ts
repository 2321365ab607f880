import S3rver from 's3rver';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp } from '../../../test/support/http-client.js';
import { makePdf, upload } from '../../files/files.test-helpers.js';
import { getBytes, pathOf, runExport } from './export.test-helpers.js';
import { unzip } from '../../../test/support/zip.js';

/** FILE_STORAGE_ADAPTER=s3: the archive is an object in the bucket, streamed back by the download route. */
let s3: S3rver;
let s3Dir: string;
let client: S3Client;
let app: TestApp;
const BUCKET = 'life-planner-export-test';

beforeAll(async () => {
  s3Dir = await mkdtemp(join(tmpdir(), 'lp-s3rver-export-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  app = await startTestApp({
    FILE_STORAGE_ADAPTER: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  client?.destroy();
  await s3?.close();
  await rm(s3Dir, { recursive: true, force: true });
});

it('writes the archive to the bucket and serves it through the signed route, files byte for byte', async () => {
  const { client: alice, id: aliceId } = await signUp(app.url);
  const { client: bob } = await signUp(app.url);
  const pdf = makePdf('on s3');
  const up = await upload(alice, pdf, 'document', 'contract.pdf', 'application/pdf');
  expect(up.status, up.text).toBe(201);
  const finished = await runExport(alice);
  expect(finished.status).toBe('done');
  const objects = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${aliceId}/exports/` }));
  expect((objects.Contents ?? []).map((o) => o.Key)).toEqual([`${aliceId}/exports/${finished.id}`]);
  expect((await getBytes(bob, pathOf(finished.url!))).status).toBe(404);
  const zip = await getBytes(alice, pathOf(finished.url!));
  expect(zip.status).toBe(200);
  const entries = await unzip(zip.body);
  expect(entries.get(`files/${up.body.data.id}/contract.pdf`)!.equals(pdf)).toBe(true);
  const data = JSON.parse(entries.get('data.json')!.toString('utf8'));
  expect(data.files.files.map((f: { id: string }) => f.id)).toEqual([up.body.data.id]);
  expect(data.account.user[0].id).toBe(aliceId);
}, 60_000);
