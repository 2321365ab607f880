import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../core/errors.js';
import { VariantStatus, RESIZED_VARIANTS, type ResizedVariant } from './file-kinds.js';
import type { FilesRuntime } from './files-runtime.js';
import { ImageVariant } from './image-variant.entity.js';
import { describeImageError, renderVariant } from './image-processing.js';
import { blobKey } from './storage/storage.js';
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
  async ensure(userId: string, fileId: string, variant: ResizedVariant, source?: () => Promise<Buffer>): Promise<ImageVariant> {
    const existing = await this.em.findOne(ImageVariant, { fileId, variant, userId });
    if (existing) return existing;

    let written: { key: string; adapter: StoredFile['storageAdapter'] } | null = null;
    try {
      return await this.em.transactional(async (tx) => {
        const file = await tx.findOne(StoredFile, { id: fileId, userId }, { lockMode: LockMode.PESSIMISTIC_READ });
        if (!file) throw new NotFoundError('File');
        // On the transaction's own connection, so the lock lasts until it commits.
        await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`image-variant:${fileId}:${variant}`]);
        const made = await tx.findOne(ImageVariant, { fileId, variant }, { disableIdentityMap: true });
        if (made) return made;

        const storage = this.rt.adapter(file.storageAdapter);
        const key = blobKey(userId, fileId, variant);
        const data = source ? await source() : await storage.readBuffer(file.storageKey);
        let row: ImageVariant;
        try {
          const out = await renderVariant(data, file.mimeType, variant);
          written = { key, adapter: file.storageAdapter };
          await storage.putBuffer(key, out.data, file.mimeType);
          row = tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.ready, width: out.width, height: out.height, size: out.size, storageKey: key });
        } catch (error) {
          if (written) throw error; // storage failed, not the image: let the caller retry
          this.rt.logger.warn({ err: error, fileId, variant }, 'image variant failed');
          row = tx.create(ImageVariant, { userId, fileId, variant, status: VariantStatus.failed, size: 0, storageKey: key, error: describeImageError(error) });
        }
        await tx.flush();
        return row;
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

  /** Every resized variant of an image (the eager job); the original is read once. */
  async ensureAll(fileId: string): Promise<ImageVariant[]> {
    const file = await this.em.findOne(StoredFile, { id: fileId });
    if (!file || !file.isImage) return [];
    let source: Promise<Buffer> | undefined;
    const read = () => (source ??= this.rt.adapter(file.storageAdapter).readBuffer(file.storageKey));
    const rows: ImageVariant[] = [];
    for (const variant of RESIZED_VARIANTS) {
      try {
        rows.push(await this.ensure(file.userId, fileId, variant, read));
      } catch (error) {
        if (error instanceof NotFoundError) return rows; // deleted meanwhile: nothing left to make
        throw error;
      }
    }
    return rows;
  }
}

