import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { serviceFor } from '../core/request-services.js';
import { receiveMultipart } from '../files/multipart.js';
import { fileView, sendData, sessionHandler } from '../files/upload-http.js';
import { ProgressPhotoService } from './progress-photo.service.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { PROGRESS_PHOTO_PATHS } from './progress-photo.openapi.js';


/** POST /body-composition/photos: multipart `file`, `dayId`, `pose`, `notes`. GET stays a Sofa route. */
export function progressPhotoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post(
    '/body-composition/photos',
    sessionHandler(deps, async ({ ctx, userId, rt, files }, req, res) => {
      const upload = await receiveMultipart(req, { maxFileSize: rt.settings.maxFileSize, stagingDir: rt.stagingDir, fieldNames: ['dayId', 'pose', 'notes', 'fileType'] });
      const photo = await serviceFor(ctx, ProgressPhotoService).createFromUpload(userId, upload);
      const file = await files.get(userId, photo.fileId);
      sendData(req, res, 201, {
        id: photo.id,
        dayId: photo.dayId,
        fileId: photo.fileId,
        pose: photo.pose,
        notes: photo.notes ?? null,
        createdAt: photo.createdAt.toISOString(),
        updatedAt: photo.updatedAt.toISOString(),
        file: await fileView(files, file),
      });
    }),
  );
  return router;
}

/** These routes with their description and streamed uploads (src/app/hand-written-routes.ts mounts them). */
export const progressPhotoRouteGroup: HandWrittenRoutes = { router: progressPhotoRoutes, openapi: PROGRESS_PHOTO_PATHS, streamedUploads: ['/body-composition/photos'] };
