import type { Readable } from 'node:stream';

export type StorageAdapterName = 'disk' | 's3';

export interface SignedUrlOptions {
  expiresInSeconds: number;
  contentType: string;
  /** Already header-safe (see safe-file-name.ts). */
  contentDisposition: string;
}

/**
 * Where blobs live. Keys are built from identifiers only (`<userId>/<fileId>/<variant>`), never from a
 * user's file name. Every write is all-or-nothing: a reader never sees a half-written blob.
 */
export interface BlobStorage {
  readonly name: StorageAdapterName;
  /** Moves a finished local staging file to `key` (the staging file is gone afterwards). */
  putFile(key: string, localPath: string, size: number, contentType: string): Promise<void>;
  putBuffer(key: string, data: Buffer, contentType: string): Promise<void>;
  read(key: string): Promise<Readable>;
  readBuffer(key: string): Promise<Buffer>;
  /** The local file holding `key`, when the adapter keeps blobs on this machine (rejects when missing). */
  localPath?(key: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  /** Removes every blob under `prefix/` (a file and all its variants). */
  deletePrefix(prefix: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** A URL the client loads directly (S3 presigned GET), or null when the service signs its own (disk). */
  presignedUrl(key: string, options: SignedUrlOptions): Promise<string | null>;
  /** Whether a remote store can be used now (/readyz); absent for local disk. */
  probe?(signal: AbortSignal): Promise<void>;
  close(): void;
}

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/** Keys are made only by `blobKey`; anything else is a programming error, never user input. */
export function assertKey(key: string): string[] {
  const parts = key.split('/');
  if (!parts.length || parts.length > 3 || !parts.every((p) => SEGMENT.test(p))) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
  return parts;
}

export function blobKey(userId: string, fileId: string, variant: string): string {
  const key = `${userId}/${fileId}/${variant}`;
  assertKey(key);
  return key;
}

export function filePrefix(userId: string, fileId: string): string {
  const prefix = `${userId}/${fileId}`;
  assertKey(prefix);
  return prefix;
}
