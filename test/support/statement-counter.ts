import pg from 'pg';
import { STATEMENT_SEPARATOR } from '../../src/core/database/read-batch.js';
import { isScheduledWork } from '../../src/core/scheduled-work.js';

export interface StatementRecorder {
  /** The text of every statement sent since `recordStatements()`, in order (each statement of a batched read on its own). */
  readonly statements: string[];
  /** What was sent to the database, in order: one entry per round trip (a batched read holds several statements). */
  readonly roundTrips: string[];
  stop(): void;
}

/**
 * A statement a request sent: on a connection of a knex pool, the ORM's (its queries and the plain reads
 * of src/core/database/read-rows.ts, which borrow its connections; knex tags each connection it makes),
 * and not as scheduled work. The service's background engines read on pg.Pool pools of their own (the
 * job runner's, the reminder and webhook engines', the notification listeners', the live bus's NOTIFY),
 * and the jobs that share the ORM's connections (a recurring job, an export, the reminder kinds'
 * occurrences), like the work a request leaves running (an upload's image variants), run as scheduled
 * work (src/core/scheduled-work.ts): so a timer that fires, or an earlier request's work that goes on,
 * while a request is recorded is not counted, however busy the machine; nor are the test's own connections.
 */
function servesRequests(client: pg.Client): boolean {
  return '__knexUid' in client && !isScheduledWork();
}

/**
 * The signed-in request's session check (src/accounts/accounts.queries.ts `liveSessionUser`). Each
 * instance caches verified sessions (issue 36), so whether a request runs it depends on that cache, not
 * on the request: counts leave it out unless asked (`{ sessionCheck: true }`).
 */
const SESSION_CHECK = /^with touched as \(update "login_sessions"/;

/**
 * Records every statement the app's request connections send (see servesRequests), for tests that count
 * what a read or write costs. The app under test must run in this process (startTestApp). One recorder
 * at a time; `stop()` restores pg.
 */
export function recordStatements(options: { sessionCheck?: boolean } = {}): StatementRecorder {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  if ((query as { recording?: boolean }).recording) throw new Error('statements are already being recorded');
  const statements: string[] = [];
  const roundTrips: string[] = [];
  const recording = Object.assign(
    function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text?: string } | null)?.text;
      if (text && servesRequests(this)) {
        // A batch joins its statements with the separator (test values never contain it).
        const sent = text.split(STATEMENT_SEPARATOR).filter((statement) => options.sessionCheck || !SESSION_CHECK.test(statement));
        if (sent.length > 0) roundTrips.push(sent.join(STATEMENT_SEPARATOR));
        statements.push(...sent);
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
