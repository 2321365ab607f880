import type pg from 'pg';
import type { Slots } from '../core/concurrency-slots.js';
import type { AppDeps } from '../core/context.js';
import type { Logger } from '../core/logger.js';
import { NudgedLoop } from '../jobs/nudged-loop.js';
import { reminderLink } from './app-links.js';
import type { Channel, ChannelResult } from './channels/channel.js';
import type { PushDeliveryHealth } from './push-health.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from './kinds/index.js';
import { kindContext, type ReminderChannelName, type ReminderMessage, type ReminderSpec } from './reminder-kind.js';
import { deferDeliveries, minuteOf, reserveSends } from './send-budget.queries.js';
import { claimDueDeliveries, pushSubscriptionsOf, recordOutcomes, type ClaimedDelivery, type Outcome, type StoredPushSubscription } from './reminder-engine.queries.js';

/** Sends in flight per process, and deliveries claimed per statement. */
const MAX_IN_FLIGHT = 64;
/** Attempts per delivery: at once, then 1 and 2 backoff units later (REMINDER_BACKOFF_UNIT_MS). */
export const MAX_ATTEMPTS = 3;
/** Push subscriptions a send reaches per user. */
export const SUBSCRIPTIONS_PER_USER = 20;
/** An email's SMTP exchange is given this long (the mailer's own timeouts are minutes), and its lease a minute more. */
export const MAIL_SEND_MS = 4 * 60_000;
/** Outcomes are written together: at most this many per statement, and at most this long after the first. */
const OUTCOME_BATCH = 200;
const OUTCOME_WAIT_MS = 5;

export interface DispatcherOptions {
  pool: pg.Pool;
  /**
   * The composed app's parts, which the kinds' services are made from (serviceFor). A function: this
   * engine is one of them, so they are read when a kind runs, once the composition is complete.
   */
  deps(): AppDeps;
  logger: Logger;
  kindSlots: Slots;
  channels: Record<ReminderChannelName, Channel>;
  /** Read at send time (BASE_URL may follow the port taken). */
  baseUrl(): string;
  /** APP_URL: the rich client reminder links open in; unset, they open the service's `/` page. */
  appUrl(): string | undefined;
  /** The channels' HTTP timeout: a send starts only when it can end before its lease. */
  timeoutMs: number;
  /** REMINDER_LEASE_MS: how long a claimed send is this instance's (above timeoutMs + 2 s). */
  leaseMs: number;
  backoffUnitMs: number;
  /** REMINDER_SENDS_PER_MINUTE: deliveries one person may be sent per clock minute (send-budget.queries.ts). */
  sendsPerMinute: number;
  /** Told how each push send went (/readyz's `push`). */
  pushHealth?: PushDeliveryHealth;
}

/**
 * Sends due deliveries: claims them (each claim raises `attempts` and sets the lease, once across all
 * instances), asks the kind whether the occurrence is still due and what it says, sends it on its
 * channel, and records the outcome. The lease (REMINDER_LEASE_MS, by default timeout + 10 s; for email MAIL_SEND_MS + 1 min) covers the send: a delivery whose
 * instance died is taken over by the next claim after its lease (the sweep), and a send starts only
 * while it can finish inside its lease, so two instances never send one attempt. The one window left:
 * a process that dies after the receiver accepted a send and before its outcome is written sends it
 * again after the lease (at-least-once there, by the nature of an HTTP POST or an SMTP transaction).
 */
export class DeliveryDispatcher {
  private inFlight = 0;
  private readonly work = new Set<Promise<unknown>>();
  private readonly loop: NudgedLoop;
  /** The last claim took all it could: a finishing send claims again. */
  private mayHaveMore = false;
  private readonly writer: OutcomeWriter;
  /** The clock claims and backoffs read (tests pass instants instead of waiting for minutes to pass). */
  now: () => Date = () => new Date();

