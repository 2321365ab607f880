import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { pingDatabase } from '../core/database/ping.js';
import { errorEnvelope } from './envelope.js';

/** How long one dependency's check may take before it counts as down (a probe never hangs). */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * One configured dependency as /readyz reports it. A required one (the database, the job backend)
 * makes the instance not ready while down; any other is reported, and the instance keeps serving
 * without it as the README's dependency policy says.
 */
export interface DependencyCheck {
  name: string;
  required: boolean;
  /** Resolves when the dependency answers; throws when it does not. */
  check(): Promise<void>;
}

export type DependencyState = 'up' | 'down';

async function stateOf(dependency: DependencyCheck): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${dependency.name} did not answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([dependency.check(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness, and readiness: ready (200, `status: "ready"`) while every required dependency answers,
 * else 503 in the error envelope. Both answers list each configured dependency's state in
 * `dependencies` (name → { state, required }), checked together, each within CHECK_TIMEOUT_MS.
 */
export function healthRoutes(deps: AppDeps, others: DependencyCheck[] = []): Router {
  const dependencies: DependencyCheck[] = [{ name: 'database', required: true, check: () => pingDatabase(deps.orm) }, ...others];
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true, data: { status: 'alive' } });
  });
  router.get('/readyz', async (_req, res) => {
    const states = await Promise.all(dependencies.map(stateOf));
    const report = Object.fromEntries(dependencies.map((d, i) => [d.name, { state: states[i], required: d.required }]));
    const down = dependencies.filter((_, i) => states[i] === 'down');
    if (down.some((d) => d.required)) {
      deps.logger.warn({ down: down.map((d) => d.name) }, 'readiness check failed');
      res.status(503).json(errorEnvelope({ status: 503, code: 'INTERNAL_ERROR', message: 'Not ready', details: { dependencies: report } }));
      return;
    }
    res.json({ ok: true, data: { status: 'ready', dependencies: report } });
  });
  return router;
}
