import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import type { GraphQLSchema } from 'graphql';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { fileRouteGroup } from '../files/file.routes.js';
import { progressPhotoRouteGroup } from '../body/progress-photo.routes.js';
import { transactionExportRouteGroup } from '../finance/transaction-export.routes.js';
import { accountExportRouteGroup } from '../portability/export/export.routes.js';
import { brainExportRouteGroup } from '../brain/export/brain-export.routes.js';
import { importRouteGroup } from '../portability/import/import.routes.js';
import { accountDeletionRouteGroup } from '../portability/deletion/deletion.routes.js';
import { publicFormRouteGroup } from '../brain/forms/public-forms.routes.js';
import { oidcRouteGroup } from '../accounts/oidc/oidc.routes.js';
import { eventsStreamRouteGroup } from '../live/events-stream.routes.js';

/**
 * The Session API routes Sofa cannot serve (multipart uploads, file bytes, zips, the public form
 * routes), each group declared beside its handlers with its description and its streamed uploads
 * (src/http/hand-written-routes.ts). A new hand-written route joins its group, or adds one here.
 */
export const HAND_WRITTEN_ROUTES: readonly HandWrittenRoutes[] = [
  fileRouteGroup,
  progressPhotoRouteGroup,
  transactionExportRouteGroup,
  accountExportRouteGroup,
  brainExportRouteGroup,
  importRouteGroup,
  accountDeletionRouteGroup,
  publicFormRouteGroup,
  oidcRouteGroup,
  eventsStreamRouteGroup,
];

/** Every group's routes, mounted on /api/v1 in front of the Sofa surface (same session cookie, same envelopes). */
export function handWrittenRoutes(deps: AppDeps, schema: GraphQLSchema): Router {
  const router = Router();
  for (const group of HAND_WRITTEN_ROUTES) router.use(group.router(deps, schema));
  return router;
}

/** Every group's OpenAPI path items, for the Session API document. */
export function handWrittenPaths(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const group of HAND_WRITTEN_ROUTES) {
    for (const [path, item] of Object.entries(group.openapi)) {
      if (path in paths) throw new Error(`two hand-written route groups describe ${path}`);
      paths[path] = item;
    }
  }
  return paths;
}

const streamed = HAND_WRITTEN_ROUTES.flatMap((group) => group.streamedUploads ?? []).map(
  (path) => new RegExp(`^/api/v1${path.replace(/:[^/]+/g, '[^/]+')}/?$`),
);

/** Multipart uploads are limited by MAX_FILE_SIZE while streaming, not by the JSON body limit. */
export function isStreamedUpload(method: string, path: string): boolean {
  return method === 'POST' && streamed.some((re) => re.test(path));
}

const authLimited = HAND_WRITTEN_ROUTES.flatMap((group) => group.authLimited ?? []).map(
  (path) => new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}/?$`),
);

/** Whether a path below /api/v1 is a hand-written sign-in route, counted by the auth rate limit. */
export function isAuthLimitedHandWrittenRoute(path: string): boolean {
  return authLimited.some((re) => re.test(path));
}
