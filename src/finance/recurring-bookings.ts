import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { nextOccurrence, occurrencesBetween, type Recurrence } from '../core/recurrence/recurrence.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import { bookOccurrences, claimDueSeries, type Booking, type DueSeries } from './finance.queries.js';

/**
 * Series one batch claims (one database transaction). With BOOKING_BATCH_DATES, a batch inserts at most
 * 1,500 rows in one statement; planning and sending it holds the event loop under ~25 ms (measured: 500
 * daily series catching up 14 months, 30,000 rows a run in ~0.8 s).
 */
export const BOOKING_BATCH_SERIES = 25;
/** Dates of one series one batch books at most: a long catch-up goes on in the next batch or run. */
export const BOOKING_BATCH_DATES = 60;
/** Batches one run makes at most; what is left is due again at the next run (a minute later). */
export const BOOKING_BATCHES_PER_RUN = 20;

export interface BookingRun {
  /** Series claimed (a series claimed again in a later batch counts again). */
  series: number;
  /** Transactions inserted. */
  booked: number;
  /** Whether the run stopped at BOOKING_BATCHES_PER_RUN (or was asked to stop) with series possibly still due. */
  more: boolean;
}

export interface BookingOptions {
  /** The instant whose local dates are due (default: now). */
  now?: Date;
  logger?: Logger;
  /** Stops between batches (shutdown). */
  signal?: AbortSignal;
}

/**
 * The dates of one claimed series to book in this batch (from its `next_date` to its owner's today, at
 * most BOOKING_BATCH_DATES) and the date to book after them (null: the series has ended).
 */
function plan(series: DueSeries): { dates: string[]; next: string | null } {
  const recurrence: Recurrence = { rule: series.rule, start: series.start, end: series.end };
  const dates = occurrencesBetween(recurrence, series.nextDate, series.today, BOOKING_BATCH_DATES);
  const after = dates.length === BOOKING_BATCH_DATES ? dates[dates.length - 1]! : series.today;
  return { dates, next: nextOccurrence(recurrence, after) };
}

interface BatchResult {
  /** The series claimed. */
  series: string[];
  /** Rows inserted. */
  booked: number;
  /** A series still has dates due (its catch-up is longer than a batch books). */
  pending: boolean;
}

/**
 * One batch in one transaction: claim due series (locked, SKIP LOCKED), book their dates and move
 * `next_date` on, commit. Answers the series claimed and the rows inserted.
 */
async function bookBatch(em: EntityManager, now: Date, log: Logger | undefined, onlyId: string | null = null): Promise<BatchResult> {
  return em.transactional(async (tx) => {
    const claimed = await claimDueSeries(tx, now, DEFAULT_TIMEZONE, onlyId ? 1 : BOOKING_BATCH_SERIES, onlyId);
    if (!claimed.length) return { series: [], booked: 0, pending: false };
    let pending = false;
    const booking: Booking = { occurrences: [], advances: [] };
    for (const series of claimed) {
      let planned: { dates: string[]; next: string | null };
      try {
        planned = plan(series);
      } catch (error) {
        // A stored rule rrule cannot expand any more: the series cannot book, so it stops (its rows stay).
        log?.error({ err: error, seriesId: series.id }, 'recurring transaction rule cannot be expanded; series stopped');
        planned = { dates: [], next: null };
      }
      for (const date of planned.dates) booking.occurrences.push({ id: randomUUID(), seriesId: series.id, date });
      booking.advances.push({ seriesId: series.id, nextDate: planned.next });
      if (planned.next !== null && planned.next <= series.today) pending = true;
    }
    const booked = await bookOccurrences(tx, booking);
    return { series: claimed.map((s) => s.id), booked, pending };
  });
}

/**
 * Books every recurring transaction whose date has come (in its owner's time zone), exactly once:
 * batches of BOOKING_BATCH_SERIES series, each one transaction that claims its series with
 * `FOR UPDATE SKIP LOCKED`, inserts the dates under the unique (series, occurrence date) key, moves the
 * balances by what was inserted and moves `next_date` on. Two runs at once (two instances, a retried
 * job) share the due series between them, and a rerun finds nothing due: nothing is booked twice. A
 * run makes at most BOOKING_BATCHES_PER_RUN batches (with a turn of the event loop between them); a
 * longer catch-up (after downtime) continues at the next run.
 */
export async function bookDueTransactions(em: EntityManager, options: BookingOptions = {}): Promise<BookingRun> {
  const now = options.now ?? new Date();
  const run: BookingRun = { series: 0, booked: 0, more: false };
  for (let batch = 0; batch < BOOKING_BATCHES_PER_RUN; batch++) {
    if (options.signal?.aborted) return { ...run, more: true };
    let result: BatchResult;
    try {
      result = await bookBatch(em.fork(), now, options.logger);
    } catch (error) {
      // One series' booking failed the batch (a balance past numeric(15,2)): book the batch's series one
      // by one, so the others are not held back by it; the failing one stays due and is logged.
      options.logger?.warn({ err: error }, 'recurring transaction batch failed; booking its series one by one');
      result = await bookOneByOne(em, now, options.logger);
    }
    run.series += result.series.length;
    run.booked += result.booked;
    // Fewer than a batch: nothing else is due but what another run holds (it books that), unless a
    // series of this batch has more dates due than a batch books.
    if (result.series.length < BOOKING_BATCH_SERIES && !result.pending) return run;
    await nextTurn();
  }
  return { ...run, more: true };
}

/** After a failed batch: the due series (unlocked ids, read again by claiming) booked one per transaction. */
async function bookOneByOne(em: EntityManager, now: Date, log: Logger | undefined): Promise<BatchResult> {
  const ids = await em.fork().transactional(async (tx) => (await claimDueSeries(tx, now, DEFAULT_TIMEZONE, BOOKING_BATCH_SERIES)).map((s) => s.id));
  const result: BatchResult = { series: [], booked: 0, pending: false };
  for (const id of ids) {
    try {
      const one = await bookBatch(em.fork(), now, log, id);
      result.series.push(...one.series);
      result.booked += one.booked;
      result.pending ||= one.pending;
    } catch (error) {
      log?.error({ err: error, seriesId: id }, 'recurring transaction could not be booked; it stays due');
    }
  }
  return result;
}
