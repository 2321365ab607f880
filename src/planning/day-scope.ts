import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isOwnDay } from './planning.queries.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { Day } from './day.entity.js';

/** The day filters of the activity lists: `dayId`, or a `startDate`..`endDate` range (either end open). */
export interface DayRange {
  dayId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
}

/**
 * Checks the day is the caller's, or throws NotFoundError naming `field` (a missing day and another
 * user's day look the same). One plain statement: most writes only need the check.
 */
export async function requireDay(em: EntityManager, userId: string, dayId: string, options: { field?: string } = {}): Promise<void> {
  if (!(await isOwnDay(em, userId, dayId))) throw new NotFoundError('Day', { field: options.field ?? 'dayId' });
}

/** `requireDay` for many days: one statement. */
export async function requireDays(em: EntityManager, userId: string, dayIds: readonly string[], options: { field?: string } = {}): Promise<void> {
  const wanted = [...new Set(dayIds)];
  if (!wanted.length) return;
  if ((await em.count(Day, { id: { $in: wanted }, userId })) !== wanted.length) throw new NotFoundError('Day', { field: options.field ?? 'dayId' });
}

/**
 * Whether a write failed because its day is gone: the day's ownership check (NOT_FOUND naming the Day),
 * or PostgreSQL's foreign-key violation (23503) on a `day_id` column (constraint `<table>_day_id_foreign`,
 * as the naming strategy names them).
 */
export function isMissingDay(error: unknown): boolean {
  if (error instanceof NotFoundError) return error.details?.resource === 'Day';
  const { code, constraint, table } = (error ?? {}) as { code?: unknown; constraint?: unknown; table?: unknown };
  return code === '23503' && typeof table === 'string' && constraint === `${table}_day_id_foreign`;
}

/**
 * A day the caller has just read by its owner (e.g. today, found by user and date): a write given it
 * needs no second ownership statement.
 */
export interface OwnedDay {
  id: string;
  userId: string;
}

/**
 * requireDay, unless `owned` is that very day of that user (already read by owner): one ownership check
 * per write instead of two.
 */
export async function requireDayUnlessOwned(em: EntityManager, userId: string, dayId: string, owned: OwnedDay | undefined, options: { field?: string } = {}): Promise<void> {
  if (owned && owned.id === dayId && owned.userId === userId) return;
  await requireDay(em, userId, dayId, options);
}

/**
 * The caller's day as a managed entity, its row locked for the rest of the transaction (serialises
 * writes per day), or NotFoundError naming `field` like requireDay.
 */
export async function lockDay(em: EntityManager, userId: string, dayId: string, options: { field?: string } = {}): Promise<Day> {
  const day = await em.findOne(Day, { id: dayId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!day) throw new NotFoundError('Day', { field: options.field ?? 'dayId' });
  return day;
}

/** `lockDay` for many days: one statement, rows locked in id order (the order every multi-day writer keeps). */
export async function lockDays(em: EntityManager, userId: string, dayIds: readonly string[], options: { field?: string } = {}): Promise<Map<string, Day>> {
  const wanted = [...new Set(dayIds)];
  const days = await em.find(Day, { id: { $in: wanted }, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  if (days.length !== wanted.length) throw new NotFoundError('Day', { field: options.field ?? 'dayId' });
  return new Map(days.map((day) => [day.id, day]));
}

/**
 * The `where` fragment selecting rows of the caller's days matched by the range. Rows are also filtered
 * by `userId` by the caller; a `dayId` that is not the caller's answers 404 like a missing one.
 */
export async function dayRangeWhere(em: EntityManager, userId: string, range: DayRange): Promise<{ dayId?: unknown }> {
  if (range.startDate && range.endDate && range.startDate > range.endDate) {
    const message = 'startDate must not be after endDate';
    throw new ValidationError(message, [{ path: ['startDate'], message }]);
  }
  const where: { dayId?: unknown } = {};
  if (range.dayId) {
    await requireDay(em, userId, range.dayId);
    where.dayId = range.dayId;
  }
  if (range.startDate || range.endDate) {
    const date: Record<string, string> = {};
    if (range.startDate) date.$gte = range.startDate;
    if (range.endDate) date.$lte = range.endDate;
    const days = await em.find(Day, { userId, date }, { fields: ['id'] });
    const ids = days.map((d) => d.id).filter((id) => !range.dayId || id === range.dayId);
    where.dayId = { $in: ids };
  }
  return where;
}
