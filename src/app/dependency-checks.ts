import type { RedisClientType } from 'redis';
import type { AppDeps } from '../core/context.js';
import { pingRedis } from '../core/redis-connection.js';
import { CHECK_TIMEOUT_MS, type DependencyCheck } from '../http/health.js';
import { probeProvider } from '../accounts/oidc/oidc-client.js';

/**
 * What /readyz checks besides the database, one entry per configured dependency (docs/operations.md →
 * Dependencies). Only the job backend is required; the others are reported and the instance keeps
 * serving without them. Remote services are probed cheaply (SMTP: connect, greet, authenticate, quit;
 * S3: HeadBucket; OIDC: the discovery document) and their answers reused for READYZ_PROBE_CACHE_MS;
 * the push services are many endpoints chosen by browsers, so they are reported from the last real
 * sends instead.
 */
export function dependencyChecks(deps: AppDeps, redis?: RedisClientType): DependencyCheck[] {
  const { config, mailer } = deps;
  const cacheMs = config.readyzProbeCacheMs;
  const checks: DependencyCheck[] = [{ name: 'jobs', required: true, check: () => deps.jobs.ping() }];
  // Without Redis the instance counts limits in memory and delivers live updates locally.
  if (redis) checks.push({ name: 'redis', required: false, check: () => pingRedis(redis) });
  if (config.smtpUrl && mailer.verify) {
    checks.push({ name: 'smtp', required: false, cacheMs, check: () => mailer.verify!(CHECK_TIMEOUT_MS) });
  }
  if (config.files.s3) {
    checks.push({
      name: 's3',
      required: false,
      cacheMs,
      check: async (signal) => deps.files.adapter('s3').probe!(signal),
    });
  }
  const oidc = config.oidc;
  if (oidc) checks.push({ name: 'oidc', required: false, cacheMs, check: (signal) => probeProvider(oidc, signal) });
  checks.push({ name: 'push', required: false, check: async () => deps.reminders.pushHealth.report() });
  return checks;
}
