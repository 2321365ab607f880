import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { recordEvent } from '../core/events/record-event.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { CardioEffort } from './cardio-effort.js';
import { CardioSession } from './cardio-session.entity.js';
import { dayRangeWhere, lockDay, type DayRange } from '../planning/day-scope.js';
import { checkLunchSlot } from './lunch-slot.js';
import { checkOrder, toDate, type DateInput } from '../core/datetimes.js';
import { findPage } from '../core/database/find-page.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import { removeOwned } from '../core/database/remove-owned.js';

export interface NewCardioSession {
  dayId: string;
  type: string;
  /** Minutes. */
  duration: number;
  /** Kilometres. */
  distance?: number | null;
  /** 1-10 (session API). */
  intensity?: number | null;
  /** easy | zone2 | hard (the Public API's intensity). */
  effort?: CardioEffort | `${CardioEffort}` | null;
  pace?: number | null;
  averageHeartRate?: number | null;
  maxHeartRate?: number | null;
  calories?: number | null;
  elevationGain?: number | null;
  /** Defaults to now. */
  startTime?: DateInput | null;
  endTime?: DateInput | null;
  notes?: string | null;
}

export interface CardioSessionFilter extends DayRange, PageArgs {}

export class CardioSessionService {
  constructor(private readonly em: EntityManager) {}

  /** Refused by the lunch slot rule when the day already has a mobility session; records cardio_logged. */
  async create(userId: string, input: NewCardioSession): Promise<CardioSession> {
    const now = new Date();
    const startTime = toDate(input.startTime, 'startTime') ?? now;
    const endTime = toDate(input.endTime, 'endTime') ?? null;
    checkOrder(startTime, endTime, 'startTime', 'endTime');
    return this.em.transactional(async (em) => {
      await lockDay(em, userId, input.dayId);
      await checkLunchSlot(em, input.dayId, 'cardio');
      const session = em.create(CardioSession, {
        userId,
        dayId: input.dayId,
        type: input.type.trim(),
        duration: input.duration,
        distance: input.distance ?? null,
        intensity: input.intensity ?? null,
        effort: (input.effort ?? null) as CardioEffort | null,
        pace: input.pace ?? null,
        averageHeartRate: input.averageHeartRate ?? null,
        maxHeartRate: input.maxHeartRate ?? null,
        calories: input.calories ?? null,
        elevationGain: input.elevationGain ?? null,
        startTime,
        endTime,
        notes: input.notes ?? null,
      });
      recordEvent(em, userId, 'cardio_logged', { sessionId: session.id, loggedAt: now.toISOString() }, now);
      return session;
    });
  }

  /** Takes a session back: `cardio_deleted` (gamification takes its XP back). */
  async remove(userId: string, sessionId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await removeOwned(em, CardioSession, userId, sessionId, 'Cardio session');
      recordFact(em, userId, 'cardio_deleted', { sessionId });
    });
  }

  async list(userId: string, filter: CardioSessionFilter): Promise<Page<CardioSession>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<CardioSession>;
    return findPage(this.em, CardioSession, where, { startTime: 'asc', id: 'asc' }, filter);
  }
}
