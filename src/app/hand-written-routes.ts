import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { fileRoutes } from '../files/file.routes.js';
import { progressPhotoRoutes } from '../body/progress-photo.routes.js';
import { transactionExportRoutes } from '../finance/transaction-export.routes.js';
import { exportRoutes } from '../portability/export/export.routes.js';
import { brainExportRoutes } from '../brain/export/brain-export.routes.js';
import { importRoutes } from '../portability/import/import.routes.js';
import { deletionRoutes } from '../portability/deletion/deletion.routes.js';
import { brainPublicFormRoutes } from '../brain/forms/public-forms.routes.js';

/**
 * Session API routes that Sofa cannot serve: multipart uploads (streamed with busboy) and raw file
 * bytes. Mounted on /api/v1 in front of the Sofa surface; same session cookie, same envelopes.
 *
 * POST /files/upload              multipart `file`, `fileType`                → 201 File + url
 * GET  /files/:fileId/download    the bytes, owner only (session cookie)
 * GET  /files/:fileId/content     the bytes behind a signed URL (disk adapter)
 * POST /body-composition/photos   multipart `file`, `dayId`, `pose`, `notes` → 201 ProgressPhoto
 * GET  /transactions/export       ?format=csv and the list's filters          → text/csv
 * POST /account/export            starts the account export job               → 202 { id, status }
 * GET  /account/export/:id        its state and, once done, a signed url
 * GET  /account/export/:id/download  the zip (owner, signed link, 24 h)
 * GET  /brain/export              the Brain as a zip (Markdown notes, …)     → application/zip
 * POST /account/import/:source     multipart `file` (+ `accountId`, `mapping`)  → 202 { id, status }
 * GET  /account/import/:importId   the import's outcome
 * DELETE /account                  JSON `{ password }`                         → the account and all its data
 * GET  /brain/public/forms/:publicSlug, POST …/submit  public form routes: no login, the
 *                                 X-Brain-Access-Password header, the httpOnly respondent cookie
 *                                 (src/brain/forms/public-forms.routes.ts)
 */
export function uploadRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(fileRoutes(deps));
  router.use(progressPhotoRoutes(deps));
  router.use(transactionExportRoutes(deps));
  router.use(exportRoutes(deps));
  router.use(brainExportRoutes(deps));
  router.use(importRoutes(deps));
  router.use(deletionRoutes(deps));
  router.use(brainPublicFormRoutes(deps));
  return router;
}

const STREAMED_UPLOADS = [/^\/api\/v1\/files\/upload\/?$/, /^\/api\/v1\/body-composition\/photos\/?$/, /^\/api\/v1\/account\/import\/[^/]+\/?$/];

/** Multipart uploads are limited by MAX_FILE_SIZE while streaming, not by the JSON body limit. */
export function isStreamedUpload(method: string, path: string): boolean {
  return method === 'POST' && STREAMED_UPLOADS.some((re) => re.test(path));
}
