import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { DiskStorage } from './storage/disk.js';
import { childProcessRenderer, type ImageRenderer } from './image-renderer.js';
import type { BlobStorage, StorageAdapterName } from './storage/storage.js';

export const GENERATE_VARIANTS_JOB = 'files:generate-variants';

/**
 * Images the eager variants are made of at once per process (in its image render process,
 * image-renderer.ts). Each decode already uses every core (libvips threads), so a second image at once
 * mostly holds more decoded pixels and takes CPU from the requests beside it: in `npm run bench --
 * image-burst` two at a time made sign-in p99 during the burst 76-155 ms, one at a time 68-107 ms, for a
 * burst ~10% longer.
 */
export const VARIANT_JOB_CONCURRENCY = 1;

/** How long a file URL stays valid (disk signature or S3 presigned GET). */
export const FILE_URL_TTL_SECONDS = 15 * 60;

/** Signs the service's own file URLs (disk adapter) with a key derived from the session secret. */
export class UrlSigner {
  constructor(private readonly key: Buffer) {}

  sign(fileId: string, variant: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}\n${variant}\n${expires}`).digest('base64url');
  }

  verify(fileId: string, variant: string, expires: number, signature: string): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 < Date.now()) return false;
    const expected = Buffer.from(this.sign(fileId, variant, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** Long-lived parts of the files module: storage adapters, the URL signer, the job queue. */
export interface FilesRuntime {
  settings: Config['files'];
  baseUrl: string;
  logger: Logger;
  stagingDir: string;
  /** The adapter new uploads go to (FILE_STORAGE_ADAPTER). */
  storage: BlobStorage;
  /** The adapter a stored file was written with. */
  adapter(name: StorageAdapterName): BlobStorage;
  signer: UrlSigner;
  enqueueVariants(fileId: string): Promise<void>;
  /** Renders variants in the low-priority image process (image-renderer.ts). */
  renderer: ImageRenderer;
}

declare module '../core/context.js' {
  interface AppDeps {
    /** The files module's storage, URL signer and image renderer (built once: createFilesRuntime). */
    files: FilesRuntime;
  }
}

/**
 * The files runtime of the service, built where the app is composed. `enqueueVariants` hands an upload to
 * the variant worker (an engine built later from the same parts, so it is reached through a function).
 */
export async function createFilesRuntime(
  config: Config,
  logger: Logger,
  secret: string,
  enqueueVariants: (fileId: string) => Promise<void>,
): Promise<FilesRuntime> {
  const settings = config.files;
  const disk = new DiskStorage(settings.uploadDir);
  // The AWS SDK (~20 MB of memory) is loaded only when S3 is configured.
  const s3 = settings.s3 ? new (await import('./storage/s3.js')).S3Storage(settings.s3) : null;
  const adapter = (name: StorageAdapterName): BlobStorage => {
    if (name === 'disk') return disk;
    if (!s3) throw new Error('a file is stored on s3 but S3_BUCKET is not set');
    return s3;
  };
  return {
    settings,
    // Read at use: with PORT=0 the address is known only once the server listens.
    get baseUrl() {
      return config.baseUrl;
    },
    logger,
    stagingDir: join(settings.uploadDir, '.staging'),
    storage: adapter(settings.storageAdapter),
    adapter,
    signer: signerFor(secret, 'file-url-signing-v1'),
    enqueueVariants,
    renderer: childProcessRenderer(logger),
  };
}

/** A URL signer whose key is derived from the session secret for one purpose (file links, export links). */
export function signerFor(secret: string, purpose: string): UrlSigner {
  return new UrlSigner(createHmac('sha256', secret).update(purpose).digest());
}
