import { randomUUID } from 'node:crypto';
import type { Agenda } from 'agenda';
import type pg from 'pg';
import { Slots } from '../core/concurrency-slots.js';
import type { Logger } from '../core/logger.js';
import { claimAttempt, failPausedDeliveries, recordAttempt } from './delivery.queries.js';
import { backoffBefore, DELIVERY_JOB, MAX_ATTEMPTS, type DeliveryAttempt, type DeliveryJobData } from './delivery-rules.js';
import type { SecretBox } from './webhook-secret.js';
import type { SendOutcome, WebhookSender } from './webhook-sender.js';

/** Deliveries per job, and sends in flight per process. */
const JOB_BATCH = 200;
const MAX_IN_FLIGHT = 64;

export interface DeliveryAttemptsOptions {
  pool: pg.Pool;
  agenda: Agenda;
  sender: WebhookSender;
  secrets: Promise<SecretBox>;
  timeoutMs: number;
  backoffUnitMs: number;
  logger: Logger;
  /** The instant claims, outcomes and backoffs are reckoned from (tests pass instants instead of waiting for backoffs). */
  clock(): Date;
}

/**
 * Makes delivery attempts: each is claimed atomically (only one instance sends a given attempt), POSTs
 * the stored body, records its outcome and queues the next attempt when one is due. Queues the Agenda
 * jobs that carry attempts, and tracks the attempts in flight so a stop lets them finish and record.
 */
export class DeliveryAttempts {
  private readonly sends = new Slots(MAX_IN_FLIGHT);
  private readonly inFlight = new Set<Promise<unknown>>();
  private refusing = false;

  constructor(private readonly options: DeliveryAttemptsOptions) {}

  /** Runs `work` as an attempt in flight (a stop waits for it). */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /** No new attempt starts; those in flight finish and record their outcome (each is bounded by the timeout). */
  async drain(): Promise<void> {
    this.refusing = true;
    await Promise.allSettled([...this.inFlight]);
  }

  get stopping(): boolean {
    return this.refusing;
  }

  /**
   * First attempts start at once in this process, without a queue round trip (the write-to-first-attempt
   * delay). Each batch still gets its Agenda job, saved alongside and due only after the attempts'
   * lease: if this process dies before they are done, that job (on any instance) makes them; once
   * they are done, the job is cancelled. Claims keep the two from ever sending an attempt twice.
   */
  runNow(deliveries: DeliveryAttempt[]): void {
    const backupAt = new Date(Date.now() + this.options.timeoutMs + 30_000);
    const saved = this.queue(deliveries, backupAt);
    const work = this.attemptAll(deliveries);
    void this.track(
      Promise.all([saved, work]).then(async ([jobIds]) => {
        // Stopping: attempts not made stay pending and their job stays queued.
        if (jobIds.length && !this.refusing) await this.options.agenda.cancel({ ids: jobIds });
      }),
    ).catch((error) => this.options.logger.warn({ err: error }, 'could not cancel a finished webhook job'));
  }

  /** Queues delivery jobs. A job lost here is found again by the sweep (the delivery stays pending). */
  async queue(deliveries: DeliveryAttempt[], at: Date): Promise<string[]> {
    const batches: DeliveryAttempt[][] = [];
    for (let i = 0; i < deliveries.length; i += JOB_BATCH) batches.push(deliveries.slice(i, i + JOB_BATCH));
    const results = await Promise.allSettled(
      batches.map((batch) => this.options.agenda.create<DeliveryJobData>(DELIVERY_JOB, { deliveries: batch }).schedule(at).save()),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) this.options.logger.warn({ err: (failed[0] as PromiseRejectedResult).reason, count: failed.length }, 'could not queue webhook deliveries; the sweep will');
    return results.flatMap((r) => (r.status === 'fulfilled' && r.value.attrs._id ? [String(r.value.attrs._id)] : []));
  }

  /** Runs a job's attempts side by side, at most MAX_IN_FLIGHT sends at a time in this process. */
  async attemptAll(deliveries: DeliveryAttempt[]): Promise<void> {
    const results = await Promise.allSettled(deliveries.map((d) => this.sends.run(() => this.attempt(d.id, d.attempt))));
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) this.options.logger.error({ err: (failed[0] as PromiseRejectedResult).reason, count: failed.length }, 'webhook attempts failed');
  }

  /**
   * Makes attempt `attempt` of a delivery, once across all instances. While it runs, the claim's lease
   * (timeout + 5 s) tells the sweep when to treat it as crashed.
   */
  async attempt(id: string, attempt: number): Promise<void> {
    if (this.refusing) return;
    const { pool, clock } = this.options;
    const now = clock();
    const claimed = await claimAttempt(pool, id, attempt, now, new Date(now.getTime() + this.options.timeoutMs + 5000));
    if (!claimed) {
      await failPausedDeliveries(pool, clock(), id);
      return;
    }
    let outcome: SendOutcome;
    try {
      const secret = (await this.options.secrets).open(claimed.secret_encrypted);
      outcome = await this.options.sender.send({ url: claimed.url, secret, event: claimed.event, deliveryId: claimed.delivery_id, body: claimed.payload });
    } catch (error) {
      outcome = { kind: 'network-error', error: `cannot sign the delivery: ${(error as Error).message}`, retry: false, durationMs: 0 };
    }
    try {
      await this.record(id, claimed.user_id, attempt, outcome);
    } catch (error) {
      // The webhook (and its history) was deleted while the attempt ran: nothing left to record.
      if ((error as { code?: string }).code === '23503') return;
      throw error;
    }
  }

  private async record(id: string, userId: string, attempt: number, outcome: SendOutcome): Promise<void> {
    const now = this.options.clock();
    let next: 'success' | 'failed' | 'pending';
    if (outcome.kind === 'success') next = 'success';
    else if (outcome.retry && attempt < MAX_ATTEMPTS) next = 'pending';
    else next = 'failed';
    const after = await recordAttempt(this.options.pool, {
      attemptRowId: randomUUID(),
      deliveryRecordId: id,
      userId,
      attempt,
      next,
      nextAttemptAt: next === 'pending' ? new Date(now.getTime() + backoffBefore(attempt + 1, this.options.backoffUnitMs)) : null,
      statusCode: outcome.kind === 'network-error' ? null : outcome.statusCode,
      responseBody: outcome.kind === 'network-error' ? null : outcome.responseBody,
      error: outcome.kind === 'network-error' ? outcome.error : null,
      durationMs: outcome.durationMs,
      now,
    });
    if (after?.status === 'pending' && after.next_attempt_at) {
      await this.queue([{ id, attempt: attempt + 1 }], new Date(after.next_attempt_at));
    }
  }
}
