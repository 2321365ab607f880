import type pg from 'pg';
import type { Logger } from '../logger.js';
import { NotificationListener } from '../database/notification-listener.js';
import { notify, notifyStatement } from '../database/notify.js';
import { resilientPool } from '../database/resilient-pool.js';
import { encodeBatch, LiveListeners, type LiveBus } from './live-bus.js';
import type { LiveBatch } from './live-change.js';

export const LIVE_CHANNEL = 'lp_live';
/** Sent after a commit on the bus's own connection (statement-counting tests leave it out by this text). */
export const LIVE_NOTIFY = notifyStatement(LIVE_CHANNEL);

/**
 * The bus without Redis: NOTIFY on one connection of its own (so one instance's batches arrive in the
 * order it published them), LISTEN on the core NotificationListener. A notification sent while the
 * listener was reconnecting is lost, as with Redis pub/sub: subscribers are told to refetch (`onGap`).
 */
export class PostgresLiveBus implements LiveBus {
  readonly name = 'postgres' as const;
  private readonly listeners = new LiveListeners();
  private readonly pool: pg.Pool;
  private readonly listener: NotificationListener;

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
    for (const message of encodeBatch(batch)) {
      notify(this.pool, LIVE_CHANNEL, message).catch((error: Error) => this.logger.warn({ err: error }, 'live notify failed'));
    }
  }

  onBatch(listener: (batch: LiveBatch) => void): () => void {
    return this.listeners.add(listener);
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  async stop(): Promise<void> {
    await this.listener.stop();
    await this.pool.end().catch(() => undefined);
  }
}
