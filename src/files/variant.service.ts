import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { lockVariants } from './files.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../core/errors.js';
import { VariantStatus, RESIZED_VARIANTS, type ResizedVariant } from './file-kinds.js';
import type { FilesRuntime } from './files-runtime.js';
import { ImageVariant } from './image-variant.entity.js';
import { describeImageError, type ImageSource } from './image-processing.js';
import { RenderProcessError } from './image-renderer.js';
import { blobKey, type BlobStorage } from './storage/storage.js';
import { StoredFile } from './stored-file.entity.js';

/**
 * Makes image variants exactly once per (file, variant), whoever asks first: the eager job, or the
 * first request in lazy mode. Concurrent makers serialise on a transaction-scoped advisory lock of
 * the pair; the unique (fileId, variant) constraint backs it up. The file row is share-locked, so a
 * delete waits for a variant in progress and then removes its blob too.
 */
export class VariantService {
  constructor(
    private readonly em: EntityManager,
    private readonly rt: FilesRuntime,
  ) {}

  /** The variant row, made now if it does not exist yet (ready, or failed with its reason). */
  async ensure(userId: string, fileId: string, variant: ResizedVariant): Promise<ImageVariant> {
    const existing = await this.em.findOne(ImageVariant, { fileId, variant, userId });
    if (existing) return existing;

    let written: { key: string; adapter: StoredFile['storageAdapter'] } | null = null;
    try {
      return await this.em.transactional(async (tx) => {
        const file = await tx.findOne(StoredFile, { id: fileId, userId }, { lockMode: LockMode.PESSIMISTIC_READ });
        if (!file) throw new NotFoundError('File');
        await lockVariants(tx, fileId, [variant]);
        const made = await tx.findOne(ImageVariant, { fileId, variant }, { disableIdentityMap: true });
        if (made) return made;

        const storage = this.rt.adapter(file.storageAdapter);
        const key = blobKey(userId, fileId, variant);
        let row: ImageVariant;
        await this.withSource(storage, file.storageKey, async (source) => {
          try {
            const out = await this.rt.renderer.variant(source, file.mimeType, variant);
            written = { key, adapter: file.storageAdapter };
            await storage.putBuffer(key, out.data, file.mimeType);
            row = tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.ready, width: out.width, height: out.height, size: out.size, storageKey: key });
          } catch (error) {
            // Storage or the render process failed, not the image: let the caller retry.
            if (written || error instanceof RenderProcessError) throw error;
            this.rt.logger.warn({ err: error, fileId, variant }, 'image variant failed');
            row = tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.failed, size: 0, storageKey: key, error: describeImageError(error) });
          }
        });
        await tx.flush();
        return row!;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        // Another maker committed this variant first (the advisory lock makes this a backstop only):
        // its blob is under the same key, so keep it and answer its row.
        const winner = await this.em.fork().findOne(ImageVariant, { fileId, variant, userId });
        if (winner) return winner;
      }
      // The row did not commit: no blob may stay behind under its key.
      const blob = written as { key: string; adapter: StoredFile['storageAdapter'] } | null;
      if (blob) await this.rt.adapter(blob.adapter).delete(blob.key).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Every resized variant of an image (the eager job), in one transaction: the file row share-locked,
   * the advisory lock of each variant taken in a fixed order (so a lazy request of one variant waits
   * and then finds it), the original decoded once (renderVariants), the blobs written in parallel and
   * every row inserted in one flush. A bad image gives failed rows; a storage or database failure
   * removes the blobs written so far and throws (Agenda retries). A file deleted meanwhile: nothing.
   */
  async ensureAll(fileId: string): Promise<ImageVariant[]> {
    // Blobs written in this attempt, and where: removed again when the rows do not commit.
    const written: string[] = [];
    let owner = '';
    let storage: BlobStorage | undefined;
    try {
      return await this.em.transactional(async (tx) => {
        const file = await tx.findOne(StoredFile, { id: fileId }, { lockMode: LockMode.PESSIMISTIC_READ });
        if (!file || !file.isImage) return [];
        const userId = (owner = file.userId);
        const store = (storage = this.rt.adapter(file.storageAdapter));
        await lockVariants(tx, fileId, RESIZED_VARIANTS);
        const made = await tx.find(ImageVariant, { fileId, variant: { $in: [...RESIZED_VARIANTS] } }, { disableIdentityMap: true });
        const missing = RESIZED_VARIANTS.filter((variant) => !made.some((row) => row.variant === variant));
        if (!missing.length) return made;

        const rows: ImageVariant[] = [];
        await this.withSource(store, file.storageKey, async (source) => {
          const outcomes = await this.rt.renderer.variants(source, file.mimeType, missing);
          const puts = await Promise.allSettled(
            missing.map(async (variant) => {
              const key = blobKey(userId, fileId, variant);
              const outcome = outcomes.get(variant)!;
              if (!outcome.ok) {
                this.rt.logger.warn({ err: outcome.error, fileId, variant }, 'image variant failed');
                rows.push(tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.failed, size: 0, storageKey: key, error: describeImageError(outcome.error) }));
                return;
              }
              const { out } = outcome;
              written.push(key);
              await store.putBuffer(key, out.data, file.mimeType);
              rows.push(tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.ready, width: out.width, height: out.height, size: out.size, storageKey: key }));
            }),
          );
          const failed = puts.find((p): p is PromiseRejectedResult => p.status === 'rejected');
          if (failed) throw failed.reason; // storage failed, not the image: let Agenda retry
        });
        await tx.flush();
        return [...made, ...rows];
      });
    } catch (error) {
      const remove = (keys: string[]) => Promise.all(keys.map((key) => storage!.delete(key).catch(() => undefined)));
      if (error instanceof UniqueConstraintViolationException) {
        // Another maker committed a variant first (the advisory locks make this a backstop only): a
        // blob of a variant that has a row is that row's blob under the same key, so it stays.
        const rows = await this.em.fork().find(ImageVariant, { fileId, userId: owner, variant: { $in: [...RESIZED_VARIANTS] } });
        const kept = new Set(rows.map((row) => row.storageKey));
        await remove(written.filter((key) => !kept.has(key)));
        if (rows.length === RESIZED_VARIANTS.length) return rows;
        throw error;
      }
      // The rows did not commit: no blob may stay behind under their keys.
      await remove(written);
      throw error;
    }
  }

  /**
   * Hands the original to libvips as a local file: the disk adapter's own file, or (S3) a temporary
   * copy streamed into the staging folder and removed afterwards. The original is never read whole
   * into the heap. A missing blob is a storage failure (it throws before any rendering).
   */
  private async withSource<T>(storage: BlobStorage, key: string, use: (source: ImageSource) => Promise<T>): Promise<T> {
    if (storage.localPath) return use(await storage.localPath(key));
    await mkdir(this.rt.stagingDir, { recursive: true });
    const temp = join(this.rt.stagingDir, `${randomUUID()}.source`);
    try {
      await pipeline(await storage.read(key), createWriteStream(temp));
      return await use(temp);
    } finally {
      await rm(temp, { force: true });
    }
  }
}

