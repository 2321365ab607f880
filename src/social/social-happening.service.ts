import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { happeningIdsWithGuest } from './social.queries.js';
import { toDate, type DateInput } from '../core/datetimes.js';
import { dayRangeWhere, requireDay, type DayRange } from '../planning/day-scope.js';
import { Person } from './person.entity.js';
import { SocialHappening } from './social-happening.entity.js';

export interface NewSocialHappening {
  dayId: string;
  title: string;
  startTime: DateInput;
  endTime: DateInput;
  location?: string | null;
  guestIds?: string[] | null;
  itemIds?: string[] | null;
}

/** Absent keys stay; null clears location, guestIds and itemIds. */
export interface SocialHappeningChanges {
  dayId?: string;
  title?: string;
  startTime?: DateInput;
  endTime?: DateInput;
  location?: string | null;
  guestIds?: string[] | null;
  itemIds?: string[] | null;
}

export interface SocialHappeningFilter extends DayRange, PageArgs {
  personId?: string | null;
}

/** startTime < endTime strictly (a happening lasts some time); refused naming endTime. */
function checkTimes(startTime: Date, endTime: Date): void {
  if (endTime.getTime() <= startTime.getTime()) {
    const message = 'endTime must be after startTime';
    throw new ValidationError(message, [{ path: ['endTime'], message }]);
  }
}

const unique = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/** Every guest must be one of the caller's people; one missing or foreign id answers 404 naming guestIds. */
async function requireGuests(em: EntityManager, userId: string, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const count = await em.count(Person, { id: { $in: [...ids] }, userId });
  if (count !== ids.length) throw new NotFoundError('Person', { field: 'guestIds' });
}

/** The caller's person, or NOT_FOUND naming `field`. */
export async function requirePerson(em: EntityManager, userId: string, personId: string, field: string): Promise<void> {
  const count = await em.count(Person, { id: personId, userId });
  if (!count) throw new NotFoundError('Person', { field });
}

/** Social happenings of one user: on one of their days, with their own people as guests. */
export class SocialHappeningService {
  constructor(private readonly em: EntityManager) {}

  /** Most recent first (a personal CRM's "last seen"). */
  async list(userId: string, filter: SocialHappeningFilter): Promise<Page<SocialHappening>> {
    const where: FilterQuery<SocialHappening> = { userId, ...((await dayRangeWhere(this.em, userId, filter)) as object) };
    if (filter.personId) {
      await requirePerson(this.em, userId, filter.personId, 'personId');
      const ids = await happeningIdsWithGuest(this.em, userId, filter.personId.toLowerCase());
      where.$and = [{ id: { $in: ids } }];
    }
    return findPage(this.em, SocialHappening, where, { startTime: 'desc', id: 'asc' }, filter);
  }

  async get(userId: string, happeningId: string): Promise<SocialHappening> {
    const happening = await this.em.findOne(SocialHappening, { id: happeningId, userId });
    if (!happening) throw new NotFoundError('SocialHappening');
    return happening;
  }

  async create(userId: string, input: NewSocialHappening): Promise<SocialHappening> {
    const startTime = toDate(input.startTime, 'startTime')!;
    const endTime = toDate(input.endTime, 'endTime')!;
    checkTimes(startTime, endTime);
    const guestIds = unique(input.guestIds ?? []);
    await requireDay(this.em, userId, input.dayId);
    await requireGuests(this.em, userId, guestIds);
    const happening = this.em.create(SocialHappening, {
      userId,
      dayId: input.dayId,
      title: input.title.trim(),
      startTime,
      endTime,
      location: input.location?.trim() || null,
      guestIds,
      itemIds: unique(input.itemIds ?? []),
    });
    await this.em.flush();
    return happening;
  }

  async update(userId: string, happeningId: string, changes: SocialHappeningChanges): Promise<SocialHappening> {
    const happening = await this.get(userId, happeningId);
    const startTime = toDate(changes.startTime, 'startTime') ?? happening.startTime;
    const endTime = toDate(changes.endTime, 'endTime') ?? happening.endTime;
    checkTimes(startTime, endTime);
    if (changes.dayId !== undefined) await requireDay(this.em, userId, changes.dayId);
    const guestIds = changes.guestIds !== undefined ? unique(changes.guestIds ?? []) : undefined;
    if (guestIds) await requireGuests(this.em, userId, guestIds);
    if (changes.dayId !== undefined) happening.dayId = changes.dayId;
    if (changes.title !== undefined) happening.title = changes.title.trim();
    happening.startTime = startTime;
    happening.endTime = endTime;
    if (changes.location !== undefined) happening.location = changes.location?.trim() || null;
    if (guestIds) happening.guestIds = guestIds;
    if (changes.itemIds !== undefined) happening.itemIds = unique(changes.itemIds ?? []);
    await this.em.flush();
    return happening;
  }

  /** Transactions that named it keep their row, with socialHappeningId set to null. */
  async delete(userId: string, happeningId: string): Promise<Deleted> {
    const happening = await this.get(userId, happeningId);
    await this.em.remove(happening).flush();
    return deleted(happeningId, 'SocialHappening');
  }
}
