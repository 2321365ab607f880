import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage } from '../core/database/find-page.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { ChecklistService } from '../planning/checklist.service.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { requireDay } from '../planning/day-scope.js';
import { Day } from '../planning/day.entity.js';
import { Week } from '../planning/week.entity.js';
import { COOKING_RULE, isCookDay, isCoveredDay } from './cooking-rule.js';
import { DinnerPlan } from './dinner-plan.entity.js';
import { MealTemplate } from './meal-template.entity.js';

export interface GeneratedDinnerWeek {
  plans: DinnerPlan[];
  created: boolean;
}

export interface DinnerPlanFilter extends PageArgs {
  weekId?: string | null;
  dayId?: string | null;
}

/** Absent leaves a field as it is; a null `mealTemplateId` clears the meal. */
export interface DinnerPlanChanges {
  mealTemplateId?: string | null;
  cooked?: boolean;
}

/** The caller's week, its row locked for the transaction (serialises generating its plans and list). */
export async function lockWeek(em: EntityManager, userId: string, weekId: string): Promise<Week> {
  const week = await em.findOne(Week, { id: weekId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!week) throw new NotFoundError('Week', { field: 'weekId' });
  return week;
}

/** Dinner plans under the cooking rule (src/nutrition/cooking-rule.ts). */
export class DinnerPlanService {
  constructor(private readonly em: EntityManager) {}

  /** The week's 7 plans, made on the first call; later calls return the same 7 (`created` false). */
  async generateWeek(userId: string, weekId: string): Promise<GeneratedDinnerWeek> {
    try {
      return await this.em.transactional(async (em) => {
        await lockWeek(em, userId, weekId);
        const existing = await em.find(DinnerPlan, { weekId }, { orderBy: { date: 'asc' } });
        if (existing.length) return { plans: existing, created: false };
        const days = await em.find(Day, { weekId, userId }, { orderBy: { date: 'asc' } });
        const plans: DinnerPlan[] = [];
        for (const day of days) {
          const cover = plans.at(-1);
          plans.push(
            em.create(DinnerPlan, {
              userId,
              weekId,
              dayId: day.id,
              date: day.date,
              isCookDay: isCookDay(day.date),
              coveredByDinnerPlanId: isCoveredDay(day.date) && cover?.isCookDay ? cover.id : null,
            }),
          );
        }
        return { plans, created: true };
      });
    } catch (error) {
      // The week row lock makes this rare (a day's plan made through another path): answer with what exists.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      return { plans: await this.em.fork().find(DinnerPlan, { weekId, userId }, { orderBy: { date: 'asc' } }), created: false };
    }
  }

  /** By date; `weekId` and `dayId` must be the caller's (404 naming the field otherwise). */
  async list(userId: string, filter: DinnerPlanFilter): Promise<Page<DinnerPlan>> {
    const where: FilterQuery<DinnerPlan> = { userId };
    if (filter.weekId) {
      if (!(await this.em.count(Week, { id: filter.weekId, userId }))) throw new NotFoundError('Week', { field: 'weekId' });
      where.weekId = filter.weekId;
    }
    if (filter.dayId) {
      await requireDay(this.em, userId, filter.dayId);
      where.dayId = filter.dayId;
    }
    return findPage(this.em, DinnerPlan, where, { date: 'asc', id: 'asc' }, filter);
  }

  async update(userId: string, planId: string, changes: DinnerPlanChanges): Promise<DinnerPlan> {
    return this.em.transactional(async (em) => {
      const plan = await em.findOne(DinnerPlan, { id: planId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!plan) throw new NotFoundError('Dinner plan');
      if (changes.mealTemplateId !== undefined) await this.setMeal(em, userId, plan, changes.mealTemplateId);
      if (changes.cooked !== undefined && changes.cooked !== plan.cooked) {
        plan.cooked = changes.cooked;
        plan.cookedAt = changes.cooked ? new Date() : null;
        await em.flush();
        // Cooking is the COOK item of a cook day; on other days it is only noted on the plan.
        if (plan.isCookDay) await new ChecklistService(em).setCompleted(userId, plan.dayId, ChecklistKey.COOK, changes.cooked);
      }
      await em.flush();
      return plan;
    });
  }

  /** A cook day's meal is the covered day's too; a covered day cannot take a meal of its own. */
  private async setMeal(em: EntityManager, userId: string, plan: DinnerPlan, mealTemplateId: string | null): Promise<void> {
    if (plan.coveredByDinnerPlanId) {
      if (mealTemplateId === plan.mealTemplateId) return; // sending back the meal it already eats changes nothing
      throw new RuleViolationError(COOKING_RULE, "this dinner eats its cook day's meal: set the meal on the cook day's plan", ['mealTemplateId']);
    }
    if (mealTemplateId && !(await em.count(MealTemplate, { id: mealTemplateId, userId }))) {
      throw new NotFoundError('Meal template', { field: 'mealTemplateId' });
    }
    plan.mealTemplateId = mealTemplateId;
    if (plan.isCookDay) {
      const covered = await em.find(DinnerPlan, { coveredByDinnerPlanId: plan.id, userId });
      for (const other of covered) other.mealTemplateId = mealTemplateId;
    }
  }
}
