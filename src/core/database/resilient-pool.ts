import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * A pg pool whose lost connections are logged, never fatal. pg-pool listens for a client's 'error' only
 * while the client is idle: a client checked out between two statements (a transaction of ours, Agenda's
 * schema check) has no listener, and `pg_terminate_backend` or a database restart then ends the process
 * with an unhandled 'error' event. Every client gets a listener of its own; the broken client is dropped
 * by the pool when it is released, and the caller's next statement fails as usual.
 */
export function resilientPool(config: pg.PoolConfig, logger: Logger, purpose: string): pg.Pool {
  const pool = new pg.Pool(config);
  const lost = (error: Error) => logger.warn({ err: error, pool: purpose }, 'database connection lost');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}
