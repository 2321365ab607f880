import type { AppDeps } from '../core/context.js';
import { UndoService } from './undo.service.js';

export const SWEEP_UNDO_TOKENS_JOB = 'undo:sweep-expired-tokens';
/** Chunks (of 1,000) per run: a run is bounded, what is left waits for the next hour. */
const CHUNKS_PER_RUN = 100;

/** Deletes expired undo tokens every hour: an expired token is refused anyway, this only frees its row. */
export function registerUndoJobs(deps: AppDeps): void {
  deps.jobs.agenda.define(
    SWEEP_UNDO_TOKENS_JOB,
    async () => {
      const undo = new UndoService(deps.orm.em.fork(), deps);
      for (let chunk = 0; chunk < CHUNKS_PER_RUN; chunk++) {
        if ((await undo.sweep(new Date())) === 0) break;
      }
    },
    { concurrency: 1 },
  );
  deps.jobs.attach({
    async start() {
      await deps.jobs.agenda.every('1 hour', SWEEP_UNDO_TOKENS_JOB);
    },
    async stop() {},
  });
}