  constructor(private readonly options: DispatcherOptions) {
    this.writer = new OutcomeWriter(options.pool, options.logger);
    this.loop = new NudgedLoop(
      () => this.claimAndStart(),
      (error) => options.logger.error({ err: error }, 'reminder dispatch failed'),
    );
  }

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** Claims and starts what is due now, or once more right after the run in progress. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Nothing new starts; sends in flight finish and their outcomes are written. */
  async drain(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.work]);
    await this.writer.flush();
  }

  /** Resolves once nothing is being claimed or sent (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.loop.busy || this.work.size) {
      await this.loop.settled();
      await Promise.allSettled([...this.work]);
    }
    await this.writer.flush();
  }

  /** One claim; answers whether more may be due right away. */
  private async claimAndStart(): Promise<boolean> {
    const free = MAX_IN_FLIGHT - this.inFlight;
    // No free slot: a finishing send claims again.
    if (free <= 0) {
      this.mayHaveMore = true;
      return false;
    }
    const now = this.now();
    const lease = new Date(now.getTime() + this.leaseMs);
    const mailLease = new Date(now.getTime() + MAIL_SEND_MS + 60_000);
    const all = await claimDueDeliveries(this.options.pool, now, lease, mailLease, free, MAX_ATTEMPTS);
    this.mayHaveMore = all.length === free;
    if (!all.length) return false;
    const claimed = await this.withinBudget(all, now);
    const pushUsers = [...new Set(claimed.filter((d) => d.channel === 'web_push').map((d) => d.user_id))];
    const subscriptions = new Map<string, StoredPushSubscription[]>();
    if (pushUsers.length) {
      for (const s of await pushSubscriptionsOf(this.options.pool, pushUsers, now, SUBSCRIPTIONS_PER_USER)) {
        subscriptions.set(s.user_id, [...(subscriptions.get(s.user_id) ?? []), s]);
      }
    }
    for (const delivery of claimed) {
      this.inFlight++;
      const work = this.process(delivery, subscriptions.get(delivery.user_id) ?? [], new Date(delivery.lease_until))
        .catch((error) => this.options.logger.error({ err: error, deliveryId: delivery.id }, 'reminder delivery failed'))
        .finally(() => {
          this.inFlight--;
          this.work.delete(work);
          if (this.mayHaveMore) this.nudge();
        });
      this.work.add(work);
    }
    return all.length === free;
  }

  /**
   * The per-person budget, here where every channel passes: the claimed deliveries each person may be
   * sent this minute (earliest first); the rest are deferred to the next minute, not lost. So 500 due
   * reminders of one person become REMINDER_SENDS_PER_MINUTE sends a minute, each reaching at most
   * SUBSCRIPTIONS_PER_USER browsers.
   */
  private async withinBudget(claimed: ClaimedDelivery[], now: Date): Promise<ClaimedDelivery[]> {
    const wanted = new Map<string, number>();
    for (const d of claimed) wanted.set(d.user_id, (wanted.get(d.user_id) ?? 0) + 1);
    const granted = await reserveSends(this.options.pool, wanted, now, this.options.sendsPerMinute);
    const sending: ClaimedDelivery[] = [];
    const deferred: string[] = [];
    const earliestFirst = [...claimed].sort((a, b) => new Date(a.due_at).getTime() - new Date(b.due_at).getTime());
    for (const d of earliestFirst) {
      const left = granted.get(d.user_id) ?? 0;
      if (left > 0) {
        granted.set(d.user_id, left - 1);
        sending.push(d);
      } else deferred.push(d.id);
    }
    await deferDeliveries(this.options.pool, deferred, new Date(minuteOf(now).getTime() + 60_000), now);
    return sending;
  }

  private async process(delivery: ClaimedDelivery, subscriptions: StoredPushSubscription[], lease: Date): Promise<void> {
    const attempt = delivery.attempts;
    const outcome = (status: Outcome['status'], error: string | null, nextAttemptAt: Date | null = null): Outcome => ({ id: delivery.id, attempt, status, error, nextAttemptAt });
    let result: Outcome;
    try {
      result = await this.attempt(delivery, subscriptions, lease, outcome);
    } catch (error) {
      this.options.logger.error({ err: error, deliveryId: delivery.id, kind: delivery.kind }, 'reminder delivery attempt failed');
      result = this.retryOrFail(outcome, attempt, `internal error: ${(error as Error).message}`);
    }
    await this.writer.write(result);
  }

  private async attempt(
    delivery: ClaimedDelivery,
    subscriptions: StoredPushSubscription[],
    lease: Date,
    outcome: (status: Outcome['status'], error: string | null, nextAttemptAt?: Date | null) => Outcome,
  ): Promise<Outcome> {
    if (!delivery.active) return outcome('skipped', 'The reminder is paused');
    const kind = REMINDER_KIND_IMPLEMENTATIONS[delivery.kind];
    if (!kind) return outcome('failed', `Reminders of kind ${delivery.kind} are not available`);
    const spec: ReminderSpec = {
      id: delivery.reminder_id,
      userId: delivery.user_id,
      kind: delivery.kind,
      targetId: delivery.target_id,
      offsetMinutes: delivery.offset_minutes,
      localTime: delivery.local_time,
    };
    const occurrence = { dueAt: new Date(delivery.due_at), key: delivery.occurrence_key };
    const message = await this.options.kindSlots.run(async (): Promise<ReminderMessage | null> => {
      const deps = this.options.deps();
      const ctx = kindContext({ deps, em: deps.orm.em.fork() }, delivery.timezone);
      if (!(await kind.stillDue(ctx, spec, occurrence))) return null;
      return kind.message(ctx, spec, occurrence);
    });
    if (!message) return outcome('skipped', 'No longer due: its target is done, deleted or moved');
    // Too little of the lease left to finish the send inside it: leave it for the next claim.
    const sendMs = delivery.channel === 'email' ? MAIL_SEND_MS : this.options.timeoutMs;
    if (Date.now() + sendMs + 2000 > lease.getTime()) return outcome('pending', 'The lease ran short before sending', new Date());
    const link = reminderLink({ appUrl: this.options.appUrl(), baseUrl: this.options.baseUrl() }, delivery.kind, delivery.occurrence_key, message);
    const sent: ChannelResult = await this.options.channels[delivery.channel].send({ delivery, message, link, subscriptions });
    if (delivery.channel !== 'email' && sent.status !== 'failed') this.options.pushHealth?.record(sent.status === 'sent');
    if (sent.status === 'sent') return outcome('sent', sent.note ?? null);
    if (sent.status === 'failed') return outcome('failed', sent.error);
    return this.retryOrFail(outcome, delivery.attempts, sent.error);
  }

  private retryOrFail(outcome: (status: Outcome['status'], error: string | null, nextAttemptAt?: Date | null) => Outcome, attempt: number, error: string): Outcome {
    if (attempt >= MAX_ATTEMPTS) return outcome('failed', `${error} (after ${attempt} attempts)`);
    return outcome('pending', error, new Date(this.now().getTime() + this.options.backoffUnitMs * 2 ** (attempt - 1)));
  }
}

