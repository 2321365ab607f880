import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../../core/config.js';
import { assertKey, type BlobStorage, type SignedUrlOptions } from './storage.js';
import { isStoreUnavailable, StorageUnavailableError } from './storage-errors.js';

/**
 * Blobs in an S3 bucket (AWS or an S3-compatible server; `S3_FORCE_PATH_STYLE` for the latter). A
 * PutObject is atomic, so no reader sees a partial object. The client gets presigned GET URLs.
 */
export class S3Storage implements BlobStorage {
  readonly name = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // S3-compatible servers often lack the newer default CRC checksums; send them only when required.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async putFile(key: string, localPath: string, size: number, contentType: string): Promise<void> {
    assertKey(key);
    await this.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(localPath), ContentLength: size, ContentType: contentType }),
    );
    await unlink(localPath).catch(() => undefined);
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    assertKey(key);
    await this.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.length, ContentType: contentType }));
  }

  async read(key: string): Promise<Readable> {
    assertKey(key);
    const result = await this.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return result.Body as Readable;
  }

  async readBuffer(key: string): Promise<Buffer> {
    assertKey(key);
    const result = await this.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from(await result.Body!.transformToByteArray());
  }

  async exists(key: string): Promise<boolean> {
    assertKey(key);
    try {
      await this.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertKey(prefix);
    let token: string | undefined;
    do {
      const page = await this.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
      );
      // One DeleteObject each: a file has at most five blobs, and DeleteObjects needs checksums that
      // some S3-compatible servers do not accept.
      for (const object of page.Contents ?? []) {
        await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key! }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  presignedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ResponseContentDisposition: options.contentDisposition,
      }),
      { expiresIn: options.expiresInSeconds },
    );
  }

  /** One HeadBucket: the bucket answers and these credentials may use it (/readyz). */
  async probe(signal: AbortSignal): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
  }

  /** One request to the bucket; a store that does not answer (or fails on its side) answers 503, not 500. */
  private readonly send = (async (command: Parameters<S3Client['send']>[0]) => {
    try {
      return await this.client.send(command);
    } catch (error) {
      if (isStoreUnavailable(error)) throw new StorageUnavailableError();
      throw error;
    }
  }) as S3Client['send'];

  close(): void {
    this.client.destroy();
  }
}

