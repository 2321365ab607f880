import type { EntityManager } from '@mikro-orm/postgresql';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { inSavepoint } from '../../core/events/fact-dispatcher.js';
import { AppError, NotFoundError } from '../../core/errors.js';
import { rowCapViolation } from '../../core/database/row-caps.js';
import { FinanceAccount } from '../../finance/finance-account.entity.js';
import { FinanceTransaction } from '../../finance/finance-transaction.entity.js';
import { TransactionService } from '../../finance/transaction.service.js';
import type { FilesRuntime } from '../../files/files-runtime.js';
import { WeekService } from '../../planning/week.service.js';
import { Book } from '../../reading/book.entity.js';
import { BookService } from '../../reading/book.service.js';
import { ReadingSessionService } from '../../reading/reading-session.service.js';
import { SettingsService } from '../../settings/settings.service.js';
import { ExerciseService } from '../../training/exercise.service.js';
import { TrainingSession } from '../../training/training-session.entity.js';
import { TrainingSessionService, type NewTrainingSession, type TrainingExerciseData } from '../../training/training-session.service.js';
import { zonedInstant, type CsvRow, type CsvTable, type Refusals } from './csv.js';
import { ExerciseMatcher } from './exercise-matcher.js';
import { parseBooks, type ImportedBook } from './goodreads.parser.js';
import type { ImportRun } from './import-run.entity.js';
import { parseWorkouts, workoutFormat } from './strong.parser.js';
import { parseTransactions, type ColumnMapping } from './transactions.parser.js';

export interface Outcome {
  created: number;
  skipped: number;
  refusals: Refusals;
  /** A workout chunk's exercise names: what each became, and those of workouts refused whole. */
  names?: { matched: Map<string, string>; created: Set<string>; left: Set<string> };
}

/**
 * Writes one source's rows, a chunk at a time, each chunk in a transaction of its own (ImportService).
 * What tells a record already there from a new one is read per chunk or kept across chunks here, so a
 * run resumed after a crash (the chunks before it `replay`ed, not written) decides exactly as one run.
 */
export interface ChunkApplier {
  /** A chunk an earlier run committed: only what later chunks need to know of it. */
  replay(rows: CsvRow[]): void;
  /**
   * Writes a chunk's records. With `isolate` each record is written in a savepoint, so one a rule
   * refuses is undone alone; without, a refused record throws RetryIsolated (the chunk is redone).
   */
  apply(tx: EntityManager, rows: CsvRow[], isolate: boolean): Promise<Outcome>;
  /** What the applier knows now; the returned function puts it back (a chunk rolled back to be redone). */
  checkpoint(): () => void;
  /** Whether a chunk may end between these rows (a workout's rows stay in one chunk). */
  canCut(previous: CsvRow, next: CsvRow): boolean;
  /**
   * Rows handed to `apply` at a time (more when a workout goes on): a chunk checks its time bound
   * between batches, and a batch shares its reads (records present, days).
   */
  readonly batchRows: number;
}

export async function applierFor(em: EntityManager, rt: FilesRuntime, run: ImportRun, header: string[]): Promise<ChunkApplier> {
  if (run.source === 'strong') return WorkoutApplier.create(em, run.userId, header);
  if (run.source === 'goodreads') return BookApplier.create(em, rt, run.userId, header);
  const options = run.options ?? {};
  return TransactionApplier.create(em, run, header, options.accountId as string, options.mapping as ColumnMapping);
}

/**
 * A rule refused a record of a chunk written without savepoints: the chunk is rolled back and written
 * again record by record in savepoints. Most chunks have no refused record and save the two savepoint
 * statements per record.
 */
export class RetryIsolated extends Error {}

