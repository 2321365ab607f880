import { randomUUID } from 'node:crypto';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { FileType, VariantName, VariantStatus, type ResizedVariant } from './file-kinds.js';
import { FILE_URL_TTL_SECONDS, type FilesRuntime } from './files-runtime.js';
import type { FileUrl, ListFilesArgs } from './files.types.js';
import { findFileForUrl } from './files.queries.js';
import { ImageVariant } from './image-variant.entity.js';
import { probeImage } from './image-processing.js';
import type { MultipartUpload, StagedFile } from './multipart.js';
import { cleanFileName, contentDisposition } from './safe-file-name.js';
import { blobKey } from './storage/storage.js';
import { StoredFile } from './stored-file.entity.js';
import { VariantService } from './variant.service.js';
import { findPage } from '../core/database/find-page.js';
import type { ServiceScope } from '../core/request-services.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { FILE_TRASH } from './file.trash.js';

/** An upload whose bytes were checked: its real type is known and allowed for its `fileType`. */
export interface CheckedUpload {
  staged: StagedFile;
  fileType: FileType;
  mimeType: string;
  discard(): Promise<void>;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Files of one user. Every read and write is scoped by owner: another user's file answers NOT_FOUND
 * exactly like a missing one. Other modules reference files through `requireOwnedFile`.
 */
export class FileService {
  /** Made for a request with the files runtime (storage adapters, signing). */
  static forRequest(ctx: ServiceScope): FileService {
    return new FileService(ctx.em, ctx.deps.files);
  }

  constructor(
    private readonly em: EntityManager,
    private readonly rt: FilesRuntime,
  ) {}

  async list(userId: string, filter: ListFilesArgs): Promise<Page<StoredFile>> {
    const where: FilterQuery<StoredFile> = { userId };
    if (filter.fileType) where.fileType = filter.fileType;
    if (filter.mimeType) where.mimeType = filter.mimeType;
    if (filter.search) where.fileName = { $ilike: `%${escapeLike(filter.search)}%` };
    return findPage(this.em, StoredFile, where, { createdAt: 'desc', id: 'desc' }, filter);
  }

  async get(userId: string, fileId: string): Promise<StoredFile> {
    const file = await this.em.findOne(StoredFile, { id: fileId, userId });
    if (!file) throw new NotFoundError('File');
    return file;
  }

  /**
   * For records that reference a file (progress photos, book covers, person pictures): the caller's
   * own file or NOT_FOUND naming the field; `image: true` also requires an image.
   */
  async requireOwnedFile(userId: string, fileId: string, options: { field?: string; image?: boolean } = {}): Promise<StoredFile> {
    const field = options.field ?? 'fileId';
    const file = await this.em.findOne(StoredFile, { id: fileId, userId });
    if (!file) throw new NotFoundError('File', { field });
    if (options.image && !file.isImage) throw new RuleViolationError('file_type', `${field} must reference an image`, [field]);
    return file;
  }

  /**
   * Checks a staged upload against the settings: the declared `fileType`, and the real type read from
   * the first bytes (magic numbers; the name and the declared MIME type do not count). Refusals remove
   * the staging file.
   */
  async check(upload: MultipartUpload, fileTypeField: string | undefined, expected?: FileType): Promise<CheckedUpload> {
    try {
      const staged = upload.file;
      if (!staged) throw new ValidationError('A file is required', [{ path: ['file'], message: 'send the file in the multipart field "file"' }]);
      const declared = fileTypeField ?? expected;
      if (declared !== FileType.image && declared !== FileType.document) {
        throw new ValidationError('fileType must be image or document', [{ path: ['fileType'], message: 'fileType must be image or document' }]);
      }
      if (expected && declared !== expected) {
        throw new RuleViolationError('file_type', `This upload must be an ${expected}`, ['fileType']);
      }
      const { allowedImageTypes, allowedDocumentTypes } = this.rt.settings;
      const allowed = [...allowedImageTypes, ...allowedDocumentTypes];
      if (staged.size === 0) throw new RuleViolationError('file_type', 'The file is empty', ['file']);
      // file-type (and its tokenizers) loaded by the first upload, not at start-up (issue 18).
      const { fileTypeFromFile } = await import('file-type');
      const sniffed = (await fileTypeFromFile(staged.path))?.mime;
      if (!sniffed || !allowed.includes(sniffed)) {
        const what = sniffed ? `Files of type ${sniffed} are not allowed` : 'The file content is not of a recognised type';
        throw new RuleViolationError('file_type', `${what}; allowed: ${allowed.join(', ')}`, ['file']);
      }
      const actual = allowedImageTypes.includes(sniffed) ? FileType.image : FileType.document;
      if (actual !== declared) {
        throw new RuleViolationError('file_type', `fileType is ${declared} but the file content is ${sniffed}, which is ${actual === FileType.image ? 'an image' : 'a document'}`, ['fileType']);
      }
      return { staged, fileType: actual, mimeType: sniffed, discard: upload.discard };
    } catch (error) {
      await upload.discard();
      throw error;
    }
  }

