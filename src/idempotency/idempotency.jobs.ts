import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { purgeExpiredKeys } from './idempotency.queries.js';

export const PURGE_IDEMPOTENCY_KEYS_JOB = 'idempotency:purge-expired-keys';

/** Keys deleted per statement, and statements per run: a run is bounded, the rest waits for the next hour. */
const PURGE_CHUNK = 1000;
const PURGE_CHUNKS_PER_RUN = 100;

/**
 * Deletes keys past their 24 h, in chunks, as of `now` (a test passes its clock). A claim treats an
 * expired key as free anyway (idempotency.queries.ts), so the purge only keeps the table small.
 */
export async function purgeIdempotencyKeys(em: EntityManager, now: Date, signal?: AbortSignal): Promise<number> {
  let purged = 0;
  for (let i = 0; i < PURGE_CHUNKS_PER_RUN && !signal?.aborted; i++) {
    const n = await purgeExpiredKeys(em, now, PURGE_CHUNK);
    purged += n;
    if (n < PURGE_CHUNK) break;
  }
  return purged;
}

/** The purge, hourly (one Agenda job of type `single`: several instances share it). */
export function registerIdempotencyJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    PURGE_IDEMPOTENCY_KEYS_JOB,
    async () => {
      const purged = await deps.jobs.untilStopped((signal) => purgeIdempotencyKeys(deps.orm.em.fork(), new Date(), signal));
      if (purged) deps.logger.info({ purged }, 'expired idempotency keys purged');
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('1 hour', PURGE_IDEMPOTENCY_KEYS_JOB);
    },
    async stop() {},
  });
}
