import type pg from 'pg';
import type { Logger } from '../logger.js';
import { resilientPool } from './resilient-pool.js';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface NotificationListenerOptions {
  connectionString: string;
  channel: string;
  logger: Logger;
  /** A notification on the channel: its payload, and the backend pid of the connection that sent it. */
  onNotification(payload: string, senderPid: number): void;
  /**
   * The listener is (again) listening, or stopped listening. Notifications sent while it was not
   * listening are lost: a cache fed by them must be emptied on `true` and bypassed on `false`.
   */
  onListening(listening: boolean): void;
}

/**
 * One `LISTEN` connection, checked out of a one-connection resilient pool (a lost connection is logged,
 * never fatal) and kept checked out. Lost, it is destroyed and replaced with backoff (0.5 s doubling to
 * 30 s); `onListening` tells the owner when notifications may have been missed.
 */
export class NotificationListener {
  private readonly pool: pg.Pool;
  private client: pg.PoolClient | undefined;
  private retryMs = RETRY_MIN_MS;
  private timer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private stopped = false;
  private started = false;

  constructor(private readonly options: NotificationListenerOptions) {
    this.pool = resilientPool({ connectionString: options.connectionString, max: 1, connectionTimeoutMillis: 10_000 }, options.logger, `${options.channel} listener`);
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Starts listening (once); resolves when the first attempt is over, listening or not. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.connecting = this.connect();
    }
    return this.connecting ?? Promise.resolve();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const lost = (error?: Error) => this.lost(client!, error);
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (message) => {
        if (message.channel === this.options.channel) this.options.onNotification(message.payload ?? '', message.processId);
      });
      await client.query(`LISTEN "${this.options.channel.replace(/"/g, '""')}"`);
      if (this.stopped) {
        client.release(true);
        return;
      }
      this.client = client;
      this.retryMs = RETRY_MIN_MS;
      this.options.onListening(true);
    } catch (error) {
      if (client) this.lost(client, error as Error);
      else this.retry(error as Error);
    }
  }

  private lost(client: pg.PoolClient, error?: Error): void {
    const wasCurrent = this.client === client;
    if (wasCurrent) {
      this.client = undefined;
      this.options.onListening(false);
    }
    try {
      client.release(error ?? true); // destroyed, not returned to the pool
    } catch {
      // already released
    }
    if (wasCurrent || !this.client) this.retry(error);
  }

  private retry(error?: Error): void {
    if (this.stopped || this.timer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(delay * 2, RETRY_MAX_MS);
    this.options.logger.warn({ err: error, channel: this.options.channel, retryInMs: delay }, 'notification listener lost; reconnecting');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connecting = this.connect();
    }, delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    if (client) {
      this.options.onListening(false);
      client.release(true);
    }
    await this.pool.end().catch(() => undefined);
  }
}
