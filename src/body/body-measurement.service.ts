import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { dayRangeWhere, requireDay } from '../planning/day-scope.js';
import { toDate, type DateInput } from '../core/datetimes.js';
import { BodyMeasurement } from './body-measurement.entity.js';
import { findPage } from '../core/database/find-page.js';
import { removeOwned } from '../core/database/remove-owned.js';

export interface NewBodyMeasurement {
  dayId: string;
  /** Kilograms. */
  weight?: number | null;
  /** Percent 0-100. */
  bodyFat?: number | null;
  /** Centimetres. */
  waist?: number | null;
  hip?: number | null;
  notes?: string | null;
  /** Defaults to now. */
  measuredAt?: DateInput | null;
}

export interface BodyMeasurementFilter extends PageArgs {
  startDate?: string | null;
  endDate?: string | null;
}

const METRICS = ['weight', 'bodyFat', 'waist', 'hip'] as const;

export class BodyMeasurementService {
  constructor(private readonly em: EntityManager) {}

  /** A measurement needs at least one of weight, bodyFat, waist, hip. */
  async create(userId: string, input: NewBodyMeasurement): Promise<BodyMeasurement> {
    if (METRICS.every((m) => input[m] === undefined || input[m] === null)) {
      const message = 'A measurement needs at least one of weight, bodyFat, waist, hip';
      throw new ValidationError(message, METRICS.map((m) => ({ path: [m], message })));
    }
    const measuredAt = toDate(input.measuredAt, 'measuredAt') ?? new Date();
    await requireDay(this.em, userId, input.dayId);
    const row = this.em.create(BodyMeasurement, {
      userId,
      dayId: input.dayId,
      weight: input.weight ?? null,
      bodyFat: input.bodyFat ?? null,
      waist: input.waist ?? null,
      hip: input.hip ?? null,
      notes: input.notes ?? null,
      measuredAt,
    });
    await this.em.flush();
    return row;
  }

  async remove(userId: string, measurementId: string): Promise<void> {
    await removeOwned(this.em, BodyMeasurement, userId, measurementId, 'Body measurement');
    await this.em.flush();
  }

  /** The user's measurements by measuredAt; startDate/endDate bound the day of each. */
  async list(userId: string, filter: BodyMeasurementFilter): Promise<Page<BodyMeasurement>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<BodyMeasurement>;
    return findPage(this.em, BodyMeasurement, where, { measuredAt: 'asc', id: 'asc' }, filter);
  }

  /** As `list`, newest first (the latest measurements on page 1). */
  async latest(userId: string, filter: BodyMeasurementFilter): Promise<Page<BodyMeasurement>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<BodyMeasurement>;
    return findPage(this.em, BodyMeasurement, where, { measuredAt: 'desc', id: 'desc' }, filter);
  }
}
