import { Router } from 'express';
import type { AppDeps } from '../../core/context.js';
import { sessionRoute } from '../../http/session-route.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { BRAIN_EXPORT_PATHS } from './brain-export.openapi.js';

/**
 * GET /brain/export: the user's Brain as a zip streamed by yazl (each part of BRAIN_EXPORT_PARTS adds
 * its files). The parts read everything first, so a failure still answers the JSON error envelope;
 * only then are the headers sent and the zip compressed into the response as it is read.
 */
export function brainExportRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get(
    '/brain/export',
    sessionRoute(deps, async ({ ctx, userId }, _req, res) => {
      // yazl and the parts (the notes' YAML front matter) are loaded by the first export, not at start-up (issue 18).
      const [{ default: yazl }, { BRAIN_EXPORT_PARTS }] = await Promise.all([import('yazl'), import('./brain-export-parts.js')]);
      const zip = new yazl.ZipFile();
      for (const part of BRAIN_EXPORT_PARTS) await part.write(zip, ctx.em, userId);
      const day = new Date().toISOString().slice(0, 10);
      res.status(200).set({
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="brain-${day}.zip"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      zip.outputStream.on('error', (error: Error) => {
        ctx.log.error({ err: error }, 'brain export failed while streaming');
        res.destroy(error);
      });
      zip.outputStream.pipe(res);
      zip.end();
    }),
  );
  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them). */
export const brainExportRouteGroup: HandWrittenRoutes = { router: brainExportRoutes, openapi: BRAIN_EXPORT_PATHS };