  /**
   * Stores a checked upload: the row (and, for images, the `original` variant row) is written in a
   * transaction, the blob is moved from staging to its key before that transaction commits, and a
   * failure anywhere removes the blob and the staging file: no row without a blob, no blob without a row.
   * `alongside` writes dependent rows (a progress photo) in the same transaction.
   */
  async store(userId: string, upload: CheckedUpload, alongside?: (tx: EntityManager, file: StoredFile) => Promise<void> | void): Promise<StoredFile> {
    const fileId = randomUUID();
    const key = blobKey(userId, fileId, VariantName.original);
    const storage = this.rt.storage;
    const isImage = upload.fileType === FileType.image;
    const facts = isImage ? await probeImage(upload.staged.path) : null;
    let moved = false;
    let file: StoredFile;
    try {
      file = await this.em.transactional(async (tx) => {
        const row = tx.create(StoredFile, {
          id: fileId,
          userId,
          fileName: cleanFileName(upload.staged.declaredName),
          fileType: upload.fileType,
          mimeType: upload.mimeType,
          size: upload.staged.size,
          storageKey: key,
          storageAdapter: storage.name,
          isImage,
          metadata: facts ? { ...facts } : null,
        });
        if (isImage) {
          tx.create(ImageVariant, {
            userId,
            fileId,
            variant: VariantName.original,
            status: VariantStatus.ready,
            width: facts?.width ?? null,
            height: facts?.height ?? null,
            size: upload.staged.size,
            storageKey: key,
          });
        }
        if (alongside) await alongside(tx, row);
        await tx.flush();
        moved = true;
        await storage.putFile(key, upload.staged.path, upload.staged.size, upload.mimeType);
        return row;
      });
    } catch (error) {
      if (moved) await storage.delete(key).catch(() => undefined);
      await upload.discard();
      throw error;
    }
    if (isImage && this.rt.settings.imageProcessingMode === 'eager') {
      // A lost job is not fatal: the first request of a variant makes it (the same exactly-once path).
      await this.rt.enqueueVariants(fileId).catch((error) => this.rt.logger.error({ err: error, fileId }, 'could not queue image variants'));
    }
    return file;
  }

  /** A short-lived URL of one variant, made first if it does not exist yet (lazy mode, or eager still running). */
  async url(userId: string, fileId: string, variant: VariantName = VariantName.original): Promise<FileUrl> {
    // The file and the variant's row in one statement: clients ask for these URLs by the dozen.
    const found = await findFileForUrl(this.em, userId, fileId, variant);
    if (!found) throw new NotFoundError('File');
    const { file } = found;
    let key = file.storageKey;
    let width = (file.metadata?.width as number | undefined) ?? null;
    let height = (file.metadata?.height as number | undefined) ?? null;
    if (variant !== VariantName.original) {
      if (!file.isImage) throw new RuleViolationError('file_variant', 'Documents have only the original variant', ['variant']);
      const made = found.variant ?? (await new VariantService(this.em, this.rt).ensure(userId, fileId, variant as ResizedVariant));
      if (made.status === VariantStatus.failed) {
        throw new RuleViolationError('image_variant_failed', made.error ?? `The ${variant} variant could not be made`, ['variant']);
      }
      ({ storageKey: key, width = null, height = null } = made);
    }
    return { fileId, variant, mimeType: file.mimeType, width, height, ...(await this.signedUrl(file, key, variant)) };
  }

  /** The URL of a stored blob: an S3 presigned GET, or the service's own HMAC-signed link (disk). */
  async signedUrl(file: Pick<StoredFile, 'id' | 'storageAdapter' | 'mimeType' | 'fileName'>, key: string, variant: VariantName): Promise<{ url: string; expiresAt: Date }> {
    const expires = Math.floor(Date.now() / 1000) + FILE_URL_TTL_SECONDS;
    const presigned = await this.rt.adapter(file.storageAdapter).presignedUrl(key, {
      expiresInSeconds: FILE_URL_TTL_SECONDS,
      contentType: file.mimeType,
      contentDisposition: contentDisposition('inline', file.fileName),
    });
    const url =
      presigned ??
      `${this.rt.baseUrl}/api/v1/files/${file.id}/content?` +
        new URLSearchParams({ variant, expires: String(expires), signature: this.rt.signer.sign(file.id, variant, expires) }).toString();
    return { url, expiresAt: new Date(expires * 1000) };
  }

  /**
   * Moves the file to the trash: the row goes (its variants with it), its blobs stay until the purge
   * frees them (docs/trash.md), so a restore finds its bytes.
   */
  async delete(userId: string, fileId: string): Promise<Deleted> {
    await this.em.transactional(async (tx) => {
      // Waits for a variant being made right now (it share-locks the row), so the snapshot holds its variant.
      const row = await tx.findOne(StoredFile, { id: fileId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) throw new NotFoundError('File');
      await moveToTrash(tx, userId, FILE_TRASH, fileId, row.fileName);
      await tx.flush();
      await tx.nativeDelete(StoredFile, { id: fileId, userId });
    });
    return deleted(fileId, 'File');
  }
}
