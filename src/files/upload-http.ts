import type { Request, Response } from 'express';
import type { AppContext, AppDeps } from '../core/context.js';
import { AppError, appErrorBody, internalErrorBody, UnauthorizedError, ValidationError, type ErrorBody } from '../core/errors.js';
import { createRequestContext } from '../http/request-context.js';
import { errorEnvelope, successEnvelope } from '../../rest/envelope.js';
import { VariantName } from './file-kinds.js';
import { FileService } from './file.service.js';
import { filesRuntime, type FilesRuntime } from './files-runtime.js';
import { UploadRefused } from './multipart.js';
import type { StoredFile } from './stored-file.entity.js';

/** How much of an unread body is still read and dropped before answering, so the client sees the answer. */
const DRAIN_LIMIT = 32 * 1024 * 1024;

/** Answers only once the request body is read off (a client still sending would miss an early answer). */
export function answerAfterBody(req: Request, res: Response, send: () => void): void {
  if (req.complete || req.destroyed) {
    send();
    return;
  }
  let drained = 0;
  let sent = false;
  const finish = () => {
    if (sent) return;
    sent = true;
    send();
  };
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT && !sent) {
      res.setHeader('Connection', 'close');
      finish();
      req.destroy();
    }
  });
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

export function sendError(req: Request, res: Response, error: unknown, log: AppContext['log']): void {
  let body: ErrorBody;
  const cause = error instanceof UploadRefused ? error.error : error;
  if (cause instanceof AppError) body = appErrorBody(cause);
  else {
    log.error({ err: error }, 'unhandled error');
    body = internalErrorBody();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  answerAfterBody(req, res, () => res.status(body.status).json(errorEnvelope(body)));
}

export function sendData(req: Request, res: Response, status: number, payload: unknown): void {
  answerAfterBody(req, res, () => res.status(status).json(successEnvelope(payload)));
}

export interface UploadScope {
  ctx: AppContext;
  userId: string;
  rt: FilesRuntime;
  files: FileService;
}

/** A session-authenticated REST handler that is not a Sofa route (multipart uploads, byte streams). */
export function sessionHandler(deps: AppDeps, handle: (scope: UploadScope, req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response): Promise<void> => {
    let log: AppContext['log'] = deps.logger;
    try {
      const ctx = await createRequestContext(deps, req, res);
      log = ctx.log;
      if (!ctx.auth) throw new UnauthorizedError();
      const rt = await filesRuntime(deps);
      await handle({ ctx, userId: ctx.auth.user.id, rt, files: new FileService(ctx.em, rt) }, req, res);
    } catch (error) {
      sendError(req, res, error, log);
    }
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** operations.md: every id in a path is a UUID; another shape is a validation error (400). */
export function requireUuid(value: string | undefined, name: string): string {
  if (!value || !UUID_RE.test(value)) {
    throw new ValidationError(`${name} must be a UUID`, [{ path: [name], message: `${name} must be a UUID` }]);
  }
  return value.toLowerCase();
}

/** The REST shape of a file: the same fields as the GraphQL File type. */
export async function fileView(files: FileService, file: StoredFile): Promise<Record<string, unknown>> {
  const { url } = await files.signedUrl(file, file.storageKey, VariantName.original);
  return {
    id: file.id,
    userId: file.userId,
    fileName: file.fileName,
    fileType: file.fileType,
    mimeType: file.mimeType,
    size: file.size,
    storageKey: file.storageKey,
    storageAdapter: file.storageAdapter,
    isImage: file.isImage,
    metadata: file.metadata ?? null,
    createdAt: file.createdAt.toISOString(),
    updatedAt: file.updatedAt.toISOString(),
    url,
  };
}
