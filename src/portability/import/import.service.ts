import { recordLiveChange } from '../../core/live/change-collector.js';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { FinanceAccount } from '../../finance/finance-account.entity.js';
import type { FilesRuntime } from '../../files/files-runtime.js';
import { Refusals, requireColumns, type CsvRow } from './csv.js';
import { openCsv } from './csv-reader.js';
import { GOODREADS_COLUMNS } from './goodreads.parser.js';
import { applierFor, RetryIsolated, type ChunkApplier, type Outcome } from './import-appliers.js';
import { addChunkCounts, lockedImportState, markRunning } from './import.queries.js';
import { RowBatches } from './row-batches.js';
import { IMPORT_SOURCES, ImportRun, type ExerciseNames, type ImportSource, type RefusedRow } from './import-run.entity.js';
import { workoutFormat } from './strong.parser.js';
import { checkMapping, readMapping, type ColumnMapping } from './transactions.parser.js';

/**
 * Rows per committed chunk at most (what one chunk holds in memory); its time bound (IMPORT_CHUNK_MS)
 * usually ends it sooner.
 */
export const IMPORT_CHUNK_ROWS = 500;
/** Refused rows kept for GET /account/import/:id (file order); `refusedTotal` counts them all. */
export const MAX_REFUSALS_KEPT = 1000;
/** A running import whose heartbeat is older than this is taken to have lost its runner (a crash). */
export const IMPORT_STALE_SECONDS = 60;

/** GET /account/import/:id */
export interface ImportView {
  id: string;
  status: string;
  created: number;
  skipped: number;
  refused: RefusedRow[];
  refusedTotal: number;
  progress: { rows: number; done: number };
  /** Workout imports: the app's exercise names matched to exercises, made the user's own, or left. */
  exercises?: ExerciseNames;
}

export function requireSource(source: string | undefined): ImportSource {
  if (!source || !(IMPORT_SOURCES as readonly string[]).includes(source)) {
    const message = `source must be one of ${IMPORT_SOURCES.join(', ')}`;
    throw new ValidationError(message, [{ path: ['source'], message }]);
  }
  return source as ImportSource;
}

export function importView(run: ImportRun): ImportView {
  return {
    id: run.id,
    status: run.status,
    created: run.created,
    skipped: run.skipped,
    refused: run.refused,
    refusedTotal: run.refusedTotal,
    progress: { rows: run.rowsTotal, done: run.rowsDone },
    ...(run.source === 'strong' ? { exercises: run.exerciseNames ?? { matched: [], created: [], left: [] } } : {}),
  };
}

