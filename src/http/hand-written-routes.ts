import type { Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { AppDeps } from '../core/context.js';

/**
 * A group of hand-written Session API routes (what Sofa cannot serve: multipart uploads, file bytes,
 * zips, the public form routes), declared beside its handlers with what the rest of the service must
 * know of it. src/app/hand-written-routes.ts mounts every group on /api/v1 before the Sofa surface,
 * merges their descriptions into the Session API document and exempts their streamed bodies from the
 * JSON body limit.
 */
export interface HandWrittenRoutes {
  /** `schema`: for routes that run an operation (through src/graphql/limited-execution.ts). */
  router(deps: AppDeps, schema: GraphQLSchema): Router;
  /** OpenAPI path items, by path below /api/v1 (`{param}` templates). */
  openapi: Record<string, unknown>;
  /** POST paths below /api/v1 (Express patterns) whose multipart bodies are streamed and limited by MAX_FILE_SIZE instead. */
  streamedUploads?: string[];
  /** Paths below /api/v1 (Express patterns, any method) counted by the auth rate limit (sign-in routes). */
  authLimited?: string[];
}
