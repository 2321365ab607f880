import type { EntityManager } from '@mikro-orm/postgresql';
import { inSavepoint } from '../../core/events/fact-dispatcher.js';
import { AppError, NotFoundError, ValidationError } from '../../core/errors.js';
import { rowCapViolation } from '../../core/database/row-caps.js';
import { queryRows } from '../../core/database/read-rows.js';
import type { Logger } from '../../core/logger.js';
import { FinanceAccount } from '../../finance/finance-account.entity.js';
import { FinanceTransaction } from '../../finance/finance-transaction.entity.js';
import { TransactionService } from '../../finance/transaction.service.js';
import type { FilesRuntime } from '../../files/files-runtime.js';
import { WeekService } from '../../planning/week.service.js';
import { Book } from '../../reading/book.entity.js';
import { BookService } from '../../reading/book.service.js';
import { ReadingSessionService } from '../../reading/reading-session.service.js';
import { SettingsService } from '../../settings/settings.service.js';
import type { Exercise } from '../../training/exercise.entity.js';
import { ExerciseService } from '../../training/exercise.service.js';
import { TrainingSession } from '../../training/training-session.entity.js';
import { TrainingSessionService, type TrainingExerciseData } from '../../training/training-session.service.js';
import { readCsv, Refusals, requireColumns, zonedInstant, type CsvTable } from './csv.js';
import { GOODREADS_COLUMNS, parseBooks } from './goodreads.parser.js';
import { IMPORT_SOURCES, ImportRun, type ImportSource, type RefusedRow } from './import-run.entity.js';
import { parseWorkouts, workoutFormat } from './strong.parser.js';
import { checkMapping, parseTransactions, readMapping, type ColumnMapping } from './transactions.parser.js';

/** GET /account/import/:id */
export interface ImportView {
  id: string;
  status: string;
  created: number;
  skipped: number;
  refused: RefusedRow[];
}

interface Outcome {
  created: number;
  skipped: number;
  refusals: Refusals;
}

export function requireSource(source: string | undefined): ImportSource {
  if (!source || !(IMPORT_SOURCES as readonly string[]).includes(source)) {
    const message = `source must be one of ${IMPORT_SOURCES.join(', ')}`;
    throw new ValidationError(message, [{ path: ['source'], message }]);
  }
  return source as ImportSource;
}

export function importView(run: ImportRun): ImportView {
  return { id: run.id, status: run.status, created: run.created, skipped: run.skipped, refused: run.refused };
}

/** The last word of `exercise` names the equipment the catalog assumes when it names none. */
const IMPLIED_EQUIPMENT = new Set(['barbell']);

function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)); // Curls = Curl, Press stays
}

/**
 * Matches the apps' exercise names to the user's catalog (own exercises first, then global): the same
 * words in any order, any case, accents and punctuation ignored, a plural s dropped, so "Bench Press
 * (Barbell)" is the catalog's "Bench Press" and "Curls, Hammer" is "Hammer Curl". "(Dumbbell)" and other
 * equipment stays part of the name: a dumbbell press is not the barbell one.
 */
export class ExerciseMatcher {
  private readonly byKey = new Map<string, Exercise>();

  constructor(catalog: Exercise[]) {
    for (const own of [true, false]) for (const e of catalog) if (!e.isGlobal === own) this.add(e);
  }

  static key(tokens: string[]): string {
    return [...tokens].sort().join(' ');
  }

  add(exercise: Exercise): void {
    const key = ExerciseMatcher.key(words(exercise.name));
    if (!this.byKey.has(key)) this.byKey.set(key, exercise);
  }

  find(name: string): Exercise | undefined {
    const tokens = words(name);
    return this.byKey.get(ExerciseMatcher.key(tokens)) ?? this.byKey.get(ExerciseMatcher.key(tokens.filter((t) => !IMPLIED_EQUIPMENT.has(t))));
  }
}

/**
 * CSV imports from the apps people leave (operations.md "Portability"). `start` checks the upload and
 * stores it with its options; `run` (the job) writes every record through the domains' services in ONE
 * database transaction, so an import is all there or not at all. Records already present are skipped
 * (the same file twice adds nothing); a row that fails a check or a service rule is refused with its
 * reason, the others go in.
 */
export class ImportService {
  constructor(private readonly em: EntityManager) {}

