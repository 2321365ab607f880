import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { DinnerPlan } from './dinner-plan.entity.js';
import { GroceryItem } from './grocery-list.entity.js';
import { compareGroceryItems } from './grocery-merge.js';

/**
 * Per-request loaders of the nutrition module, one query per relation whatever the number of parents.
 * Keyed on ids reached through an owner-checked read; plain read-only rows.
 */
export function createNutritionLoaders(em: EntityManager) {
  return {
    /** A day has at most one dinner plan (unique day_id); null until the week's plans are generated. */
    dinnerPlanByDayId: new DataLoader<string, DinnerPlan | null>(async (dayIds) => {
      const rows = await readRows(em, DinnerPlan, { where: 'dayId', values: dayIds, orderBy: ['id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId).map((plans) => plans[0] ?? null);
    }),

    itemsByGroceryListId: new DataLoader<string, GroceryItem[]>(async (listIds) => {
      const rows = await readRows(em, GroceryItem, { where: 'listId', values: listIds, orderBy: ['createdAt', 'id'] });
      return groupUnder(listIds, rows, (r) => r.listId).map((items) => items.sort(compareGroceryItems));
    }),
  };
}

export type NutritionLoaders = ReturnType<typeof createNutritionLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const NUTRITION_DAY_FIELDS = { dinnerPlan: ['DinnerPlan'] } as const satisfies DayFieldSources;
