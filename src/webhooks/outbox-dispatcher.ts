import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../core/logger.js';
import { NotificationListener } from '../core/database/notification-listener.js';
import { inTransaction } from '../core/database/transaction.js';
import { NudgedLoop } from '../jobs/nudged-loop.js';
import {
  insertDeliveriesAndMarkDispatched,
  installNotifyTrigger,
  lockUndispatchedEvents,
  notifyTriggerInstalled,
  NOTIFY_CHANNEL,
  type NewDelivery,
} from './delivery.queries.js';
import type { DeliveryAttempt } from './delivery-rules.js';

const DISPATCH_BATCH = 500;
/** Poll for outbox rows with no notification: a missed one (a listener reconnecting, say), and events no endpoint subscribes to. */
const POLL_MS = 2000;

export interface OutboxDispatcherOptions {
  pool: pg.Pool;
  connectionString: string;
  logger: Logger;
  /** The first attempts of the deliveries a batch created (committed). */
  onDeliveries(deliveries: DeliveryAttempt[]): void;
}

/**
 * Turns undispatched `event_outbox` rows into one delivery per active, subscribed endpoint of the event's
 * user, in the transaction that marks the rows dispatched (`FOR UPDATE SKIP LOCKED`: instances never
 * dispatch a row twice). A trigger NOTIFYs when an inserted event has a subscribed endpoint, so dispatch
 * starts at once; a short poll covers a missed notification and marks the events nobody subscribes to.
 */
export class OutboxDispatcher {
  private readonly listener: NotificationListener;
  private timer: NodeJS.Timeout | undefined;
  private readonly loop: NudgedLoop;
  private wasListening = false;

  constructor(private readonly options: OutboxDispatcherOptions) {
    this.loop = new NudgedLoop(
      async () => (await this.dispatchBatch()) === DISPATCH_BATCH,
      (error) => options.logger.error({ err: error }, 'webhook dispatch failed'),
    );
    this.listener = new NotificationListener({
      connectionString: options.connectionString,
      channel: NOTIFY_CHANNEL,
      logger: options.logger,
      onNotification: () => this.nudge(),
      // A new LISTEN connection runs the dispatcher at once: events written while it was away are picked up.
      onListening: (listening) => {
        if (!listening) return;
        if (this.wasListening) options.logger.info('webhook listener reconnected');
        this.wasListening = true;
        this.nudge();
      },
    });
  }

  async start(): Promise<void> {
    await this.ensureNotifyTrigger();
    await this.listener.start();
    this.timer = setInterval(() => this.nudge(), POLL_MS);
    this.timer.unref();
    // Whatever the last run left undispatched.
    this.nudge();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.listener.stop();
    await this.loop.stop();
  }

  /**
   * The trigger is created idempotently at start. When it is already in place, as on every restart, one
   * read replaces the DDL transaction (whose commit waits on the WAL flush: ~0.1 s before readiness).
   */
  private async ensureNotifyTrigger(): Promise<void> {
    if (await notifyTriggerInstalled(this.options.pool)) return;
    await inTransaction(this.options.pool, (client) => installNotifyTrigger(client));
  }

  /** Runs the dispatcher now, or once more right after the run in progress. */
  nudge(): void {
    this.loop.nudge();
  }

  /** One transaction: lock a batch of outbox rows, insert their deliveries, mark the rows dispatched. */
  private async dispatchBatch(): Promise<number> {
    const created: NewDelivery[] = [];
    const count = await inTransaction(this.options.pool, async (client) => {
      const events = await lockUndispatchedEvents(client, DISPATCH_BATCH);
      if (!events.length) return 0;
      for (const event of events) {
        if (!event.endpoints.length) continue;
        const payload = JSON.stringify({ event: event.event, timestamp: new Date(event.occurred_at).toISOString(), data: event.data });
        for (const webhookId of event.endpoints) {
          created.push({ id: randomUUID(), userId: event.user_id, webhookId, deliveryId: randomUUID(), event: event.event, payload });
        }
      }
      await insertDeliveriesAndMarkDispatched(client, created, events.map((e) => e.id), new Date());
      return events.length;
    });
    if (created.length) this.options.onDeliveries(created.map((d) => ({ id: d.id, attempt: 1 })));
    return count;
  }
}
