import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../core/scalars.js';
import type { FilterQuery } from '@mikro-orm/core';
import { ValidationError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { FileType } from '../files/file-kinds.js';
import { FileService } from '../files/file.service.js';
import type { FilesRuntime } from '../files/files-runtime.js';
import type { MultipartUpload } from '../files/multipart.js';
import { dayRangeWhere, requireDay } from '../planning/day-scope.js';
import { PhotoPose, ProgressPhoto } from './progress-photo.entity.js';
import { PHOTO_NOTES_MAX, type ListProgressPhotosArgs } from './progress-photo.types.js';
import { findPage } from '../core/database/find-page.js';
import { removeOwned } from '../core/database/remove-owned.js';
import type { ServiceScope } from '../core/request-services.js';

export interface NewProgressPhoto {
  dayId: string;
  fileId: string;
  pose: PhotoPose;
  notes?: string | null;
}


/** Progress photos of one user; each references one of the user's own image files. */
export class ProgressPhotoService {
  /** Made for a request with the files runtime (storage adapters, signing). */
  static forRequest(ctx: ServiceScope): ProgressPhotoService {
    return new ProgressPhotoService(ctx.em, ctx.deps.files);
  }

  private readonly files: FileService;

  constructor(
    private readonly em: EntityManager,
    rt: FilesRuntime,
  ) {
    this.files = new FileService(em, rt);
  }

  async list(userId: string, filter: ListProgressPhotosArgs): Promise<Page<ProgressPhoto>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<ProgressPhoto>;
    return findPage(this.em, ProgressPhoto, where, { createdAt: 'asc', id: 'asc' }, filter);
  }

  /** From an already uploaded image (GraphQL). */
  async create(userId: string, input: NewProgressPhoto): Promise<ProgressPhoto> {
    await requireDay(this.em, userId, input.dayId);
    await this.files.requireOwnedFile(userId, input.fileId, { field: 'fileId', image: true });
    const photo = this.em.create(ProgressPhoto, { userId, dayId: input.dayId, fileId: input.fileId, pose: input.pose, notes: input.notes ?? null });
    await this.em.flush();
    return photo;
  }

  /** Removes the photo; its image file stays (it was uploaded on its own, and is deleted on its own). */
  async remove(userId: string, photoId: string): Promise<void> {
    await removeOwned(this.em, ProgressPhoto, userId, photoId, 'Progress photo');
    await this.em.flush();
  }

  /**
   * POST /body-composition/photos: the multipart fields are checked first, then the image is stored
   * and the photo written in the same transaction (a refusal leaves no file, blob or photo behind).
   */
  async createFromUpload(userId: string, upload: MultipartUpload): Promise<ProgressPhoto> {
    let photo: ProgressPhoto | undefined;
    try {
      const input = this.readFields(upload.fields);
      await requireDay(this.em, userId, input.dayId);
      const checked = await this.files.check(upload, FileType.image, FileType.image);
      await this.files.store(userId, checked, (tx, file) => {
        photo = tx.create(ProgressPhoto, { userId, dayId: input.dayId, fileId: file.id, pose: input.pose, notes: input.notes ?? null });
      });
    } catch (error) {
      await upload.discard();
      throw error;
    }
    return photo!;
  }

  private readFields(fields: Record<string, string>): Omit<NewProgressPhoto, 'fileId'> {
    const errors: { path: string[]; message: string }[] = [];
    const dayId = fields.dayId?.trim() ?? '';
    if (!isUuid(dayId)) errors.push({ path: ['dayId'], message: 'dayId must be a UUID' });
    const pose = fields.pose as PhotoPose;
    if (!Object.values(PhotoPose).includes(pose)) errors.push({ path: ['pose'], message: 'pose must be one of front, side, back, other' });
    const notes = fields.notes ?? null;
    if (notes !== null && notes.length > PHOTO_NOTES_MAX) errors.push({ path: ['notes'], message: `notes must be at most ${PHOTO_NOTES_MAX} characters` });
    if (errors.length) throw new ValidationError(errors[0]!.message, errors);
    return { dayId: dayId.toLowerCase(), pose, notes: notes === '' ? null : notes };
  }
}
