import pg from 'pg';
import { Writable } from 'node:stream';
import { inject, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { resilientPool } from './resilient-pool.js';

it('a checked-out client whose connection the database ends is logged and dropped, not fatal', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const pool = resilientPool({ connectionString: inject('dbServerUrl'), max: 2 }, createLogger('warn', sink), 'test');
  const admin = new pg.Client({ connectionString: inject('dbServerUrl') });
  await admin.connect();
  try {
    // Checked out and idle between two statements, as inside a transaction: pg-pool listens to none of
    // its errors, so without a listener of our own this error ends the process (vitest fails the run).
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await expect.poll(() => lines.some((line) => line.includes('database connection lost'))).toBe(true);
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();
    // The broken client is gone: the next statement gets a new connection.
    expect((await pool.query<{ one: number }>('select 1 as one')).rows[0]!.one).toBe(1);
  } finally {
    await admin.end();
    await pool.end();
  }
});
