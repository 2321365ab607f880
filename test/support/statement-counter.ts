import pg from 'pg';

export interface StatementRecorder {
  /** The text of every statement sent since `recordStatements()`, in order. */
  readonly statements: string[];
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
  const recording = Object.assign(
    function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text?: string } | null)?.text;
      if (text) statements.push(text);
      return query.call(this, config, ...rest);
    },
    { recording: true },
  );
  proto.query = recording;
  return {
    statements,
    stop() {
      if (proto.query === recording) proto.query = query;
    },
  };
}
