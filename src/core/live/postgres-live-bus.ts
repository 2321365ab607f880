import type pg from 'pg';
import type { Logger } from '../logger.js';
import { NotificationListener } from '../database/notification-listener.js';
import { notify, notifyStatement } from '../database/notify.js';
import { resilientPool } from '../database/resilient-pool.js';
import { LiveListeners, NOTIFY_PAYLOAD_MAX_BYTES, TurnBatches, type LiveBus } from './live-bus.js';
import type { LiveBatch } from './live-change.js';
import { PendingNotifies, RESYNC_MESSAGE } from './pending-notifies.js';

export const LIVE_CHANNEL = 'lp_live';
/** Sent after a commit on the bus's own connection (statement-counting tests leave it out by this text). */
export const LIVE_NOTIFY = notifyStatement(LIVE_CHANNEL);
/** The bus's sending connection as `pg_stat_activity` names it. */
export const LIVE_NOTIFY_APPLICATION = 'lp live notify';

/**
 * At most this much waits for PostgreSQL while it is slow or away (a batch is a few hundred bytes);
 * past it, what waits is replaced by one resync message: every instance re-reads (docs/live-updates.md).
 */
export const MAX_PENDING_BYTES = 1024 * 1024;
/** A failed NOTIFY is sent again after 100 ms, doubling up to 5 s, until PostgreSQL accepts it. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/** A NOTIFY that has not answered by then failed (its connection is dropped and the message sent again). */
const NOTIFY_TIMEOUT_MS = 10_000;
/** At shutdown a message is tried this many times more, then what waits is dropped (logged). */
const STOP_ATTEMPTS = 3;
/** A closed sending connection's notifications may still be on their way to the listener this long. */
const OWN_SENDER_GRACE_MS = 10_000;

/**
 * The bus without Redis: NOTIFY on one connection of its own (so one instance's batches arrive in the
 * order it published them), LISTEN on the core NotificationListener.
 *
 * - The batches published in one event-loop turn go out as one NOTIFY (more only past the payload
 *   limit): a NOTIFY per commit cost a statement and a wake-up of every listener (issue 36).
 * - This instance's own listeners get its batches at the turn's end, directly; its own notifications,
 *   heard back (their sender's backend pid is one of this bus's connections), are skipped. So a change
 *   reaches the writer's sockets whatever happens to the connections (issue 34: a killed LISTEN
 *   connection lost the change with the NOTIFY that was on its way).
 * - A batch waits in `PendingNotifies` until PostgreSQL has accepted it: a failed NOTIFY is sent again
 *   on a fresh connection (the pool drops the broken one), first, before anything published later.
 *   Past `MAX_PENDING_BYTES` waiting, the waiting batches become one resync message, which makes every
 *   instance re-read (`onGap`), never a silent loss.
 * - A notification sent while this instance's listener was reconnecting is lost to it, as with Redis
 *   pub/sub: subscribers are told to refetch (`onGap` when it listens again).
 */
export class PostgresLiveBus implements LiveBus {
  readonly name = 'postgres' as const;
  private readonly listeners = new LiveListeners();
  private readonly pool: pg.Pool;
  private readonly listener: NotificationListener;
  private readonly turn = new TurnBatches((batches) => this.flushTurn(batches));
  private readonly pending = new PendingNotifies(NOTIFY_PAYLOAD_MAX_BYTES, MAX_PENDING_BYTES);
  /** Backend pids of this bus's sending connections: what they notify, this instance has delivered already. */
  private readonly ownSenders = new Set<number>();
  private draining: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopping = false;
  private stopped = false;

  constructor(
    connectionString: string,
    private readonly logger: Logger,
    private readonly onGap: () => void,
  ) {
    this.pool = resilientPool(
      { connectionString, max: 1, connectionTimeoutMillis: 10_000, query_timeout: NOTIFY_TIMEOUT_MS, application_name: LIVE_NOTIFY_APPLICATION },
      logger,
      'live notify',
    );
    this.pool.on('connect', (client) => this.ownSender(client));
    this.listener = new NotificationListener({
      connectionString,
      channel: LIVE_CHANNEL,
      logger,
      onNotification: (payload, senderPid) => this.heard(payload, senderPid),
      onListening: (listening) => {
        if (listening) onGap();
      },
    });
  }

  publish(batch: LiveBatch): void {
    this.turn.push(batch);
  }

  onBatch(listener: (batch: LiveBatch) => void): () => void {
    return this.listeners.add(listener);
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  async stop(): Promise<void> {
    this.turn.flush();
    this.stopping = true;
    this.wake?.();
    while (this.draining) await this.draining;
    this.stopped = true;
    await this.listener.stop();
    await this.pool.end().catch(() => undefined);
  }

  private flushTurn(batches: LiveBatch[]): void {
    for (const batch of batches) this.listeners.deliverBatch(batch);
    if (this.stopped) return; // a commit after shutdown: this instance's sockets are closed, nothing to send on
    const dropped = this.pending.push(batches);
    if (dropped > 0) this.logger.warn({ dropped, maxBytes: MAX_PENDING_BYTES }, 'live notify backlog full; replaced by a resync (every instance re-reads)');
    this.drain();
  }

  private heard(payload: string, senderPid: number): void {
    if (this.ownSenders.has(senderPid)) return;
    if (payload === RESYNC_MESSAGE) this.onGap();
    else this.listeners.deliver(payload);
  }

  private ownSender(client: pg.PoolClient): void {
    const pid = (client as unknown as { processID?: number | null }).processID;
    if (typeof pid !== 'number') return;
    this.ownSenders.add(pid);
    client.once('end', () => setTimeout(() => this.ownSenders.delete(pid), OWN_SENDER_GRACE_MS).unref());
  }

  /** Sends what waits, one message at a time, until nothing does; one loop at a time. */
  private drain(): void {
    if (this.draining || this.pending.size === 0) return;
    this.draining = this.sendWaiting().finally(() => {
      this.draining = undefined;
      this.drain(); // published while the loop was ending
    });
  }

  private async sendWaiting(): Promise<void> {
    let failures = 0;
    for (let message = this.pending.next(); message !== undefined; message = this.pending.next()) {
      try {
        await notify(this.pool, LIVE_CHANNEL, message);
        this.pending.accepted();
        if (failures > 0) this.logger.info({ attempts: failures + 1 }, 'live notify sent after a failure');
        failures = 0;
      } catch (error) {
        this.pending.failed();
        failures++;
        if (failures === 1) this.logger.warn({ err: error, waiting: this.pending.size }, 'live notify failed; kept and sent again, in order');
        if (this.stopping && failures >= STOP_ATTEMPTS) {
          const dropped = this.pending.clear();
          this.logger.warn({ err: error, dropped }, 'live notify given up at shutdown: other instances miss these batches');
          return;
        }
        await this.pause(this.stopping ? RETRY_MIN_MS : Math.min(RETRY_MIN_MS * 2 ** (failures - 1), RETRY_MAX_MS));
      }
    }
  }

  /** Waits before the next attempt; shutdown cuts it short. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = undefined));
  }
}
