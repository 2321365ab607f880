import type pg from 'pg';

/** The NOTIFY of a channel, as a statement with its payload as the one parameter. */
export function notifyStatement(channel: string): string {
  return `select pg_notify('${channel.replace(/'/g, "''")}', $1)`;
}

/** Sends `payload` on `channel` (delivered to listeners when this autocommitted statement commits). */
export async function notify(pool: pg.Pool, channel: string, payload: string): Promise<void> {
  await pool.query(notifyStatement(channel), [payload]);
}
