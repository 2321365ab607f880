import { Router } from 'express';
import { readFile } from 'node:fs/promises';
import type { AppDeps } from '../../core/context.js';
import { serviceFor } from '../../core/request-services.js';
import { ValidationError } from '../../core/errors.js';
import { receiveMultipart } from '../../files/multipart.js';
import { sendData, sessionHandler } from '../../files/upload-http.js';
import { answerUpload, sendsIdempotencyKey } from '../../idempotency/keyed-upload.js';
import { requireUuid, sessionRoute } from '../../http/session-route.js';
import { enqueueImport } from './import.jobs.js';
import { importView, ImportService, requireSource } from './import.service.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { IMPORT_PATHS } from './import.openapi.js';

const fileMissing = () => new ValidationError('file is required', [{ path: ['file'], message: 'send the CSV file in the file field' }]);

/**
 * POST /account/import/:source  multipart `file` (+ `accountId`, `mapping` for transactions) → 202 { id, status }
 * GET  /account/import/:id      → { id, status, created, skipped, refused: [{ row, reason }], refusedTotal, progress: { rows, done } }
 */
export function importRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post(
    '/account/import/:source',
    sessionHandler(deps, async ({ ctx, userId, rt }, req, res) => {
      const source = requireSource(req.params.source as string);
      const upload = await receiveMultipart(req, { maxFileSize: rt.settings.maxFileSize, stagingDir: rt.stagingDir, fieldNames: ['accountId', 'mapping'], digest: sendsIdempotencyKey(req) });
      await answerUpload({ ctx, userId }, req, res, upload, async () => {
        if (!upload.file) throw fileMissing();
        // At most MAX_FILE_SIZE bytes (receiveMultipart stops reading past it); read as a stream by the service.
        const content = await readFile(upload.file.path);
        await upload.discard();
        const fields = { ...upload.fields };
        if (source === 'transactions' && fields.accountId) fields.accountId = requireUuid(fields.accountId, 'accountId');
        const run = await serviceFor(ctx, ImportService).start(userId, source, content, fields);
        await enqueueImport(deps, run.id);
        return { status: 202, data: { id: run.id, status: run.status } };
      });
    }),
  );
  router.get(
    '/account/import/:importId',
    sessionRoute(deps, async ({ ctx, userId }, req, res) => {
      const id = requireUuid(req.params.importId as string, 'importId');
      sendData(req, res, 200, importView(await serviceFor(ctx, ImportService).get(userId, id)));
    }),
  );
  return router;
}

/** These routes with their description and streamed uploads (src/app/hand-written-routes.ts mounts them). */
export const importRouteGroup: HandWrittenRoutes = { router: importRoutes, openapi: IMPORT_PATHS, streamedUploads: ['/account/import/:source'] };
