import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { AppDeps } from '../../core/context.js';
import { NotFoundError, UnauthorizedError } from '../../core/errors.js';
import { methodNotAllowed, requireUuid, sendData, sessionRoute } from '../../http/session-route.js';
import { ExportService } from './export.service.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { ACCOUNT_EXPORT_PATHS } from './export.openapi.js';

/**
 * The account export (operations.md "Portability"), session cookie on every route:
 *
 * POST /account/export                 → 202 { id, status }            starts the job (Agenda)
 * GET  /account/export/:id             → { id, status, url }           url once done (signed, 24 h)
 * GET  /account/export/:id/download    ?expires&signature → the zip   owner only, signature checked
 */
export function exportRoutes(deps: AppDeps): Router {
  const router = Router();
  const service = new ExportService(deps);

  router.post(
    '/account/export',
    sessionRoute(deps, async ({ userId }, req, res) => {
      const view = await service.start(userId);
      sendData(req, res, 202, { id: view.id, status: view.status });
    }),
  );

  router.get(
    '/account/export/:exportId',
    sessionRoute(deps, async ({ userId }, req, res) => {
      sendData(req, res, 200, await service.get(userId, requireUuid(req.params.exportId as string, 'exportId')));
    }),
  );

  router.get(
    '/account/export/:exportId/download',
    sessionRoute(deps, async ({ userId }, req, res) => {
      const id = requireUuid(req.params.exportId as string, 'exportId');
      const expires = Number(req.query.expires);
      const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
      if (!signature || !Number.isSafeInteger(expires)) throw new UnauthorizedError('This export link is invalid or has expired');
      const archive = await service.download(userId, id, expires, signature);
      let body: Readable;
      try {
        body = await archive.open();
      } catch {
        throw new NotFoundError('Export archive');
      }
      const day = archive.finishedAt.toISOString().slice(0, 10);
      res.status(200).set({
        'Content-Type': 'application/zip',
        ...(archive.size != null ? { 'Content-Length': String(archive.size) } : {}),
        'Content-Disposition': `attachment; filename="life-planner-export-${day}.zip"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      await pipeline(body, res);
    }),
  );

  router.all('/account/export', methodNotAllowed('POST'));
  router.all('/account/export/:exportId', methodNotAllowed('GET, HEAD'));
  router.all('/account/export/:exportId/download', methodNotAllowed('GET, HEAD'));
  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them). */
export const accountExportRouteGroup: HandWrittenRoutes = { router: exportRoutes, openapi: ACCOUNT_EXPORT_PATHS };
