import type { RedisClientType } from 'redis';
import type { Logger } from './logger.js';

/**
 * How long one Redis command may take. Redis is never required to answer a request (rate limits fall
 * back to this instance's memory, live updates to local delivery), so a slow Redis costs a request at
 * most this, not the client's default 5 s.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;
const REDIS_RECONNECT_MAX_MS = 2_000;

/**
 * The service's Redis client (REDIS_URL), made to fail fast: commands are refused at once while it is
 * disconnected (no offline queue holding requests), each has a short timeout, and it reconnects on its
 * own (50 ms doubling to 2 s). An outage is logged once when it starts and once when it ends, not at
 * every reconnect attempt. Loaded only when configured (issue 18: a start without Redis does not load it).
 */
export async function connectRedis(url: string, logger: Logger): Promise<RedisClientType> {
  const { createClient } = await import('redis');
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, REDIS_RECONNECT_MAX_MS),
    },
  }) as RedisClientType;
  logOutages(client, logger, 'redis', 'rate limits count in each instance’s memory until it returns');
  await client.connect();
  return client;
}

/** One warning when `client` loses Redis, one line when it is back (its 'error' repeats at every retry). */
export function logOutages(client: RedisClientType, logger: Logger, name: string, meanwhile: string): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error, dependency: name }, `${name} unavailable: ${meanwhile}`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ dependency: name }, `${name} available again`);
  });
}

/** One PING within the command timeout; refused at once while the client is reconnecting. */
export async function pingRedis(client: RedisClientType): Promise<void> {
  await client.ping();
}
