import type { Request, Response } from 'express';
import type { AppContext, AppDeps } from '../core/context.js';
import { serviceFor } from '../core/request-services.js';
import { sendError as sendSessionRouteError, sessionRoute, type SessionScope } from '../http/session-route.js';
import { VariantName } from './file-kinds.js';
import { FileService } from './file.service.js';
import type { FilesRuntime } from './files-runtime.js';
import { UploadRefused } from './multipart.js';
import type { StoredFile } from './stored-file.entity.js';

export { answerAfterBody, methodNotAllowed, requireUuid, sendData } from '../http/session-route.js';

/** A refused upload answers the error it carries. */
const unwrapUpload = (error: unknown): unknown => (error instanceof UploadRefused ? error.error : error);

/** The error envelope for a failed upload or file route (a refused upload answers the error it carries). */
export function sendError(req: Request, res: Response, error: unknown, log: AppContext['log']): void {
  sendSessionRouteError(req, res, unwrapUpload(error), log);
}

export interface UploadScope extends SessionScope {
  rt: FilesRuntime;
  files: FileService;
}

/** A session-authenticated file route: the session scope plus the file storage. */
export function sessionHandler(deps: AppDeps, handle: (scope: UploadScope, req: Request, res: Response) => Promise<void>) {
  return sessionRoute(
    deps,
    async (scope, req, res) => {
      const rt = deps.files;
      await handle({ ...scope, rt, files: serviceFor(scope.ctx, FileService) }, req, res);
    },
    unwrapUpload,
  );
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
