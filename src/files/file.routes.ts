import { Router, type Request, type Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppDeps } from '../core/context.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../core/errors.js';
import { VariantName } from './file-kinds.js';
import { findBlobToServe } from './files.queries.js';
import { receiveMultipart } from './multipart.js';
import { contentDisposition } from './safe-file-name.js';
import { fileView, methodNotAllowed, requireUuid, sendError, sessionHandler } from './upload-http.js';
import { answerUpload, sendsIdempotencyKey } from '../idempotency/keyed-upload.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { FILE_PATHS } from './file.openapi.js';

async function streamBlob(res: Response, open: () => Promise<Readable>, headers: Record<string, string>): Promise<void> {
  let body: Readable;
  try {
    body = await open();
  } catch {
    throw new NotFoundError('File content');
  }
  // A user's file is never a page of this service: a PDF (or an HTML or SVG that slipped in) opened
  // from this origin runs no script, submits no form and reads no cookie or storage (sandbox: a unique
  // origin). Viewers still show it inline.
  res.status(200).set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox', ...headers });
  await pipeline(body, res);
}

/**
 * POST /files/upload (multipart `file`, `fileType`), GET /files/:fileId/download (owner, session
 * cookie) and GET /files/:fileId/content (the signed URL handed out for the disk adapter).
 */
export function fileRoutes(deps: AppDeps): Router {
  const router = Router();

  router.post(
    '/files/upload',
    sessionHandler(deps, async ({ ctx, userId, rt, files }, req, res) => {
      const upload = await receiveMultipart(req, { maxFileSize: rt.settings.maxFileSize, stagingDir: rt.stagingDir, fieldNames: ['fileType'], digest: sendsIdempotencyKey(req) });
      await answerUpload({ ctx, userId }, req, res, upload, async () => {
        const checked = await files.check(upload, upload.fields.fileType);
        const file = await files.store(userId, checked);
        return { status: 201, data: await fileView(files, file) };
      });
    }),
  );

  router.get(
    '/files/:fileId/download',
    sessionHandler(deps, async ({ userId, rt, files }, req, res) => {
      const file = await files.get(userId, requireUuid(req.params.fileId as string, 'fileId'));
      await streamBlob(res, () => rt.adapter(file.storageAdapter).read(file.storageKey), {
        'Content-Type': file.mimeType,
        'Content-Length': String(file.size),
        'Content-Disposition': contentDisposition('attachment', file.fileName),
        'Cache-Control': 'private, no-store',
      });
    }),
  );

  // The signature is the credential (no cookie): a client can put this URL in an <img src>.
  router.get('/files/:fileId/content', async (req: Request, res: Response) => {
    try {
      const fileId = requireUuid(req.params.fileId as string, 'fileId');
      const variant = String(req.query.variant ?? VariantName.original);
      if (!(Object.values(VariantName) as string[]).includes(variant)) {
        throw new ValidationError('Unknown variant', [{ path: ['variant'], message: 'variant must be one of thumbnail, small, medium, large, original' }]);
      }
      const expires = Number(req.query.expires);
      const rt = deps.files;
      if (!rt.signer.verify(fileId, variant, expires, String(req.query.signature ?? ''))) {
        throw new UnauthorizedError('This file link is invalid or has expired');
      }
      const blob = await findBlobToServe(deps.orm.em.fork(), fileId, variant as VariantName);
      if (!blob) throw new NotFoundError(variant === VariantName.original ? 'File' : 'Image variant');
      await streamBlob(res, () => rt.adapter(blob.storageAdapter).read(blob.storageKey), {
        'Content-Type': blob.mimeType,
        'Content-Length': String(blob.size),
        'Content-Disposition': contentDisposition('inline', blob.fileName),
        'Cache-Control': `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`,
      });
    } catch (error) {
      sendError(req, res, error, deps.logger);
    }
  });

  router.all('/files/upload', methodNotAllowed('POST'));
  router.all('/files/:fileId/download', methodNotAllowed('GET, HEAD'));
  router.all('/files/:fileId/content', methodNotAllowed('GET, HEAD'));

  return router;
}

/** These routes with their description and streamed uploads (src/app/hand-written-routes.ts mounts them). */
export const fileRouteGroup: HandWrittenRoutes = { router: fileRoutes, openapi: FILE_PATHS, streamedUploads: ['/files/upload'] };
