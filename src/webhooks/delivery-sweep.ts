import type pg from 'pg';
import type { Logger } from '../core/logger.js';
import type { DeliveryAttempts } from './delivery-attempts.js';
import { failInterruptedLastAttempts, failPausedDeliveries, makeOverdueDue, overdueDeliveries } from './delivery.queries.js';

/** How often stuck deliveries (no job, a crashed attempt) are looked for, and how late they must be. */
const SWEEP_MS = 15_000;
const SWEEP_GRACE_MS = 30_000;

/**
 * Finds deliveries whose job was lost (a crash between commit and queueing, a crashed attempt) and
 * queues them again; fails pending deliveries of paused webhooks. Runs at start (anything overdue) and
 * every 15 s (overdue by more than 30 s). A duplicate job is harmless: the claim lets one attempt through.
 */
export class DeliverySweep {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly attempts: DeliveryAttempts,
    private readonly log: Logger,
    private readonly clock: () => Date,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.run(SWEEP_GRACE_MS), SWEEP_MS);
    this.timer.unref();
    await this.run(0);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async run(graceMs: number): Promise<void> {
    await this.sweep(graceMs).catch((error) => this.log.error({ err: error }, 'webhook sweep failed'));
  }

  /**
   * Makes every attempt due by the clock at once, in this process, as its job would when its time
   * comes; pending deliveries of paused webhooks fail. The claim still lets each attempt through once.
   */
  async attemptDue(): Promise<void> {
    if (this.attempts.stopping) return;
    const now = this.clock();
    await failPausedDeliveries(this.pool, now);
    const due = await overdueDeliveries(this.pool, now);
    await this.attempts.track(this.attempts.attemptAll(due.map((d) => ({ id: d.id, attempt: d.attempts + 1 }))));
  }

  async sweep(graceMs: number): Promise<void> {
    if (this.attempts.stopping) return;
    const now = this.clock();
    const cutoff = new Date(now.getTime() - graceMs);
    await failPausedDeliveries(this.pool, now);
    await failInterruptedLastAttempts(this.pool, now, cutoff);
    const stuck = await overdueDeliveries(this.pool, cutoff);
    if (!stuck.length) return;
    // A crashed attempt left its lease in next_attempt_at: make the row due now so the new claim passes.
    const due = await makeOverdueDue(this.pool, stuck.map((s) => s.id), now, cutoff);
    if (!due.length) return;
    this.log.info({ count: due.length }, 're-queuing webhook deliveries without a job');
    await this.attempts.queue(due, now);
  }
}
