import type { EntityManager } from '@mikro-orm/postgresql';
import { VariantName, VariantStatus } from './file-kinds.js';
import type { StorageAdapterName } from './storage/storage.js';

/*
 * The reads behind every image a client shows (a variant's URL, then its bytes), one statement each.
 *
 * Why: the entity manager way costs two `findOne` per request (the file, then the variant), each about
 * a millisecond of CPU before the database answers, plus hydration into managed entities; a gallery
 * makes these requests by the dozen while the same process makes variants. These reads only feed an
 * answer, so they are one joined statement on the ORM's connection returning plain values. Writes keep
 * going through the entity manager (VariantService, FileService).
 */

/** What serving a stored blob needs: where it is, its size, and the headers of its file. */
export interface BlobToServe {
  storageAdapter: StorageAdapterName;
  storageKey: string;
  size: number;
  mimeType: string;
  fileName: string;
}

/**
 * The blob of a file's variant (`original`: the file's own blob), when the file exists and that
 * variant is ready. No owner check: the caller holds a signature over (file, variant).
 */
export async function findBlobToServe(em: EntityManager, fileId: string, variant: VariantName): Promise<BlobToServe | null> {
  const [row] =
    variant === VariantName.original
      ? await em.execute<BlobToServe[]>(
          `select storage_adapter as "storageAdapter", storage_key as "storageKey", size, mime_type as "mimeType", file_name as "fileName"
             from files where id = ?`,
          [fileId],
        )
      : await em.execute<BlobToServe[]>(
          `select f.storage_adapter as "storageAdapter", v.storage_key as "storageKey", v.size, f.mime_type as "mimeType", f.file_name as "fileName"
             from files f join image_variants v on v.file_id = f.id
            where f.id = ? and v.variant = ? and v.status = ?`,
          [fileId, variant, VariantStatus.ready],
        );
  return row ?? null;
}

/** A file of its owner, as much of it as handing out a URL needs. */
export interface FileForUrl {
  id: string;
  fileName: string;
  mimeType: string;
  storageAdapter: StorageAdapterName;
  storageKey: string;
  isImage: boolean;
  metadata: Record<string, unknown> | null;
}

/** The state of one variant of that file, when a row exists (ready or failed). */
export interface VariantForUrl {
  status: VariantStatus;
  storageKey: string;
  width: number | null;
  height: number | null;
  error: string | null;
}

/** The owner's file and the row of one of its variants (null when not made yet), or null when not the owner's. */
export async function findFileForUrl(em: EntityManager, userId: string, fileId: string, variant: VariantName): Promise<{ file: FileForUrl; variant: VariantForUrl | null } | null> {
  const [row] = await em.execute<(FileForUrl & { variantStatus: VariantStatus | null; variantKey: string; width: number | null; height: number | null; error: string | null })[]>(
    `select f.id, f.file_name as "fileName", f.mime_type as "mimeType", f.storage_adapter as "storageAdapter", f.storage_key as "storageKey",
            f.is_image as "isImage", f.metadata,
            v.status as "variantStatus", v.storage_key as "variantKey", v.width, v.height, v.error
       from files f left join image_variants v on v.file_id = f.id and v.variant = ?
      where f.id = ? and f.user_id = ?`,
    [variant, fileId, userId],
  );
  if (!row) return null;
  const { variantStatus, variantKey, width, height, error, ...file } = row;
  return { file, variant: variantStatus ? { status: variantStatus, storageKey: variantKey, width, height, error } : null };
}

/**
 * Takes the transaction's advisory locks on the variants of a file, in the order given, in one
 * statement (a select list is evaluated left to right). On the transaction's own connection, so the
 * locks last until it commits; two makers of the same variant run one after the other.
 */
export async function lockVariants(tx: EntityManager, fileId: string, variants: readonly string[]): Promise<void> {
  await tx.execute(
    `select ${variants.map(() => 'pg_advisory_xact_lock(hashtextextended(?, 0))').join(', ')}`,
    variants.map((variant) => `image-variant:${fileId}:${variant}`),
  );
}
