import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays } from '../core/dates.js';
import { NotFoundError } from '../core/errors.js';
import { Week } from '../planning/week.entity.js';
import { DinnerPlan } from './dinner-plan.entity.js';
import { lockWeek } from './dinner-plan.service.js';
import { GroceryItem, GroceryList, GrocerySource } from './grocery-list.entity.js';
import { compareGroceryItems, itemKey, mergeIngredients } from './grocery-merge.js';
import { MealTemplate } from './meal-template.entity.js';

export interface GeneratedGroceryList {
  list: GroceryList;
  created: boolean;
}

export interface NewGroceryItem {
  name: string;
  quantity?: number | null;
  unit?: string | null;
  section?: string | null;
}

/**
 * One grocery list per week, made from the templates of the week's cook days (one batch each). Making it
 * again refreshes the plan items in place and keeps purchased, carried and manual ones; the previous
 * week's unpurchased items are carried in once each.
 */
export class GroceryListService {
  constructor(private readonly em: EntityManager) {}

  async generate(userId: string, weekId: string): Promise<GeneratedGroceryList> {
    return this.em.transactional(async (em) => {
      const week = await lockWeek(em, userId, weekId);
      const existing = await em.findOne(GroceryList, { weekId, userId });
      const list = existing ?? em.create(GroceryList, { userId, weekId });
      const items = existing ? await em.find(GroceryItem, { listId: list.id }) : [];
      await this.refreshPlanItems(em, userId, list, items);
      await this.carryOver(em, userId, week, list, items);
      if (existing) list.updatedAt = new Date();
      await em.flush();
      return { list, created: !existing };
    });
  }

  async getForWeek(userId: string, weekId: string): Promise<GroceryList> {
    if (!(await this.em.count(Week, { id: weekId, userId }))) throw new NotFoundError('Week', { field: 'weekId' });
    const list = await this.em.findOne(GroceryList, { weekId, userId });
    if (!list) throw new NotFoundError('Grocery list');
    return list;
  }

  /** The list's items in the order every surface shows them (by section, then name); the list must be the caller's. */
  async items(userId: string, listId: string): Promise<GroceryItem[]> {
    await this.requireList(userId, listId);
    return (await this.em.find(GroceryItem, { listId, userId })).sort(compareGroceryItems);
  }

  async setPurchased(userId: string, listId: string, itemId: string, purchased: boolean): Promise<GroceryItem> {
    await this.requireList(userId, listId);
    const item = await this.em.findOne(GroceryItem, { id: itemId, listId, userId });
    if (!item) throw new NotFoundError('Grocery item');
    item.purchased = purchased;
    await this.em.flush();
    return item;
  }

  async addItem(userId: string, listId: string, input: NewGroceryItem): Promise<GroceryItem> {
    await this.requireList(userId, listId);
    const item = this.em.create(GroceryItem, {
      userId,
      listId,
      name: input.name.trim(),
      quantity: input.quantity ?? null,
      unit: (input.unit ?? '').trim(),
      section: (input.section ?? '').trim(),
      source: GrocerySource.manual,
    });
    await this.em.flush();
    return item;
  }

  /** Removes an item of the list (a generated one comes back with the next refresh). */
  async removeItem(userId: string, listId: string, itemId: string): Promise<void> {
    await this.requireList(userId, listId);
    const item = await this.em.findOne(GroceryItem, { id: itemId, listId, userId });
    if (!item) throw new NotFoundError('Grocery item');
    await this.em.remove(item).flush();
  }

  private async requireList(userId: string, listId: string): Promise<void> {
    if (!(await this.em.count(GroceryList, { id: listId, userId }))) throw new NotFoundError('Grocery list');
  }

  /**
   * Plan items follow the cook days' templates: an unpurchased one gets the new quantity or goes; a
   * purchased one stays as it is and its ingredient is not added again.
   */
  private async refreshPlanItems(em: EntityManager, userId: string, list: GroceryList, items: GroceryItem[]): Promise<void> {
    const cooks = await em.find(DinnerPlan, { weekId: list.weekId, userId, isCookDay: true, mealTemplateId: { $ne: null } }, { orderBy: { date: 'asc' } });
    const templateIds = cooks.map((p) => p.mealTemplateId!);
    const templates = new Map((await em.find(MealTemplate, { id: { $in: templateIds }, userId })).map((t) => [t.id, t]));
    const wanted = mergeIngredients(templateIds.map((id) => templates.get(id)?.ingredients ?? []));
    const planItems = new Map(items.filter((i) => i.source === GrocerySource.plan).map((i) => [itemKey(i.name, i.unit), i]));
    for (const want of wanted) {
      const item = planItems.get(want.key);
      planItems.delete(want.key);
      if (item?.purchased) continue;
      if (item) Object.assign(item, { name: want.name, quantity: want.quantity, unit: want.unit, section: want.section });
      else em.create(GroceryItem, { userId, listId: list.id, name: want.name, quantity: want.quantity, unit: want.unit, section: want.section, source: GrocerySource.plan });
    }
    for (const gone of planItems.values()) if (!gone.purchased) em.remove(gone);
  }

  /** The previous week's unpurchased items, each carried into this list once (never again on a refresh). */
  private async carryOver(em: EntityManager, userId: string, week: Week, list: GroceryList, items: GroceryItem[]): Promise<void> {
    const previousWeek = await em.findOne(Week, { userId, startDate: addDays(week.startDate, -7) });
    const previousList = previousWeek && (await em.findOne(GroceryList, { weekId: previousWeek.id, userId }));
    if (!previousList) return;
    const carried = new Set(items.map((i) => i.carriedFromItemId).filter(Boolean));
    const open = await em.find(GroceryItem, { listId: previousList.id, purchased: false }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    for (const old of open) {
      if (carried.has(old.id)) continue;
      em.create(GroceryItem, {
        userId,
        listId: list.id,
        name: old.name,
        quantity: old.quantity,
        unit: old.unit,
        section: old.section,
        source: GrocerySource.carried,
        carriedFromItemId: old.id,
      });
    }
  }
}