/** Runs `write` (in a savepoint when `isolate`): a service rule it breaks refuses `rows` and undoes only this record. */
async function record(tx: EntityManager, outcome: Outcome, rows: number[], write: (em: EntityManager) => Promise<unknown>, isolate: boolean): Promise<boolean> {
  // Each record on an identity map of its own in the chunk's transaction: a flush then looks at this
  // record's entities, not at every one the chunk wrote before it (which made a chunk quadratic).
  const em = tx.fork({ keepTransactionContext: true });
  if (!isolate) {
    try {
      await write(em);
    } catch (caught) {
      const error = rowCapViolation(caught) ?? caught;
      throw error instanceof AppError ? new RetryIsolated(error.message) : error;
    }
    outcome.created += rows.length;
    return true;
  }
  try {
    // A refused record's facts go with its savepoint: no XP or event for what was not written.
    await inSavepoint(em, write);
    outcome.created += rows.length;
    return true;
  } catch (caught) {
    const error = rowCapViolation(caught) ?? caught;
    if (!(error instanceof AppError)) throw error;
    for (const row of rows) outcome.refusals.add(row, error.message);
    return false;
  }
}

/** Strong / Hevy: a training session per workout; one that exists (same start and name) is skipped whole. */
class WorkoutApplier implements ChunkApplier {
  private constructor(
    private readonly userId: string,
    private readonly header: string[],
    private readonly format: 'strong' | 'hevy',
    private readonly timezone: string,
    private readonly matcher: ExerciseMatcher,
  ) {}

  static async create(em: EntityManager, userId: string, header: string[]): Promise<WorkoutApplier> {
    const format = workoutFormat({ header, rows: [] });
    const timezone = await new SettingsService(em).timezoneOf(userId);
    return new WorkoutApplier(userId, header, format, timezone, new ExerciseMatcher(await new ExerciseService(em).search(userId)));
  }

  private workoutOf(row: CsvRow): string {
    const c = row.cells;
    return this.format === 'strong' ? `${c['Date']}\n${c['Workout Name']}` : `${c['start_time']}\n${c['title']}`;
  }

  /** Two or three workouts. */
  readonly batchRows = 50;

  canCut(previous: CsvRow, next: CsvRow): boolean {
    return this.workoutOf(previous) !== this.workoutOf(next);
  }

  replay(): void {}

  checkpoint(): () => void {
    return this.matcher.checkpoint();
  }

  async apply(tx: EntityManager, rows: CsvRow[], isolate: boolean): Promise<Outcome> {
    const { workouts, refusals } = parseWorkouts({ header: this.header, rows });
    const names = { matched: new Map<string, string>(), created: new Set<string>(), left: new Set<string>() };
    const outcome: Outcome = { created: 0, skipped: 0, refusals, names };
    if (!workouts.length) return outcome;
    const starts = workouts.map((w) => zonedInstant(w.start, this.timezone));
    const sessionKey = (start: Date, split: string) => `${start.getTime()}\n${split.trim()}`;
    const existing = await tx.find(TrainingSession, { userId: this.userId, startTime: { $in: starts } }, { fields: ['startTime', 'split'] });
    const present = new Set(existing.map((s) => sessionKey(s.startTime, s.split)));
    const exercises = new ExerciseService(tx);
    const fresh = workouts.filter((w, index) => !present.has(sessionKey(starts[index]!, w.split)));
    const days = await new WeekService(tx).ensureDays(this.userId, fresh.map((w) => w.start.date));
    const sessions: { rows: number[]; key: string; input: NewTrainingSession }[] = [];
    for (const [index, workout] of workouts.entries()) {
      const start = starts[index]!;
      const key = sessionKey(start, workout.split);
      if (present.has(key)) {
        outcome.skipped += workout.rows.length;
        continue;
      }
      const dayId = days.get(workout.start.date)!;
      const entries: TrainingExerciseData[] = [];
      for (const item of workout.exercises) {
        let exercise = this.matcher.find(item.name);
        if (exercise) {
          if (!names.created.has(item.name)) names.matched.set(item.name, exercise.name);
        } else {
          // Unknown to the catalog: the user's own exercise, named as the app named it.
          exercise = await exercises.create(this.userId, { name: item.name, category: item.timed ? 'cardio' : 'strength' });
          this.matcher.add(exercise);
          names.created.add(item.name);
        }
        entries.push({ exerciseId: exercise.id, sets: item.sets.map((s) => ({ reps: s.reps, load: s.load, rpe: s.rpe, notes: s.notes })) });
      }
      const endTime = workout.durationMinutes !== null ? new Date(start.getTime() + workout.durationMinutes * 60_000) : null;
      sessions.push({ rows: workout.rows, key, input: { dayId, split: workout.split, startTime: start, endTime, notes: workout.notes, exercises: entries } });
      present.add(key);
    }
    if (!isolate) {
      // The batch's sessions in one flush; one a rule refuses (a day's cap) has the chunk written again workout by workout.
      if (sessions.length) await record(tx, outcome, sessions.flatMap((s) => s.rows), (em) => new TrainingSessionService(em).createMany(this.userId, sessions.map((s) => s.input)), false);
    } else {
      for (const session of sessions) {
        if (!(await record(tx, outcome, session.rows, (em) => new TrainingSessionService(em).create(this.userId, session.input), true))) present.delete(session.key);
      }
    }
    // The names of rows refused before any exercise was looked up.
    const refused = new Set(refusals.rows.map((r) => r.row));
    const nameColumn = this.format === 'strong' ? 'Exercise Name' : 'exercise_title';
    for (const row of rows) if (refused.has(row.row) && row.cells[nameColumn]) names.left.add(row.cells[nameColumn]!);
    return outcome;
  }
}

