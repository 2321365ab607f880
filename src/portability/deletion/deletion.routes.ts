import express, { Router } from 'express';
import { SESSION_COOKIE } from '../../accounts/session-token.js';
import type { AppDeps } from '../../core/context.js';
import { serviceFor } from '../../core/request-services.js';
import { deleted } from '../../core/deleted.js';
import { UnsupportedMediaTypeError, ValidationError } from '../../core/errors.js';
import { isJsonContentType } from '../../http/json-content-type.js';
import { sendData, sessionRoute } from '../../http/session-route.js';
import { removeOutboxMailsTo } from '../../mail/outbox-sweep.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { enqueuePurge } from './deletion.jobs.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { ACCOUNT_DELETION_PATHS } from './deletion.openapi.js';

const json = express.json({ limit: '16kb' });

/** DELETE /account with `{ password }` → 200 { id, message }, the session cookie cleared. */
export function deletionRoutes(deps: AppDeps): Router {
  const router = Router();
  router.delete(
    '/account',
    (req, _res, next) => next(isJsonContentType(req.headers['content-type']) ? undefined : new UnsupportedMediaTypeError(req.headers['content-type'])),
    json,
    sessionRoute(deps, async ({ ctx, userId }, req, res) => {
      const password = (req.body as Record<string, unknown> | undefined)?.password;
      if (typeof password !== 'string' || !password) {
        throw new ValidationError('password is required', [{ path: ['password'], message: 'password must be your current password' }]);
      }
      const { purgeId, email } = await serviceFor(ctx, AccountDeletionService).delete(userId, password, deps.config.files.storageAdapter);
      await enqueuePurge(deps, purgeId).catch((error) => ctx.log.error({ err: error, purgeId }, 'could not queue the storage purge; the next start queues it'));
      // After the answer: the outbox may hold many mails; a failure is logged, the account is gone anyway.
      deps.background.run('remove the outbox mails of a deleted account', async () => void (await removeOutboxMailsTo(deps.config.mailOutboxDir, email)));
      ctx.http.clearCookie(SESSION_COOKIE);
      sendData(req, res, 200, deleted(userId, 'Account'));
    }),
  );
  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them). */
export const accountDeletionRouteGroup: HandWrittenRoutes = { router: deletionRoutes, openapi: ACCOUNT_DELETION_PATHS };
