import type { Job } from 'agenda';
import type { EngineParts } from '../core/context.js';
import { detach } from '../core/scheduled-work.js';
import type { Logger } from '../core/logger.js';
import type { JobCompanion } from '../jobs/job-runner.js';
import { GENERATE_VARIANTS_JOB, VARIANT_JOB_CONCURRENCY } from './files-runtime.js';
import { Slots } from '../core/concurrency-slots.js';
import { VariantService } from './variant.service.js';

/**
 * When the job runner makes an upload's variants itself: long after the local attempt normally ends,
 * so it runs only when that attempt failed or its process went away.
 */
export const BACKSTOP_DELAY_MS = 60_000;

/**
 * Eager variants start on the instance that stored the upload as soon as its row commits, rather than
 * when Agenda notices a queued job (a notification, a lock query and a queue fill: about 100 ms before
 * the first image, more while uploads keep the event loop busy). Agenda keeps the durable part: every
 * upload also gets a backstop job due BACKSTOP_DELAY_MS later, removed once the variants are made here;
 * it runs, on any instance and with Agenda's retries, only when the local attempt failed (storage,
 * database) or this process stopped first. Local work and backstop jobs share one limit of
 * VARIANT_JOB_CONCURRENCY images at a time; the advisory locks of VariantService keep every variant
 * made once whoever gets there first.
 */
export class VariantWorker implements JobCompanion {
  private readonly slots = new Slots(VARIANT_JOB_CONCURRENCY);
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: Logger;
  private stopping = false;

  /** Made where the app is composed (src/app/server.ts); its job is defined by registerFileJobs. */
  constructor(private readonly deps: EngineParts) {
    this.log = deps.logger.child({ module: 'files' });
    deps.jobs.attach(this); // started after the job runner, stopped before it
  }

  /**
   * Queues the backstop job and starts making the variants here. Resolves once the job is stored, so
   * an upload is answered only when its variants are sure to be made.
   */
  async submit(fileId: string): Promise<void> {
    const backstop = this.deps.jobs.agenda.schedule(new Date(Date.now() + BACKSTOP_DELAY_MS), GENERATE_VARIANTS_JOB, { fileId });
    if (!this.stopping) this.track(detach(() => this.makeHere(fileId, backstop)));
    await backstop;
  }

  /** Makes the variants now, within the shared limit (the backstop job's handler). */
  run(fileId: string): Promise<void> {
    return this.slots.run(() => this.make(fileId));
  }

  async start(): Promise<void> {
    this.stopping = false;
  }

  /** Lets the images in progress finish; the queued ones are left to their backstop jobs. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight]);
    // The render process ends with the work (a later lazy variant starts it again).
    await this.deps.files.renderer.close();
  }

  private async make(fileId: string): Promise<void> {
    await new VariantService(this.deps.orm.em.fork(), this.deps.files).ensureAll(fileId);
  }

  private async makeHere(fileId: string, backstop: Promise<Job<{ fileId: string }>>): Promise<void> {
    try {
      const made = await this.slots.run(async () => {
        if (this.stopping) return false;
        await this.make(fileId);
        return true;
      });
      if (!made) return;
    } catch (error) {
      this.log.warn({ err: error, fileId }, 'image variants failed here; the job runner will retry them');
      return;
    }
    try {
      await (await backstop).remove();
    } catch (error) {
      // The backstop then finds every variant made and does nothing.
      this.log.warn({ err: error, fileId }, 'could not remove the backstop job of made variants');
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}

declare module '../core/context.js' {
  interface Engines {
    /** Makes an upload's image variants on this instance, with a backstop job (VariantWorker). */
    variants: VariantWorker;
  }
}
