import type { Logger } from './logger.js';

/**
 * Work a request starts but does not wait for (a mail whose sending must not show in the answer's
 * timing). Failures are logged, never thrown at the caller; `idle()` lets shutdown (and tests) wait
 * until everything started has finished.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, work: () => Promise<void>): void {
    const done: Promise<void> = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.logger.error({ err: error, work: name }, 'background work failed'))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
