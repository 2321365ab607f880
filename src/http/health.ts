import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { pingDatabase } from '../core/database/ping.js';
import { errorEnvelope } from './envelope.js';

/** How long one dependency's check may take before it counts as down (a probe never hangs). */
export const CHECK_TIMEOUT_MS = 2_000;

/**
 * One configured dependency as /readyz reports it. A required one (the database, the job backend)
 * makes the instance not ready while down; any other is reported, and the instance keeps serving
 * without it as the dependency policy of docs/operations.md says.
 */
export interface DependencyCheck {
  name: string;
  required: boolean;
  /**
   * Resolves when the dependency answers (or with a passive report: `degraded` and what it saw);
   * throws when it does not. Given a signal that aborts after CHECK_TIMEOUT_MS.
   */
  check(signal: AbortSignal): Promise<void | PassiveReport>;
  /**
   * How long an answer is reused (a /readyz flood must not become a flood of SMTP, S3 or identity
   * provider probes). 0: every /readyz asks, though requests arriving together share one check.
   */
  cacheMs?: number;
}

export type DependencyState = 'up' | 'degraded' | 'down';

/** What a dependency without an active probe reports from the last real operations (its other fields are listed too). */
export interface PassiveReport {
  state: 'up' | 'degraded';
}

type Report = { state: DependencyState; [detail: string]: unknown };

async function reportOf(dependency: DependencyCheck): Promise<Report> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${dependency.name} did not answer in ${CHECK_TIMEOUT_MS} ms`));
    }, CHECK_TIMEOUT_MS);
  });
  try {
    const report = await Promise.race([dependency.check(controller.signal), timeout]);
    return report ? { ...report } : { state: 'up' };
  } catch {
    return { state: 'down' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shares one check among the /readyz requests that arrive while it runs, and reuses it for `cacheMs`
 * as measured by `now` (a clock a test can pass in).
 */
export function sharedCheck(dependency: DependencyCheck, now: () => number = Date.now): () => Promise<Report> {
  let last: { promise: Promise<Report>; settledAt?: number } | undefined;
  const cacheMs = dependency.cacheMs ?? 0;
  return () => {
    if (last && (last.settledAt === undefined || now() - last.settledAt < cacheMs)) return last.promise;
    const entry: { promise: Promise<Report>; settledAt?: number } = { promise: reportOf(dependency) };
    void entry.promise.then(() => (entry.settledAt = now()));
    last = entry;
    return entry.promise;
  };
}

/**
 * Liveness, and readiness: ready (200, `status: "ready"`) while every required dependency answers,
 * else 503 in the error envelope. Both answers list each configured dependency's state in
 * `dependencies` (name → { state, required, …what a passive report adds }), checked together, each
 * within CHECK_TIMEOUT_MS; `degraded` and optional `down` never make the instance not ready.
 */
export function healthRoutes(deps: AppDeps, others: DependencyCheck[] = []): Router {
  const dependencies: DependencyCheck[] = [{ name: 'database', required: true, check: () => pingDatabase(deps.orm) }, ...others];
  const checks = dependencies.map((dependency) => sharedCheck(dependency));
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true, data: { status: 'alive' } });
  });
  router.get('/readyz', async (_req, res) => {
    const reports = await Promise.all(checks.map((check) => check()));
    const report = Object.fromEntries(dependencies.map((d, i) => [d.name, { ...reports[i], required: d.required }]));
    const down = dependencies.filter((_, i) => reports[i]!.state === 'down');
    if (down.some((d) => d.required)) {
      deps.logger.warn({ down: down.map((d) => d.name) }, 'readiness check failed');
      res.status(503).json(errorEnvelope({ status: 503, code: 'INTERNAL_ERROR', message: 'Not ready', details: { dependencies: report } }));
      return;
    }
    res.json({ ok: true, data: { status: 'ready', dependencies: report } });
  });
  return router;
}
