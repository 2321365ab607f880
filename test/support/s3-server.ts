import S3rver from 's3rver';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface TestS3 {
  /** The service's settings for FILE_STORAGE_ADAPTER=s3 against this server and bucket. */
  env: Record<string, string>;
  client: S3Client;
  /** Keys in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** Stops the server, keeping its data (an outage). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback, path-style, with one empty bucket. */
export async function startTestS3(bucket: string): Promise<TestS3> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-s3rver-'));
  let server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    env: {
      FILE_STORAGE_ADAPTER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    async keys(prefix = '') {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (res.Contents ?? []).map((o) => o.Key!).sort();
    },
    async stop() {
      running = false;
      await server.close();
    },
    async restart() {
      server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir });
      await server.run();
      running = true;
    },
    async close() {
      client.destroy();
      if (running) await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
