import type { Knex } from '@mikro-orm/postgresql';
import pg, { type Client as PgClient } from 'pg';
import { prepareValue } from 'pg/lib/utils.js';

/*
 * Read statements that start in the same turn of the event loop share one round trip.
 *
 * Why: a week read asks a dozen relation loaders for their rows at the same moment (checklist,
 * perimeter, tasks and one list per logging domain). Each statement alone costs a socket write and a
 * reply to parse, and on a small machine the write is the largest single cost of the read. Sent as one
 * multi-statement query (PostgreSQL's simple protocol runs them in order, as one implicit transaction,
 * and node-postgres answers one result per statement) they cost one write.
 *
 * The simple protocol takes no parameters, so each `$n` is replaced by the literal PostgreSQL would
 * have received: the parameter's text (pg's own `prepareValue`) quoted by pg's `escapeLiteral`. Both an
 * untyped parameter and a quoted literal start as type `unknown`, so the database reads them the same way.
 * A statement whose text could hold a `$n` that is not a placeholder (anything quoted with `'`, dollar
 * quoting), that holds a `;`, or whose value has no text form (a Buffer) runs on its own, as does any statement alone in
 * its turn: those keep a prepared statement per connection (parsed and planned once).
 */

type Row = Record<string, unknown>;

interface Pending {
  sql: string;
  params: readonly unknown[];
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}

interface Batch {
  pending: Pending[];
  scheduled: boolean;
}

/** Between the statements of one round trip. */
export const STATEMENT_SEPARATOR = ';\n';

/** Statements per round trip at most (a larger turn is sent as several). */
const MAX_BATCH = 32;

const batches = new WeakMap<object, Batch>();

/** Distinct statement texts remembered at most (names, verdicts); past it a text is handled as new each time, so no caller can grow these caches without bound. */
const MAX_REMEMBERED_TEXTS = 500;

const statementNames = new Map<string, string>();

/**
 * A name per distinct statement text, so each pooled connection parses and plans it once (a prepared
 * statement) instead of on every call: the database shares the machine's CPU with the service.
 */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_REMEMBERED_TEXTS) {
    name = `read_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** Runs `work` on a connection of `knex` (its pool, or its transaction's connection) and hands the connection back. */
async function withConnection<T>(knex: Knex, work: (connection: PgClient) => Promise<T>): Promise<T> {
  const connection: PgClient = await knex.client.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/** One statement on a connection of `knex`, prepared once per connection. */
export function runStatement(knex: Knex, sql: string, params: readonly unknown[]): Promise<Row[]> {
  return withConnection(knex, async (connection) => (await connection.query({ text: sql, values: params as unknown[], name: statementName(sql) })).rows);
}

function runAlone(knex: Knex, item: Pending): void {
  runStatement(knex, item.sql, item.params).then(item.resolve, item.reject);
}

const QUOTED_IDENTIFIER = /"(?:[^"]|"")*"/g;
const placeholderVerdicts = new Map<string, boolean>();

/**
 * Whether the text is one statement whose every `$` starts a placeholder: no quoted text, no dollar
 * quoting, no `$` in an identifier, no `;` (a second statement would shift every answer after it).
 */
function placeholdersOnly(sql: string): boolean {
  let verdict = placeholderVerdicts.get(sql);
  if (verdict === undefined) {
    let identifierWithDollar = false;
    const rest = sql.replace(QUOTED_IDENTIFIER, (identifier) => {
      if (identifier.includes('$')) identifierWithDollar = true;
      return '';
    });
    verdict = !identifierWithDollar && !rest.includes("'") && !rest.includes(';') && !/\$(?!\d)/.test(rest);
    if (placeholderVerdicts.size < MAX_REMEMBERED_TEXTS) placeholderVerdicts.set(sql, verdict);
  }
  return verdict;
}

/** The statement with its parameters written in as literals, or null when it must run on its own. */
export function inlineParameters(sql: string, params: readonly unknown[]): string | null {
  if (!placeholdersOnly(sql)) return null;
  const literals: string[] = [];
  for (const param of params) {
    const text = prepareValue(param);
    if (text === null || text === undefined) literals.push('NULL');
    else if (typeof text === 'string') literals.push(pg.escapeLiteral(text));
    else return null;
  }
  let complete = true;
  const inlined = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const literal = literals[Number(n) - 1];
    if (literal === undefined) complete = false;
    return literal ?? '';
  });
  return complete ? inlined : null;
}

/** The literal text of the item, or null (it must run alone: a value with no text form, or one pg cannot serialise). */
function inlined(item: Pending): string | null {
  try {
    return inlineParameters(item.sql, item.params);
  } catch {
    return null;
  }
}

/** Two or more statements as one multi-statement query; their answers in order. */
async function sendBatch(knex: Knex, items: Pending[], texts: string[]): Promise<void> {
  let results: pg.QueryResult[];
  try {
    results = await withConnection(knex, async (connection) => (await connection.query(texts.join(STATEMENT_SEPARATOR))) as unknown as pg.QueryResult[]);
  } catch {
    // One failing statement stops the rest: run each alone, so every caller gets its own answer or error.
    for (const item of items) runAlone(knex, item);
    return;
  }
  items.forEach((item, i) => item.resolve(results[i]!.rows));
}

function flush(knex: Knex, batch: Batch): void {
  const pending = batch.pending;
  batch.pending = [];
  batch.scheduled = false;
  for (let start = 0; start < pending.length; start += MAX_BATCH) {
    const together: Pending[] = [];
    const texts: string[] = [];
    // Parameters are written in only here, when there is company: a read alone stays a prepared statement.
    const chunk = pending.slice(start, start + MAX_BATCH);
    for (const item of chunk) {
      const text = chunk.length > 1 ? inlined(item) : null;
      if (text === null) runAlone(knex, item);
      else {
        together.push(item);
        texts.push(text);
      }
    }
    if (together.length === 1) runAlone(knex, together[0]!);
    else if (together.length > 1) sendBatch(knex, together, texts).catch((error: unknown) => together.forEach((item) => item.reject(error)));
  }
}

/**
 * Runs a read statement on the pool of `knex`, together with the other reads that start in this turn
 * of the event loop (see above). Use only for reads outside a transaction.
 */
export function batchedStatement(knex: Knex, sql: string, params: readonly unknown[]): Promise<Row[]> {
  if (!placeholdersOnly(sql)) return runStatement(knex, sql, params);
  let batch = batches.get(knex);
  if (!batch) {
    batch = { pending: [], scheduled: false };
    batches.set(knex, batch);
  }
  const current = batch;
  return new Promise<Row[]>((resolve, reject) => {
    current.pending.push({ sql, params, resolve, reject });
    if (!current.scheduled) {
      current.scheduled = true;
      // setImmediate runs after this turn's promise jobs and ticks, where the loaders of one level dispatch.
      setImmediate(() => flush(knex, current));
    }
  });
}
