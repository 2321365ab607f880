import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { startTestS3, type TestS3 } from '../../../test/support/s3-server.js';
import { signUp } from '../../../test/support/http-client.js';
import { makePdf, upload } from '../../files/files.test-helpers.js';
import { getBytes, pathOf, runExport } from './export.test-helpers.js';
import { unzip } from '../../../test/support/zip.js';

/** FILE_STORAGE_ADAPTER=s3: the archive is an object in the bucket, streamed back by the download route. */
let s3: TestS3;
let app: TestApp;

beforeAll(async () => {
  s3 = await startTestS3('life-planner-export-test');
  app = await startTestApp(s3.env);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await s3?.close();
});

it('writes the archive to the bucket and serves it through the signed route, files byte for byte', async () => {
  const { client: alice, id: aliceId } = await signUp(app.url);
  const { client: bob } = await signUp(app.url);
  const pdf = makePdf('on s3');
  const up = await upload(alice, pdf, 'document', 'contract.pdf', 'application/pdf');
  expect(up.status, up.text).toBe(201);
  const finished = await runExport(alice);
  expect(finished.status).toBe('done');
  expect(await s3.keys(`${aliceId}/exports/`)).toEqual([`${aliceId}/exports/${finished.id}`]);
  expect((await getBytes(bob, pathOf(finished.url!))).status).toBe(404);
  const zip = await getBytes(alice, pathOf(finished.url!));
  expect(zip.status).toBe(200);
  const entries = await unzip(zip.body);
  expect(entries.get(`files/${up.body.data.id}/contract.pdf`)!.equals(pdf)).toBe(true);
  const data = JSON.parse(entries.get('data.json')!.toString('utf8'));
  expect(data.files.files.map((f: { id: string }) => f.id)).toEqual([up.body.data.id]);
  expect(data.account.user[0].id).toBe(aliceId);
}, 60_000);
