import type pg from 'pg';
import type { Logger } from '../logger.js';
import { NotificationListener } from '../database/notification-listener.js';
import { notify, notifyStatement } from '../database/notify.js';
import { resilientPool } from '../database/resilient-pool.js';
import { encodeBatches, LiveListeners, NOTIFY_PAYLOAD_MAX_BYTES, TurnBatches, type LiveBus } from './live-bus.js';
import type { LiveBatch } from './live-change.js';

export const LIVE_CHANNEL = 'lp_live';
/** Sent after a commit on the bus's own connection (statement-counting tests leave it out by this text). */
export const LIVE_NOTIFY = notifyStatement(LIVE_CHANNEL);

/** A NOTIFY that fails (its connection was killed) is sent again this many times, each on a fresh connection. */
const NOTIFY_ATTEMPTS = 3;
const NOTIFY_RETRY_MS = 100;
/** Messages waiting to be sent while the database is slow or away; past this they are dropped (the reconnect's `*` covers them). */
const MAX_WAITING = 1_000;

/**
 * The bus without Redis: NOTIFY on one connection of its own (so one instance's batches arrive in the
 * order it published them), LISTEN on the core NotificationListener. The batches published in one
 * event-loop turn go out as one NOTIFY (more only past the payload limit), after their commits as
 * before: a NOTIFY per commit cost a statement and a wake-up of every listener (issue 36). A notification sent while the
 * listener was reconnecting is lost, as with Redis pub/sub: subscribers are told to refetch (`onGap`).
 * What keeps a change committed right after the connections were killed (issue 34): a failed NOTIFY is
 * sent again on a fresh connection (the pool drops the broken one), in order; and a batch published
 * while this instance's own LISTEN is down is delivered to this instance's listeners directly.
 */
export class PostgresLiveBus implements LiveBus {
  readonly name = 'postgres' as const;
  private readonly listeners = new LiveListeners();
  private readonly pool: pg.Pool;
  private readonly listener: NotificationListener;
  private readonly turn = new TurnBatches((batches) => this.sendTurn(batches));
  /** The NOTIFYs in publishing order: one after the other, each retried before the next goes. */
  private sending: Promise<void> = Promise.resolve();
  private waiting = 0;
  private stopped = false;

  constructor(connectionString: string, private readonly logger: Logger, onGap: () => void) {
    this.pool = resilientPool({ connectionString, max: 1, connectionTimeoutMillis: 10_000 }, logger, 'live notify');
    this.listener = new NotificationListener({
      connectionString,
      channel: LIVE_CHANNEL,
      logger,
      onNotification: (payload) => this.listeners.deliver(payload),
      onListening: (listening) => {
        if (listening) onGap();
      },
    });
  }

  publish(batch: LiveBatch): void {
    this.turn.push(batch);
  }

  private sendTurn(batches: LiveBatch[]): void {
    for (const message of encodeBatches(batches, NOTIFY_PAYLOAD_MAX_BYTES)) {
      const heardBack = this.listener.listening;
      if (!heardBack) this.listeners.deliver(message);
      if (this.waiting >= MAX_WAITING) {
        this.logger.warn('live notify backlog full; a batch is dropped');
        continue;
      }
      this.waiting++;
      this.sending = this.sending.then(() => this.send(message, heardBack)).finally(() => this.waiting--);
    }
  }

  private async send(message: string, heardBack: boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await notify(this.pool, LIVE_CHANNEL, message);
        return;
      } catch (error) {
        if (attempt >= NOTIFY_ATTEMPTS || this.stopped) {
          this.logger.warn({ err: error, attempts: attempt }, 'live notify failed; delivered on this instance only');
          if (heardBack) this.listeners.deliver(message);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, NOTIFY_RETRY_MS * attempt));
      }
    }
  }

  onBatch(listener: (batch: LiveBatch) => void): () => void {
    return this.listeners.add(listener);
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  async stop(): Promise<void> {
    this.turn.flush();
    this.stopped = true;
    await this.sending;
    await this.listener.stop();
    await this.pool.end().catch(() => undefined);
  }
}
