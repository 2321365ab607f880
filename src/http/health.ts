import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { pingDatabase } from '../core/database/ping.js';

/** Liveness, and readiness = the database (and, once wired, the job backend) answers. */
export function healthRoutes(deps: AppDeps, readinessChecks: Array<() => Promise<void>> = []): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true, data: { status: 'alive' } });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await pingDatabase(deps.orm);
      for (const check of readinessChecks) await check();
      res.json({ ok: true, data: { status: 'ready' } });
    } catch (error) {
      deps.logger.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'Not ready' } });
    }
  });
  return router;
}
