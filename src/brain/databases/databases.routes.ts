import { Router } from 'express';
import type { AppDeps } from '../../core/context.js';
import { requireUuid, sendData, sessionRoute } from '../../http/session-route.js';
import { bodyOf, jsonBody } from './json-body.js';
import { createDatabase, databaseView, deleteDatabase, listDatabases, ownDatabase, updateDatabase } from './database.service.js';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from './record.service.js';

/**
 * Session API (cookie only; an API key never reaches /api/v1): Brain databases and their records.
 *
 * GET    /brain/databases                               list
 * POST   /brain/databases                               { name, properties[] }            → 201
 * GET    /brain/databases/:id                           one
 * PATCH  /brain/databases/:id                           { name?, properties? }
 * DELETE /brain/databases/:id                           with its records and forms
 * GET    /brain/databases/:id/records                   ?filter[<key>]=…&sort=<key>&order=asc|desc&page&limit
 * POST   /brain/databases/:id/records                   { values }                        → 201
 * GET    /brain/databases/:id/records/:recordId
 * PATCH  /brain/databases/:id/records/:recordId         { values } (merged; null removes)
 * DELETE /brain/databases/:id/records/:recordId
 */
export function brainDatabaseRoutes(deps: AppDeps): Router {
  const router = Router();
  const id = (value: unknown) => requireUuid(value as string, 'id');
  const recordId = (value: unknown) => requireUuid(value as string, 'recordId');

  router.get('/brain/databases', sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await listDatabases(ctx.em, userId))));
  router.post('/brain/databases', jsonBody, sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 201, await createDatabase(ctx.em, userId, bodyOf(req)))));
  router.get('/brain/databases/:id', sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, databaseView(await ownDatabase(ctx.em, userId, id(req.params.id))))));
  router.patch('/brain/databases/:id', jsonBody, sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await updateDatabase(ctx.em, userId, id(req.params.id), bodyOf(req)))));
  router.delete('/brain/databases/:id', sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await deleteDatabase(ctx.em, userId, id(req.params.id)))));

  router.get(
    '/brain/databases/:id/records',
    sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await listRecords(ctx.em, userId, id(req.params.id), req.query as Record<string, unknown>))),
  );
  router.post(
    '/brain/databases/:id/records',
    jsonBody,
    sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 201, await createRecord(ctx.em, userId, id(req.params.id), bodyOf(req)))),
  );
  router.get(
    '/brain/databases/:id/records/:recordId',
    sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await getRecord(ctx.em, userId, id(req.params.id), recordId(req.params.recordId)))),
  );
  router.patch(
    '/brain/databases/:id/records/:recordId',
    jsonBody,
    sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await updateRecord(ctx.em, userId, id(req.params.id), recordId(req.params.recordId), bodyOf(req)))),
  );
  router.delete(
    '/brain/databases/:id/records/:recordId',
    sessionRoute(deps, async ({ ctx, userId }, req, res) => sendData(req, res, 200, await deleteRecord(ctx.em, userId, id(req.params.id), recordId(req.params.recordId)))),
  );
  return router;
}