  /** Checks the file and its options (400 / 404 now, not in the job) and stores the pending import. */
  async start(userId: string, source: ImportSource, content: string, fields: Record<string, string>): Promise<ImportRun> {
    const table = readCsv(content);
    let options: Record<string, unknown> | null = null;
    if (source === 'strong') workoutFormat(table);
    else if (source === 'goodreads') requireColumns(table, GOODREADS_COLUMNS, 'Goodreads library');
    else {
      // The edge checked accountId's shape (a UUID) before this.
      const id = fields.accountId;
      if (!id) throw new ValidationError('accountId is required', [{ path: ['accountId'], message: 'accountId is required' }]);
      const mapping = readMapping(fields.mapping);
      checkMapping(mapping, table);
      if (!(await this.em.count(FinanceAccount, { id, userId }))) throw new NotFoundError('Account', { field: 'accountId' });
      options = { accountId: id, mapping };
    }
    const run = this.em.create(ImportRun, { userId, source, content, options });
    await this.em.flush();
    return run;
  }

  async get(userId: string, importId: string): Promise<ImportRun> {
    const run = await this.em.findOne(ImportRun, { id: importId, userId });
    if (!run) throw new NotFoundError('Import');
    return run;
  }

  /**
   * Runs a pending import (the job's work). Imports of one user run one at a time (an advisory lock),
   * so two uploads of the same file cannot both create. Any failure other than a refused row rolls
   * everything back and marks the import failed.
   */
  async run(importId: string, rt: FilesRuntime, log: Logger): Promise<void> {
    const run = await this.em.findOne(ImportRun, { id: importId }, { populate: ['content'] });
    if (!run || run.status === 'done' || run.status === 'failed') return;
    run.status = 'running';
    await this.em.flush();
    try {
      await this.em.transactional(async (tx) => {
        await queryRows(tx, 'select pg_advisory_xact_lock(hashtext($1))', [`life-planner:import:${run.userId}`]);
        const table = readCsv(run.content ?? '');
        const outcome = await apply(tx, rt, run.userId, run.source, table, run.options ?? {});
        await tx.nativeUpdate(ImportRun, { id: run.id }, {
          status: 'done',
          created: outcome.created,
          skipped: outcome.skipped,
          refused: outcome.refusals.sorted(),
          content: null,
          finishedAt: new Date(),
        });
      });
    } catch (error) {
      log.error({ err: error, importId }, 'import failed; nothing of it was kept');
      await this.em.fork().nativeUpdate(ImportRun, { id: run.id }, { status: 'failed', created: 0, skipped: 0, refused: [], content: null, finishedAt: new Date() });
    }
  }
}

/** Runs `write` in a savepoint: a service rule it breaks refuses `rows` and undoes only this record. */
async function record(tx: EntityManager, outcome: Outcome, rows: number[], write: (em: EntityManager) => Promise<unknown>): Promise<boolean> {
  try {
    // A refused record's facts go with its savepoint: no XP or event for what was not written.
    await inSavepoint(tx, write);
    outcome.created += rows.length;
    return true;
  } catch (caught) {
    const error = rowCapViolation(caught) ?? caught;
    if (!(error instanceof AppError)) throw error;
    for (const row of rows) outcome.refusals.add(row, error.message);
    return false;
  }
}

/** The user's day of `date` (made with its week when needed), once per date. */
function dayFinder(tx: EntityManager, userId: string): (date: string) => Promise<string> {
  const days = new Map<string, string>();
  return async (date) => {
    let id = days.get(date);
    if (!id) {
      id = (await new WeekService(tx).ensureDay(userId, date)).id;
      days.set(date, id);
    }
    return id;
  };
}

async function apply(tx: EntityManager, rt: FilesRuntime, userId: string, source: ImportSource, table: CsvTable, options: Record<string, unknown>): Promise<Outcome> {
  if (source === 'strong') return applyWorkouts(tx, userId, table);
  if (source === 'goodreads') return applyBooks(tx, rt, userId, table);
  return applyTransactions(tx, userId, table, options.accountId as string, options.mapping as ColumnMapping);
}

