import type { RedisClientType } from 'redis';
import type { Logger } from '../logger.js';
import { logOutages } from '../redis-connection.js';
import { encodeBatch, LiveListeners, type LiveBus } from './live-bus.js';
import type { LiveBatch } from './live-change.js';

/** One channel per database: the instances of one deployment share it; another deployment on the same Redis does not. */
export function liveRedisChannel(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `lp:live:${url.host}${url.pathname}`;
}

/**
 * The bus with REDIS_URL: PUBLISH on the app's client, SUBSCRIBE on a duplicate (a subscribed Redis
 * connection can send nothing else). While Redis is unavailable it degrades to local delivery: a batch
 * this instance cannot hear back through Redis goes straight to this instance's listeners (other
 * instances miss it). node-redis resubscribes after a reconnect; what was published meanwhile is lost,
 * so every subscription is told to read again (`onGap`, a `*` change) on every instance.
 */
export class RedisLiveBus implements LiveBus {
  readonly name = 'redis' as const;
  private readonly listeners = new LiveListeners();
  private subscriber: RedisClientType | undefined;

  constructor(
    private readonly redis: RedisClientType,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly onGap: () => void,
  ) {}

  publish(batch: LiveBatch): void {
    for (const message of encodeBatch(batch, 64_000)) {
      // Not subscribed right now: this instance would not hear its own batch back, so it delivers it itself.
      const heardBack = this.subscriber?.isReady === true;
      if (!heardBack) this.listeners.deliver(message);
      this.redis.publish(this.channel, message).catch((error: Error) => {
        if (heardBack) this.listeners.deliver(message);
        this.logger.debug({ err: error }, 'live publish failed; delivered on this instance only');
      });
    }
  }

  onBatch(listener: (batch: LiveBatch) => void): () => void {
    return this.listeners.add(listener);
  }

  async start(): Promise<void> {
    const subscriber = this.redis.duplicate() as RedisClientType;
    logOutages(subscriber, this.logger, 'redis live bus', 'live updates reach only the sockets of the instance that wrote them until it returns');
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) this.onGap();
      connectedBefore = true;
    });
    await subscriber.connect();
    await subscriber.subscribe(this.channel, (message) => this.listeners.deliver(message));
    this.subscriber = subscriber;
  }

  async stop(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
    this.subscriber = undefined;
  }
}