const bookKey = (title: string, author: string) => `${title.replace(/\s+/g, ' ').trim().toLowerCase()}\n${author.replace(/\s+/g, ' ').trim().toLowerCase()}`;

/**
 * Goodreads: a book per row (title and author, any case, identify it: one already there is skipped).
 * A read book with a Date Read gets one reading session of all its pages on that day (which finishes
 * it and ticks that day's READING item, as a logged session does); read without a date, it is stored
 * finished; to-read and currently-reading books start at page 0.
 */
class BookApplier implements ChunkApplier {
  private constructor(
    private readonly rt: FilesRuntime,
    private readonly userId: string,
    private readonly header: string[],
    /** The user's books, kept across chunks: read once, then each created one added. */
    private readonly present: Set<string>,
  ) {}

  static async create(em: EntityManager, rt: FilesRuntime, userId: string, header: string[]): Promise<BookApplier> {
    parseBooks({ header, rows: [] }); // the columns, checked at upload, again before any write
    const existing = await em.find(Book, { userId }, { fields: ['title', 'author'] });
    return new BookApplier(rt, userId, header, new Set(existing.map((b) => bookKey(b.title, b.author))));
  }

  readonly batchRows = 25;

  canCut(): boolean {
    return true;
  }

  replay(): void {}

  checkpoint(): () => void {
    const kept = new Set(this.present);
    return () => {
      this.present.clear();
      for (const key of kept) this.present.add(key);
    };
  }

  async apply(tx: EntityManager, rows: CsvRow[], isolate: boolean): Promise<Outcome> {
    const { books, refusals } = parseBooks({ header: this.header, rows });
    const outcome: Outcome = { created: 0, skipped: 0, refusals };
    const dated = books.filter((b) => b.dateRead && !this.present.has(bookKey(b.title, b.author)));
    const days = await new WeekService(tx).ensureDays(this.userId, dated.map((b) => b.dateRead!));
    if (isolate) {
      for (const book of books) {
        const key = bookKey(book.title, book.author);
        if (this.present.has(key)) outcome.skipped += 1;
        else if (await record(tx, outcome, [book.row], (em) => this.write(em, [book], days), true)) this.present.add(key);
      }
      return outcome;
    }
    // The batch's books and sessions in a few statements; a book a rule refuses has the chunk written again book by book.
    const fresh: ImportedBook[] = [];
    for (const book of books) {
      const key = bookKey(book.title, book.author);
      if (this.present.has(key)) outcome.skipped += 1;
      else {
        fresh.push(book);
        this.present.add(key);
      }
    }
    if (fresh.length) await record(tx, outcome, fresh.map((b) => b.row), (em) => this.write(em, fresh, days), false);
    return outcome;
  }

  /**
   * Read books with a Date Read get one reading session of all their pages on that day (which finishes
   * them and ticks the day's READING item, as logged sessions do); read without a date they are stored
   * finished; others start at page 0. Goodreads does not record reading time: sessions last 0 minutes.
   */
  private async write(em: EntityManager, books: ImportedBook[], days: Map<string, string>): Promise<void> {
    const finishedUndated = (b: ImportedBook) => b.shelf === 'read' && !b.dateRead;
    const created = await new BookService(em, this.rt).createMany(
      this.userId,
      books.map((b) => ({ title: b.title, author: b.author, totalPages: b.totalPages, currentPage: finishedUndated(b) ? b.totalPages : 0 })),
    );
    const sessions = books.flatMap((b, i) => (b.dateRead ? [{ dayId: days.get(b.dateRead)!, bookId: created[i]!.id, pagesRead: b.totalPages, duration: 0 }] : []));
    await new ReadingSessionService(em).createMany(this.userId, sessions);
  }
}