/** Strong / Hevy: a training session per workout; one that exists (same start and name) is skipped whole. */
async function applyWorkouts(tx: EntityManager, userId: string, table: CsvTable): Promise<Outcome> {
  const { workouts, refusals } = parseWorkouts(table);
  const outcome: Outcome = { created: 0, skipped: 0, refusals };
  if (!workouts.length) return outcome;
  const timezone = await new SettingsService(tx).timezoneOf(userId);
  const starts = workouts.map((w) => zonedInstant(w.start, timezone));
  const sessionKey = (start: Date, split: string) => `${start.getTime()}\n${split.trim()}`;
  const existing = await tx.find(TrainingSession, { userId, startTime: { $in: starts } }, { fields: ['startTime', 'split'] });
  const present = new Set(existing.map((s) => sessionKey(s.startTime, s.split)));
  const exercises = new ExerciseService(tx);
  const matcher = new ExerciseMatcher(await exercises.search(userId));
  const dayOf = dayFinder(tx, userId);

  for (const [index, workout] of workouts.entries()) {
    const start = starts[index]!;
    const key = sessionKey(start, workout.split);
    if (present.has(key)) {
      outcome.skipped += workout.rows.length;
      continue;
    }
    const dayId = await dayOf(workout.start.date);
    const entries: TrainingExerciseData[] = [];
    for (const item of workout.exercises) {
      let exercise = matcher.find(item.name);
      if (!exercise) {
        // Unknown to the catalog: the user's own exercise, named as the app named it.
        exercise = await exercises.create(userId, { name: item.name, category: item.timed ? 'cardio' : 'strength' });
        matcher.add(exercise);
      }
      entries.push({ exerciseId: exercise.id, sets: item.sets.map((s) => ({ reps: s.reps, load: s.load, rpe: s.rpe, notes: s.notes })) });
    }
    const endTime = workout.durationMinutes !== null ? new Date(start.getTime() + workout.durationMinutes * 60_000) : null;
    const ok = await record(tx, outcome, workout.rows, (em) =>
      new TrainingSessionService(em).create(userId, { dayId, split: workout.split, startTime: start, endTime, notes: workout.notes, exercises: entries }),
    );
    if (ok) present.add(key);
  }
  return outcome;
}

const bookKey = (title: string, author: string) => `${title.replace(/\s+/g, ' ').trim().toLowerCase()}\n${author.replace(/\s+/g, ' ').trim().toLowerCase()}`;

/**
 * Goodreads: a book per row (title and author, any case, identify it: one already there is skipped).
 * A read book with a Date Read gets one reading session of all its pages on that day (which finishes
 * it and ticks that day's READING item, as a logged session does); read without a date, it is stored
 * finished; to-read and currently-reading books start at page 0.
 */
async function applyBooks(tx: EntityManager, rt: FilesRuntime, userId: string, table: CsvTable): Promise<Outcome> {
  const { books, refusals } = parseBooks(table);
  const outcome: Outcome = { created: 0, skipped: 0, refusals };
  const existing = await tx.find(Book, { userId }, { fields: ['title', 'author'] });
  const present = new Set(existing.map((b) => bookKey(b.title, b.author)));
  const dayOf = dayFinder(tx, userId);
  for (const book of books) {
    const key = bookKey(book.title, book.author);
    if (present.has(key)) {
      outcome.skipped += 1;
      continue;
    }
    const dayId = book.dateRead ? await dayOf(book.dateRead) : null;
    const ok = await record(tx, outcome, [book.row], async (em) => {
      const finishedUndated = book.shelf === 'read' && !dayId;
      const created = await new BookService(em, rt).create(userId, { title: book.title, author: book.author, totalPages: book.totalPages, currentPage: finishedUndated ? book.totalPages : 0 });
      // Goodreads does not record reading time: the session's duration is 0 minutes.
      if (dayId) await new ReadingSessionService(em).create(userId, { dayId, bookId: created.id, pagesRead: book.totalPages, duration: 0 });
    });
    if (ok) present.add(key);
  }
  return outcome;
}

const moneyKey = (date: string, amount: string, description: string | null | undefined) => `${date}\n${Number(amount).toFixed(2)}\n${description?.trim() ?? ''}`;

/**
 * A bank CSV into one account, through the finance service (each row moves the balance in the same
 * transaction). A row whose date, amount and description the account already holds is skipped; as many
 * equal rows as the account holds are skipped, so two real coffees of the same price on one day both
 * come in once.
 */
async function applyTransactions(tx: EntityManager, userId: string, table: CsvTable, accountId: string, mapping: ColumnMapping): Promise<Outcome> {
  const { transactions, refusals } = parseTransactions(table, mapping);
  const outcome: Outcome = { created: 0, skipped: 0, refusals };
  if (!(await tx.count(FinanceAccount, { id: accountId, userId }))) throw new NotFoundError('Account', { field: 'accountId' });
  const dates = [...new Set(transactions.map((t) => t.date))];
  const existing = dates.length ? await tx.find(FinanceTransaction, { userId, accountId, date: { $in: dates } }, { fields: ['date', 'amount', 'description'] }) : [];
  const present = new Map<string, number>();
  for (const t of existing) {
    const key = moneyKey(t.date, t.amount, t.description);
    present.set(key, (present.get(key) ?? 0) + 1);
  }
  const service = (em: EntityManager) => new TransactionService(em);
  for (const t of transactions) {
    const key = moneyKey(t.date, t.amount, t.description);
    const held = present.get(key) ?? 0;
    if (held > 0) {
      present.set(key, held - 1);
      outcome.skipped += 1;
      continue;
    }
    await record(tx, outcome, [t.row], (em) => service(em).create(userId, { accountId, amount: t.amount, description: t.description, category: t.category, date: t.date }));
  }
  return outcome;
}
