import { Router } from 'express';
import type { AppDeps } from '../src/core/context.js';
import { fileRoutes } from '../src/files/file.routes.js';
import { progressPhotoRoutes } from '../src/body/progress-photo.routes.js';
import { transactionExportRoutes } from '../src/finance/transaction-export.routes.js';
import { brainDatabaseRoutes } from '../src/brain/databases/databases.routes.js';
import { brainFormRoutes } from '../src/brain/forms/forms.routes.js';

/**
 * Session API routes that Sofa cannot serve: multipart uploads (streamed with busboy) and raw file
 * bytes. Mounted on /api/v1 in front of the Sofa surface; same session cookie, same envelopes.
 *
 * POST /files/upload              multipart `file`, `fileType`                → 201 File + url
 * GET  /files/:fileId/download    the bytes, owner only (session cookie)
 * GET  /files/:fileId/content     the bytes behind a signed URL (disk adapter)
 * POST /body-composition/photos   multipart `file`, `dayId`, `pose`, `notes` → 201 ProgressPhoto
 * GET  /transactions/export       ?format=csv and the list's filters          → text/csv
 * /brain/databases…, /brain/forms…, /brain/public/forms/…  JSON routes with free-form `values` and
 *                                 `config` (src/brain/databases, src/brain/forms)
 */
export function uploadRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(fileRoutes(deps));
  router.use(progressPhotoRoutes(deps));
  router.use(transactionExportRoutes(deps));
  router.use(brainDatabaseRoutes(deps));
  router.use(brainFormRoutes(deps));
  return router;
}

const STREAMED_UPLOADS = [/^\/api\/v1\/files\/upload\/?$/, /^\/api\/v1\/body-composition\/photos\/?$/];

/** Multipart uploads are limited by MAX_FILE_SIZE while streaming, not by the JSON body limit. */
export function isStreamedUpload(method: string, path: string): boolean {
  return method === 'POST' && STREAMED_UPLOADS.some((re) => re.test(path));
}