/** A chunk's names added to the import's, sorted; a name matched or made anywhere is not left. */
function withNames(known: ExerciseNames | null | undefined, chunk: NonNullable<Outcome['names']>): ExerciseNames {
  const matched = new Map((known?.matched ?? []).map((m) => [m.name, m.exercise]));
  for (const [name, exercise] of chunk.matched) matched.set(name, exercise);
  const created = new Set([...(known?.created ?? []), ...chunk.created]);
  const left = new Set([...(known?.left ?? []), ...chunk.left]);
  for (const name of [...matched.keys(), ...created]) left.delete(name);
  const sorted = (names: Iterable<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return { matched: sorted(matched.keys()).map((name) => ({ name, exercise: matched.get(name)! })), created: sorted(created), left: sorted(left) };
}

/** The header row of a source's file: the row that has the columns the source needs (a preamble above is skipped). */
function headerTest(source: ImportSource, mapping: ColumnMapping | null): (cells: string[]) => boolean {
  if (source === 'strong') return (cells) => cells.includes('Exercise Name') || cells.includes('exercise_title');
  if (source === 'goodreads') return (cells) => cells.includes('Title') && cells.includes('Author');
  const columns = Object.values(mapping ?? {}).map((c) => String(c).trim());
  return (cells) => columns.every((c) => cells.includes(c));
}

/** Why a run did not go on: the import is finished or gone, another runner has it, or the user has another import running. */
export type RunResult = 'finished' | 'taken' | 'wait' | 'stopped';

export interface RunControl {
  /**
   * Aborted when the instance shuts down or the job's lock is lost: the chunk in progress takes no more
   * rows and commits, and the run stops (resumed later, from its committed cursor).
   */
  signal: AbortSignal;
  /** A chunk takes no more rows once it has run this long (IMPORT_CHUNK_MS). */
  chunkMs: number;
}

/**
 * CSV imports from the apps people leave (operations.md "Portability"). `start` reads the upload as a
 * stream (caps checked while reading), checks it and stores it with its options; `run` (the job) writes
 * its records through the domains' services in committed chunks bounded in time (IMPORT_CHUNK_MS) and
 * rows (IMPORT_CHUNK_ROWS), each with the import's progress in the same transaction, so a run stopped,
 * cancelled or crashed goes on from its last chunk and writes nothing twice. Records already present are skipped (the same file twice adds nothing); a row
 * that fails a check or a service rule is refused with its reason, the others go in.
 */
export class ImportService {
  constructor(private readonly em: EntityManager) {}

  /** Checks the file and its options (400 / 404 now, not in the job) and stores the pending import. */
  async start(userId: string, source: ImportSource, content: Buffer, fields: Record<string, string>): Promise<ImportRun> {
    let options: { accountId: string; mapping: ColumnMapping } | null = null;
    if (source === 'transactions') {
      // The edge checked accountId's shape (a UUID) before this.
      const id = fields.accountId;
      if (!id) throw new ValidationError('accountId is required', [{ path: ['accountId'], message: 'accountId is required' }]);
      options = { accountId: id, mapping: readMapping(fields.mapping) };
      // Before the file is read: another user's account is a 404 at once, whatever the file holds.
      if (!(await this.em.count(FinanceAccount, { id, userId }))) throw new NotFoundError('Account', { field: 'accountId' });
    }
    const csv = await openCsv(content, headerTest(source, options?.mapping ?? null));
    const header = { header: csv.header, rows: [] };
    try {
      if (source === 'strong') workoutFormat(header);
      else if (source === 'goodreads') requireColumns(header, GOODREADS_COLUMNS, 'Goodreads library');
      else checkMapping(options!.mapping, header);
    } catch (error) {
      await csv.rows.return(undefined);
      throw error;
    }
    // Every row read once now, so a file over a cap is refused at upload; the job reads it again.
    let rowsTotal = 0;
    for await (const _ of csv.rows) rowsTotal += 1;
    const run = this.em.create(ImportRun, { userId, source, content, options: options as Record<string, unknown> | null, rowsTotal });
    await this.em.flush();
    return run;
  }

  async get(userId: string, importId: string): Promise<ImportRun> {
    const run = await this.em.findOne(ImportRun, { id: importId, userId });
    if (!run) throw new NotFoundError('Import');
    return run;
  }

  /**
   * Takes the import for this runner: pending, or running with a stale heartbeat (its runner died).
   * One user's imports run one at a time (an advisory lock serialises the claims), so two uploads of
   * the same file cannot both create.
   */
  private async claim(importId: string): Promise<ImportRun | 'finished' | 'taken' | 'wait'> {
    return this.em.fork().transactional(async (tx) => {
      const state = await lockedImportState(tx, importId, IMPORT_STALE_SECONDS);
      if (!state || state.status === 'done' || state.status === 'failed') return 'finished';
      if (state.status === 'running' && state.live) return 'taken';
      if (state.other) return 'wait';
      await markRunning(tx, importId);
      return (await tx.findOneOrFail(ImportRun, { id: importId }, { populate: ['content'] }))!;
    });
  }

  /**
   * Runs (or resumes) an import: the job's work. The rows an earlier run committed (its cursor,
   * `rows_done`) are replayed, not written; then each chunk is one transaction that takes batches of rows
   * until it has run `control.chunkMs` (or holds IMPORT_CHUNK_ROWS rows) and commits them with the
   * cursor moved on. The commit checks that the cursor is still where the chunk began, so a chunk that
   * a second runner overtook rolls back: nothing is written twice. Stops after the chunk in progress
   * when `control.signal` aborts (the import goes back to pending). A failure other than a refused row
   * marks the import failed; the chunks committed before it stay (uploading the file again adds only the rest).
   */
  async run(importId: string, rt: FilesRuntime, log: Logger, control: RunControl): Promise<RunResult> {
    const claimed = await this.claim(importId);
    if (typeof claimed === 'string') return claimed;
    const run = claimed;
    let source: RowBatches | undefined;
    try {
      const csv = await openCsv(run.content ?? Buffer.alloc(0), headerTest(run.source, (run.options?.mapping as ColumnMapping | undefined) ?? null));
      source = new RowBatches(csv.rows);
      const applier = await applierFor(this.em.fork(), rt, run, csv.header);
      const refused = [...run.refused];
      for (let replayed = 0; replayed < run.rowsDone; ) {
        const rows = await source.take(Math.min(IMPORT_CHUNK_ROWS, run.rowsDone - replayed));
        if (!rows.length) break;
        applier.replay(rows); // committed by an earlier run
        replayed += rows.length;
      }
      while (!(await source.exhausted())) {
        if (control.signal.aborted) throw new RunStopped();
        const started = performance.now();
        run.rowsDone += await this.writeChunk(run, applier, source, refused, control);
        // Pace: as long again with nothing to do, so the service's own requests get the CPU and the database between chunks.
        await new Promise((resolve) => setTimeout(resolve, performance.now() - started));
      }
      await this.setRun(run, { id: run.id }, { status: 'done', content: null, heartbeatAt: null, finishedAt: new Date() });
      return 'finished';
    } catch (error) {
      if (error instanceof RunStopped) {
        await this.setRun(run, { id: run.id, rowsDone: run.rowsDone }, { status: 'pending', heartbeatAt: null });
        return 'stopped';
      }
      if (error instanceof ChunkOvertaken) {
        log.warn({ importId }, 'another runner moved the import on; this one stops (its chunk rolled back)');
        return 'taken';
      }
      log.error({ err: error, importId }, 'import failed; the chunks committed before the failure are kept');
      await this.setRun(run, { id: run.id }, { status: 'failed', content: null, heartbeatAt: null, finishedAt: new Date() });
      return 'finished';
    } finally {
      await source?.close();
    }
  }

  /**
   * One committed chunk: batches of rows until the chunk has run `control.chunkMs`, holds
   * IMPORT_CHUNK_ROWS rows, the file ends or the run is told to stop. A record a rule refuses has the
   * chunk rolled back and written again record by record. Returns the rows it committed.
   */
  private async writeChunk(run: ImportRun, applier: ChunkApplier, source: RowBatches, refused: RefusedRow[], control: RunControl): Promise<number> {
    const cursor = run.rowsDone;
    const taken: CsvRow[] = [];
    const write = (isolate: boolean) =>
      this.em.fork().transactional(async (tx) => {
        const deadline = performance.now() + control.chunkMs;
        const outcome: Outcome = { created: 0, skipped: 0, refusals: new Refusals() };
        do {
          const batch = await source.batch(applier.batchRows, (previous, next) => applier.canCut(previous, next));
          if (!batch.length) break;
          taken.push(...batch);
          addOutcome(outcome, await applier.apply(tx, batch, isolate));
        } while (performance.now() < deadline && taken.length < IMPORT_CHUNK_ROWS && !control.signal.aborted);
        await this.recordChunk(tx, run, outcome, taken.length, refused, cursor);
      });
    const restore = applier.checkpoint();
    const keptRefusals = refused.length;
    const keptNames = run.exerciseNames;
    try {
      await write(false);
    } catch (error) {
      if (!(error instanceof RetryIsolated)) throw error;
      restore();
      refused.length = keptRefusals;
      run.exerciseNames = keptNames;
      source.unread(taken.splice(0));
      await write(true);
    }
    return taken.length;
  }

  /**
   * The chunk's counts, its refused rows (the first MAX_REFUSALS_KEPT) and the heartbeat, in the chunk's
   * transaction, moving the cursor from `cursor` on; a cursor another runner moved meanwhile rolls the chunk back.
   */
  private async recordChunk(tx: EntityManager, run: ImportRun, outcome: Outcome, rows: number, refused: RefusedRow[], cursor: number): Promise<void> {
    const more = outcome.refusals.sorted();
    refused.push(...more.slice(0, Math.max(0, MAX_REFUSALS_KEPT - refused.length)));
    if (outcome.names) run.exerciseNames = withNames(run.exerciseNames, outcome.names);
    const moved = await addChunkCounts(tx, run.id, cursor, { rows, created: outcome.created, skipped: outcome.skipped, refusedTotal: more.length, refused, exerciseNames: run.exerciseNames ?? null });
    if (!moved) throw new ChunkOvertaken();
    // Raw updates of the run: the live updates and the change feed hear its progress with the chunk's rows.
    recordLiveChange(tx, run.userId, { entity: 'ImportRun', id: run.id, kind: 'updated' });
  }

  /** Ends (or hands back) the run by one raw update, in a transaction of its own that tells the feed. */
  private async setRun(run: ImportRun, where: FilterQuery<ImportRun>, changes: Partial<ImportRun>): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      await tx.nativeUpdate(ImportRun, where, changes);
      recordLiveChange(tx, run.userId, { entity: 'ImportRun', id: run.id, kind: 'updated' });
    });
  }
}

/** A batch's outcome added to its chunk's. */
function addOutcome(total: Outcome, batch: Outcome): void {
  total.created += batch.created;
  total.skipped += batch.skipped;
  for (const { row, reason } of batch.refusals.rows) total.refusals.add(row, reason);
  if (!batch.names) return;
  total.names ??= { matched: new Map(), created: new Set(), left: new Set() };
  for (const [name, exercise] of batch.names.matched) total.names.matched.set(name, exercise);
  for (const name of batch.names.created) total.names.created.add(name);
  for (const name of batch.names.left) total.names.left.add(name);
}

/** The import's cursor is not where this chunk began: another runner has it (this chunk rolls back). */
class ChunkOvertaken extends Error {}

/** The instance is shutting down: the run ends after its chunk. */
class RunStopped extends Error {}
