import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { serviceFor } from '../core/request-services.js';
import { receiveMultipart } from '../files/multipart.js';
import { fileView, sessionHandler } from '../files/upload-http.js';
import { answerUpload, sendsIdempotencyKey } from '../idempotency/keyed-upload.js';
import { ProgressPhotoService } from './progress-photo.service.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { PROGRESS_PHOTO_PATHS } from './progress-photo.openapi.js';


/** POST /body-composition/photos: multipart `file`, `dayId`, `pose`, `notes`. GET stays a Sofa route. */
export function progressPhotoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post(
    '/body-composition/photos',
    sessionHandler(deps, async ({ ctx, userId, rt, files }, req, res) => {
      const upload = await receiveMultipart(req, { maxFileSize: rt.settings.maxFileSize, stagingDir: rt.stagingDir, fieldNames: ['dayId', 'pose', 'notes', 'fileType'], digest: sendsIdempotencyKey(req) });
      await answerUpload({ ctx, userId }, req, res, upload, async () => {
        const photo = await serviceFor(ctx, ProgressPhotoService).createFromUpload(userId, upload);
        const file = await files.get(userId, photo.fileId);
        const data = {
          id: photo.id,
          dayId: photo.dayId,
          fileId: photo.fileId,
          pose: photo.pose,
          notes: photo.notes ?? null,
          createdAt: photo.createdAt.toISOString(),
          updatedAt: photo.updatedAt.toISOString(),
          file: await fileView(files, file),
        };
        return { status: 201, data };
      });
    }),
  );
  return router;
}

/** These routes with their description and streamed uploads (src/app/hand-written-routes.ts mounts them). */
export const progressPhotoRouteGroup: HandWrittenRoutes = { router: progressPhotoRoutes, openapi: PROGRESS_PHOTO_PATHS, streamedUploads: ['/body-composition/photos'] };
