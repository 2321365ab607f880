import pg from 'pg';
import { STATEMENT_SEPARATOR } from '../../src/core/database/read-batch.js';
import { LIVE_NOTIFY } from '../../src/core/live/postgres-live-bus.js';

export interface StatementRecorder {
  /** The text of every statement sent since `recordStatements()`, in order (each statement of a batched read on its own). */
  readonly statements: string[];
  /** What was sent to the database, in order: one entry per round trip (a batched read holds several statements). */
  readonly roundTrips: string[];
  stop(): void;
}

/**
 * Records every statement any pg client of this process sends (the ORM's knex queries and the plain
 * reads of src/core/database/read-rows.ts alike), for tests that count what a read costs. The app under
 * test must run in this process (startTestApp). One recorder at a time; `stop()` restores pg.
 */
export function recordStatements(): StatementRecorder {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  if ((query as { recording?: boolean }).recording) throw new Error('statements are already being recorded');
  const statements: string[] = [];
  const roundTrips: string[] = [];
  const recording = Object.assign(
    function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text?: string } | null)?.text;
      // The live bus's NOTIFY goes out after a commit, on its own connection, off the request's path:
      // not a statement of the operation being counted.
      if (text && text !== LIVE_NOTIFY) {
        roundTrips.push(text);
        // A batch joins its statements with the separator (test values never contain it).
        statements.push(...text.split(STATEMENT_SEPARATOR));
      }
      return query.call(this, config, ...rest);
    },
    { recording: true },
  );
  proto.query = recording;
  return {
    statements,
    roundTrips,
    stop() {
      if (proto.query === recording) proto.query = query;
    },
  };
}

/**
 * A statement with its values masked (quoted literals, numbers, $n placeholders and lists of them), so
 * the same read over other data gives the same text: for SQL snapshots of hot reads
 * (`expect(...).toMatchFileSnapshot`), where a changed query shows in review.
 */
export function sqlShape(statement: string): string {
  return statement
    .replace(/'(?:[^']|'')*'(?:::[a-z_]+(?:\[\])?)?/g, '?')
    .replace(/\$\d+(?:::[a-z_]+(?:\[\])?)?/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\?(?:\s*,\s*\?)+/g, '?, …')
    .replace(/\s+/g, ' ')
    .trim();
}