/**
 * Writes outcomes in batches (one statement for up to OUTCOME_BATCH, a few milliseconds after the
 * first), retrying a failed write a few times: an outcome never written means a resend after the lease.
 */
class OutcomeWriter {
  private queue: { outcome: Outcome; done: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  write(outcome: Outcome): Promise<void> {
    return new Promise<void>((done) => {
      this.queue.push({ outcome, done });
      if (this.queue.length >= OUTCOME_BATCH) this.schedule(0);
      else this.schedule(OUTCOME_WAIT_MS);
    });
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue.splice(0, this.queue.length);
    this.writing = this.writing.then(() => this.writeBatch(batch));
    await this.writing;
  }

  private schedule(ms: number): void {
    if (this.timer && ms > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private async writeBatch(batch: { outcome: Outcome; done: () => void }[]): Promise<void> {
    for (let i = 0; i < batch.length; i += OUTCOME_BATCH) {
      const part = batch.slice(i, i + OUTCOME_BATCH);
      for (let attempt = 1; ; attempt++) {
        try {
          await recordOutcomes(this.pool, part.map((p) => p.outcome), new Date());
          break;
        } catch (error) {
          if (attempt >= 5) {
            this.logger.error({ err: error, count: part.length }, 'could not record reminder outcomes: they are sent again after their lease');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
      for (const p of part) p.done();
    }
  }
}
