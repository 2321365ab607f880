import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import type { Logger } from '../core/logger.js';

/** After a failed call, Redis is not tried again for this long (a hung Redis costs one timeout, not one per request). */
const RETRY_AFTER_FAILURE_MS = 1_000;

/**
 * A counter store that prefers the shared one (Redis) and fails open to this instance's memory: while
 * the shared store is unavailable or failing, every call (increment, get, decrement, reset) goes to a
 * MemoryStore of the same window, with one warning per outage; once the shared store answers again,
 * counting goes back to it. Limits stay enforced during an outage, per instance instead of shared.
 * Generic over what is counted (requests, sign-in attempts, wrong form passwords, second-factor
 * failures): every user of a limiter store gets the fallback.
 */
export class FailoverStore implements Store {
  readonly localKeys = false;
  /** The shared store's key prefix: express-rate-limit tells stores of one class apart by it (its double-count check). */
  readonly prefix: string | undefined;
  private readonly local = new MemoryStore();
  private options: Options | undefined;
  /** The shared store's set-up (its scripts loaded); redone after a failure, since Redis may have restarted empty. */
  private sharedReady: Promise<void> | undefined;
  private skipSharedUntil = 0;
  private fellBack = false;

  constructor(
    private readonly shared: Store,
    private readonly available: () => boolean,
    private readonly logger: Logger,
    private readonly name: string,
  ) {
    this.prefix = (shared as { prefix?: string }).prefix;
  }

  init(options: Options): void {
    this.options = options;
    this.local.init(options);
    if (!this.available()) return;
    const ready = (this.sharedReady = this.initShared());
    ready.catch(() => {
      if (this.sharedReady === ready) this.sharedReady = undefined; // the next call tries again
    });
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.run((store) => store.get?.(key) as Promise<ClientRateLimitInfo | undefined>);
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.run((store) => store.increment(key) as Promise<IncrementResponse>);
  }

  async decrement(key: string): Promise<void> {
    await this.run(async (store) => void (await store.decrement(key)));
  }

  async resetKey(key: string): Promise<void> {
    await this.run(async (store) => void (await store.resetKey(key)));
  }

  shutdown(): void {
    this.local.shutdown();
  }

  private async run<T>(operation: (store: Store) => Promise<T>): Promise<T> {
    if (Date.now() >= this.skipSharedUntil && this.available()) {
      try {
        await (this.sharedReady ??= this.initShared());
        const result = await operation(this.shared);
        if (this.fellBack) {
          this.fellBack = false;
          this.logger.info({ store: this.name }, 'rate limit counters shared again');
        }
        return result;
      } catch (error) {
        this.sharedReady = undefined;
        this.skipSharedUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
        this.fallBack(error);
      }
    } else this.fallBack(undefined);
    return operation(this.local);
  }

  private async initShared(): Promise<void> {
    await this.shared.init?.(this.options!);
  }

  private fallBack(error: unknown): void {
    if (this.fellBack) return;
    this.fellBack = true;
    this.logger.warn({ err: error, store: this.name }, 'rate limit counters unavailable: counting in this instance’s memory until they return');
  }
}
