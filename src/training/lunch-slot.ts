import type { EntityManager } from '@mikro-orm/postgresql';
import { RuleViolationError } from '../core/errors.js';
import { CardioSession } from './cardio-session.entity.js';
import { MobilitySession } from './mobility-session.entity.js';

export type LunchSlotKind = 'mobility' | 'cardio';

/**
 * Spec rule 2: a day cannot have both a mobility and a cardio session. Call inside the transaction
 * that holds the day row's lock, so two concurrent writes of the two kinds cannot both pass.
 */
export async function checkLunchSlot(em: EntityManager, dayId: string, adding: LunchSlotKind): Promise<void> {
  const other: LunchSlotKind = adding === 'mobility' ? 'cardio' : 'mobility';
  const taken = await em.count(other === 'cardio' ? CardioSession : MobilitySession, { dayId });
  if (taken) {
    throw new RuleViolationError(
      'lunch_slot',
      `Lunch slot rule: this day already has a ${other} session, so it cannot also have a ${adding} session`,
      ['dayId'],
    );
  }
}
