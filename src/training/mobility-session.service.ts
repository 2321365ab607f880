import { recordFact } from '../core/events/fact-dispatcher.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import type { Page, PageArgs } from '../core/pagination.js';
import { dayRangeWhere, lockDay, type DayRange } from '../planning/day-scope.js';
import { checkLunchSlot } from './lunch-slot.js';
import { MobilitySession } from './mobility-session.entity.js';
import { findPage } from '../core/database/find-page.js';
import { removeOwned } from '../core/database/remove-owned.js';

export interface NewMobilitySession {
  dayId: string;
  focus: string;
  /** Minutes. */
  duration: number;
  /** 1-10. */
  intensity: number;
}

export interface MobilitySessionFilter extends DayRange, PageArgs {}

export class MobilitySessionService {
  constructor(private readonly em: EntityManager) {}

  /** Refused by the lunch slot rule when the day already has a cardio session. */
  async create(userId: string, input: NewMobilitySession): Promise<MobilitySession> {
    return this.em.transactional(async (em) => {
      await lockDay(em, userId, input.dayId);
      await checkLunchSlot(em, input.dayId, 'mobility');
      const session = em.create(MobilitySession, {
        userId,
        dayId: input.dayId,
        focus: input.focus.trim(),
        duration: input.duration,
        intensity: input.intensity,
      });
      recordFact(em, userId, 'mobility_logged', { sessionId: session.id });
      return session;
    });
  }

  /** Takes a session back: `mobility_deleted` (gamification takes its XP back). */
  async remove(userId: string, sessionId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await removeOwned(em, MobilitySession, userId, sessionId, 'Mobility session');
      recordFact(em, userId, 'mobility_deleted', { sessionId });
    });
  }

  async list(userId: string, filter: MobilitySessionFilter): Promise<Page<MobilitySession>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<MobilitySession>;
    return findPage(this.em, MobilitySession, where, { createdAt: 'asc', id: 'asc' }, filter);
  }
}