/** Bank rows written by one statement. */
const WRITE_BATCH = 100;

const moneyKey = (date: string, amount: string, description: string | null | undefined) => `${date}\n${Number(amount).toFixed(2)}\n${description?.trim() ?? ''}`;

/**
 * A bank CSV into one account, through the finance service (each row moves the balance in the same
 * transaction). A row whose date, amount and description the account already held when the import
 * started is skipped; as many equal rows as the account held are skipped, so two real coffees of the
 * same price on one day both come in once: the n-th equal row of the file is skipped when the account
 * held at least n before. The counts of the file's rows carry across chunks (and are replayed on resume).
 */
class TransactionApplier implements ChunkApplier {
  private readonly seen = new Map<string, number>();

  private constructor(
    private readonly run: ImportRun,
    private readonly header: string[],
    private readonly accountId: string,
    private readonly mapping: ColumnMapping,
  ) {}

  static async create(em: EntityManager, run: ImportRun, header: string[], accountId: string, mapping: ColumnMapping): Promise<TransactionApplier> {
    if (!(await em.count(FinanceAccount, { id: accountId, userId: run.userId }))) throw new NotFoundError('Account', { field: 'accountId' });
    return new TransactionApplier(run, header, accountId, mapping);
  }

  readonly batchRows = WRITE_BATCH;

  canCut(): boolean {
    return true;
  }

  private occurrence(key: string): number {
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    return n;
  }

  checkpoint(): () => void {
    const kept = new Map(this.seen);
    return () => {
      this.seen.clear();
      for (const [key, n] of kept) this.seen.set(key, n);
    };
  }

  replay(rows: CsvRow[]): void {
    for (const t of parseTransactions({ header: this.header, rows }, this.mapping).transactions) this.occurrence(moneyKey(t.date, t.amount, t.description));
  }

  async apply(tx: EntityManager, rows: CsvRow[], isolate: boolean): Promise<Outcome> {
    const table: CsvTable = { header: this.header, rows };
    const { transactions, refusals } = parseTransactions(table, this.mapping);
    const outcome: Outcome = { created: 0, skipped: 0, refusals };
    const userId = this.run.userId;
    const dates = [...new Set(transactions.map((t) => t.date))];
    const before = this.run.startedAt ?? new Date();
    const existing = dates.length
      ? await tx.find(FinanceTransaction, { userId, accountId: this.accountId, date: { $in: dates }, createdAt: { $lt: before } }, { fields: ['date', 'amount', 'description'] })
      : [];
    const held = new Map<string, number>();
    for (const t of existing) {
      const key = moneyKey(t.date, t.amount, t.description);
      held.set(key, (held.get(key) ?? 0) + 1);
    }
    const fresh = transactions.filter((t) => {
      const key = moneyKey(t.date, t.amount, t.description);
      if (this.occurrence(key) > (held.get(key) ?? 0)) return true;
      outcome.skipped += 1;
      return false;
    });
    const write = (em: EntityManager, rows: typeof fresh) =>
      new TransactionService(em).createMany(
        userId,
        this.accountId,
        rows.map((t) => ({ amount: t.amount, description: t.description, category: t.category, date: t.date })),
      );
    if (!isolate) {
      // The chunk's new rows a batch at a time (the event loop free between batches: building a batch's
      // entities and statement is synchronous work); a row a rule refuses has the chunk written again
      // row by row.
      for (let at = 0; at < fresh.length; at += WRITE_BATCH) {
        const batch = fresh.slice(at, at + WRITE_BATCH);
        await record(tx, outcome, batch.map((t) => t.row), (em) => write(em, batch), false);
        await nextTurn();
      }
      return outcome;
    }
    for (const t of fresh) await record(tx, outcome, [t.row], (em) => write(em, [t]), true);
    return outcome;
  }
}
