import { z } from 'zod';
import { dateArg } from './common-arguments.js';
import { isoWeekday, mondayOf } from '../../../core/dates.js';
import { NotFoundError, ValidationError } from '../../../core/errors.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import type { DinnerPlan } from '../../../nutrition/dinner-plan.entity.js';
import { DinnerPlanService } from '../../../nutrition/dinner-plan.service.js';
import { GrocerySource, type GroceryItem, type GroceryList } from '../../../nutrition/grocery-list.entity.js';
import { GroceryListService } from '../../../nutrition/grocery-list.service.js';
import type { MealTemplate } from '../../../nutrition/meal-template.entity.js';
import { MealTemplateService } from '../../../nutrition/meal-template.service.js';
import {
  INSTRUCTIONS_MAX,
  LIST_ITEMS_MAX,
  MAX_INGREDIENTS,
  NAME_MAX,
  QUANTITY_MAX,
  QUANTITY_POSITIVE_MESSAGE,
  SECTION_MAX,
  SERVINGS_MAX,
  SERVINGS_MESSAGES,
  UNIT_MAX,
} from '../../../nutrition/nutrition.types.js';
import { DayService } from '../../../planning/day.service.js';
import { createPlanningLoaders } from '../../../planning/planning.loaders.js';
import { WeekService } from '../../../planning/week.service.js';
import { pickByName } from './by-name.js';
import { isoDate, isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';

// ---------------------------------------------------------------- arguments

const weekIdArg = z.string().uuid().optional().describe("A week's id; else the week holding `date`; else this week.");
const weekDateArg = dateArg().describe("Any day of the week wanted (YYYY-MM-DD); this week (the user's today) when absent.");
const quantity = z
  .number()
  .positive(QUANTITY_POSITIVE_MESSAGE)
  .max(QUANTITY_MAX, `quantity must not be greater than ${QUANTITY_MAX}`);
const itemFields = {
  name: requiredText('name', NAME_MAX),
  quantity: quantity.optional().describe('Above 0; leave out for "to taste" / unspecified.'),
  unit: optionalText('unit', UNIT_MAX).describe('e.g. g, ml, pcs; empty by default.'),
  section: optionalText('section', SECTION_MAX).describe('Shop section, e.g. produce; empty by default.'),
};

// ---------------------------------------------------------------- answers

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const weekdayOf = (date: string) => WEEKDAYS[isoWeekday(date) - 1]!;

const dinnerOut = z.object({
  dinnerPlanId: z.string(),
  dayId: z.string(),
  date: isoDate,
  weekday: z.string(),
  isCookDay: z.boolean().describe('Monday, Wednesday and Friday: the cook also feeds the next day.'),
  eatsMealOf: isoDate.nullable().describe("Tuesday, Thursday and Saturday: the cook day whose meal this dinner eats (set the meal there)."),
  mealTemplateId: z.string().nullable(),
  meal: z.string().nullable().describe("The meal template's name; null when no meal is set."),
  cooked: z.boolean(),
});
type DinnerOut = z.infer<typeof dinnerOut>;

const groceryItemOut = z.object({
  id: z.string(),
  name: z.string(),
  quantity: z.number().nullable(),
  unit: z.string(),
  purchased: z.boolean(),
  source: z.enum(Object.values(GrocerySource) as [GrocerySource, ...GrocerySource[]]).describe("plan: the week's cook days; carried: unpurchased last week; manual: added by hand."),
});

const groceryListShape = {
  groceryListId: z.string(),
  weekId: z.string(),
  total: z.number().describe('Items on the list.'),
  missing: z.number().describe('Items not purchased yet.'),
  sections: z.array(z.object({ section: z.string().nullable().describe('null: items without a section (last).'), items: z.array(groceryItemOut) })),
};

const ingredientOut = z.object({ name: z.string(), quantity: z.number().nullable(), unit: z.string(), section: z.string() });
const mealTemplateOut = z.object({
  id: z.string(),
  name: z.string(),
  servings: z.number().nullable(),
  ingredients: z.array(ingredientOut),
  instructions: z.string().nullable(),
  createdAt: isoDateTime,
});

function groceryItemJson(item: GroceryItem) {
  return { id: item.id, name: item.name, quantity: item.quantity ?? null, unit: item.unit, purchased: item.purchased, source: item.source };
}

function mealTemplateJson(t: MealTemplate) {
  return {
    id: t.id,
    name: t.name,
    servings: t.servings ?? null,
    ingredients: t.ingredients.map((i) => ({ name: i.name, quantity: i.quantity ?? null, unit: i.unit, section: i.section })),
    instructions: t.instructions ?? null,
    createdAt: t.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------- reading through the services

/**
 * The week a tool works on: the id given, else the week holding `date`, else this week (today's, made
 * on first read as everywhere). A date's week is made when `create` (the generating tools); a read of a
 * week never generated is NOT_FOUND.
 */
async function weekOf(ctx: ToolContext, args: { weekId?: string; date?: string }, create = false): Promise<string> {
  if (args.weekId) return args.weekId;
  if (!args.date) return (await ctx.service(DayService).today(ctx.userId)).weekId;
  const weeks = ctx.service(WeekService);
  return create ? (await weeks.ensureDay(ctx.userId, args.date)).weekId : (await weeks.findByStart(ctx.userId, mondayOf(args.date))).id;
}

/** The week's dinner plans (7 once generated, none before), the week checked to be the caller's. */
async function weekDinners(ctx: ToolContext, weekId: string): Promise<DinnerPlan[]> {
  return (await ctx.service(DinnerPlanService).list(ctx.userId, { weekId, limit: 7 })).items;
}

/** The plans as the tools answer them, with their meals' names and the cook day each covered day eats. */
async function dinnersJson(ctx: ToolContext, plans: DinnerPlan[]): Promise<DinnerOut[]> {
  const ids = [...new Set(plans.map((p) => p.mealTemplateId).filter((id): id is string => !!id))];
  const names = await ctx.service(MealTemplateService).namesOf(ctx.userId, ids);
  const dateOf = new Map(plans.map((p) => [p.id, p.date]));
  return plans.map((p) => ({
    dinnerPlanId: p.id,
    dayId: p.dayId,
    date: p.date,
    weekday: weekdayOf(p.date),
    isCookDay: p.isCookDay,
    eatsMealOf: (p.coveredByDinnerPlanId && dateOf.get(p.coveredByDinnerPlanId)) || null,
    mealTemplateId: p.mealTemplateId ?? null,
    meal: (p.mealTemplateId && names.get(p.mealTemplateId)) || null,
    cooked: p.cooked,
  }));
}

async function dinnerWeekJson(ctx: ToolContext, weekId: string, plans: DinnerPlan[]) {
  const week = await createPlanningLoaders(ctx.em).weekById.load(weekId);
  return { weekId, startDate: week!.startDate, dinners: await dinnersJson(ctx, plans) };
}

async function groceryListJson(ctx: ToolContext, list: GroceryList, onlyMissing = false) {
  const items = await ctx.service(GroceryListService).items(ctx.userId, list.id);
  const sections: { section: string | null; items: ReturnType<typeof groceryItemJson>[] }[] = [];
  const byKey = new Map<string, (typeof sections)[number]>();
  for (const item of items) {
    if (onlyMissing && item.purchased) continue;
    const key = item.section.trim().toLowerCase();
    let section = byKey.get(key);
    if (!section) {
      section = { section: item.section || null, items: [] };
      byKey.set(key, section);
      sections.push(section);
    }
    section.items.push(groceryItemJson(item));
  }
  return { groceryListId: list.id, weekId: list.weekId, total: items.length, missing: items.filter((i) => !i.purchased).length, sections };
}

/** Every template of the caller (the candidates of a name), read a page at a time. */
async function allTemplates(ctx: ToolContext): Promise<MealTemplate[]> {
  const service = ctx.service(MealTemplateService);
  const all: MealTemplate[] = [];
  for (let page = 1; ; page++) {
    const { items, meta } = await service.list(ctx.userId, { page, limit: MAX_PAGE_SIZE });
    all.push(...items);
    if (!items.length || all.length >= meta.total) return all;
  }
}

/** The list a grocery tool works on: the id given (checked to be the caller's on use), else the week's. */
async function groceryListIdOf(ctx: ToolContext, args: { groceryListId?: string; weekId?: string; date?: string }): Promise<string> {
  if (args.groceryListId) return args.groceryListId;
  return (await ctx.service(GroceryListService).getForWeek(ctx.userId, await weekOf(ctx, args))).id;
}

// ---------------------------------------------------------------- tools

export const nutritionTools: ConnectorTool[] = [
  defineTool({
    name: 'nutrition_dinner_plan',
    mirrors: 'Query.dinnerPlans',
    title: 'Dinner plan of a week',
    description:
      "The week's dinners (this week by default; or the week holding `date`, or `weekId`), Monday to Sunday: each day's meal (template name), whether it is a cook day (Monday, Wednesday, Friday), which cook day a Tuesday, Thursday or Saturday eats from, and whether it was cooked. `generated` is false (no dinners) until nutrition_generate_dinner_plan ran for the week. A date whose week was never generated is NOT_FOUND.",
    inputSchema: { weekId: weekIdArg, date: weekDateArg },
    outputSchema: { weekId: z.string(), startDate: isoDate, generated: z.boolean(), dinners: z.array(dinnerOut) },
    area: 'food',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const weekId = await weekOf(ctx, args);
      const plans = await weekDinners(ctx, weekId);
      return { ...(await dinnerWeekJson(ctx, weekId, plans)), generated: plans.length > 0 };
    },
  }),
  defineTool({
    name: 'nutrition_generate_dinner_plan',
    mirrors: 'Mutation.generateDinnerWeek',
    title: "Generate a week's dinner plan",
    description:
      "Makes the week's 7 dinners under the cooking rule (3 cooks feed 6 dinners: Monday, Wednesday and Friday cook, the next day eats the same, Sunday is free), with no meals yet; this week by default, or the week holding `date` (made if needed), or `weekId`. Again answers the same 7 (`created` false). Records no event.",
    inputSchema: { weekId: weekIdArg, date: weekDateArg },
    outputSchema: { weekId: z.string(), startDate: isoDate, created: z.boolean(), dinners: z.array(dinnerOut) },
    area: 'food',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const weekId = await weekOf(ctx, args, true);
      const { plans, created } = await ctx.service(DinnerPlanService).generateWeek(ctx.userId, weekId);
      return { ...(await dinnerWeekJson(ctx, weekId, plans)), created };
    },
  }),
  defineTool({
    name: 'nutrition_set_dinner',
    mirrors: 'Mutation.updateDinnerPlan',
    title: "Set a day's dinner",
    description:
      "Changes one day's dinner (by `dinnerPlanId`, or the dinner of `date`, today by default): the meal as a template of the user's (`mealTemplateId`, or `mealTemplateName`; `mealTemplateId: null` clears it) and/or `cooked`. Cooking rule: a cook day's meal is set on the day it covers too (`alsoEatenOn`); a Tuesday, Thursday or Saturday eats its cook day's meal and takes none of its own (VALIDATION_ERROR, rule cooking_rule). `cooked: true` on a cook day completes the day's COOK checklist item (records checklist_completed, earns XP); false reopens it. Meals are templates only (no free text): add one with nutrition_add_meal_template.",
    inputSchema: {
      dinnerPlanId: z.string().uuid().optional().describe('The dinner to change; else the dinner of `date`.'),
      date: z.iso.date().optional().describe("The day (YYYY-MM-DD) whose dinner to change; the user's today when absent."),
      mealTemplateId: z.string().uuid().nullable().optional().describe('A template of the user\'s; null clears the meal.'),
      mealTemplateName: z.string().max(NAME_MAX).optional().describe("A template's name (exact, or a unique part of it), instead of its id."),
      cooked: z.boolean().optional(),
    },
    outputSchema: { dinner: dinnerOut, alsoEatenOn: z.array(isoDate).describe('The covered days that eat this meal too.') },
    area: 'food',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const service = ctx.service(DinnerPlanService);
      let planId = args.dinnerPlanId;
      if (!planId) {
        const date = args.date ?? (await ctx.service(DayService).today(ctx.userId)).date;
        const week = await ctx.service(WeekService).findByStart(ctx.userId, mondayOf(date));
        const plan = (await weekDinners(ctx, week.id)).find((p) => p.date === date);
        if (!plan) throw new NotFoundError('Dinner plan', { field: 'date', date, hint: "the week's dinners are not generated yet: run nutrition_generate_dinner_plan first" });
        planId = plan.id;
      }
      let mealTemplateId = args.mealTemplateId;
      if (mealTemplateId === undefined && args.mealTemplateName !== undefined) {
        mealTemplateId = pickByName('Meal template', await allTemplates(ctx), args.mealTemplateName, (t) => t.name, (t) => t.id).id;
      }
      if (mealTemplateId === undefined && args.cooked === undefined) {
        throw new ValidationError('Nothing to change: give a meal (mealTemplateId or mealTemplateName) or cooked', [{ path: [], message: 'mealTemplateId, mealTemplateName or cooked is required' }]);
      }
      const changed = await service.update(ctx.userId, planId, {
        ...(mealTemplateId !== undefined ? { mealTemplateId } : {}),
        ...(args.cooked !== undefined ? { cooked: args.cooked } : {}),
      });
      const week = await weekDinners(ctx, changed.weekId);
      const dinners = await dinnersJson(ctx, week);
      return {
        dinner: dinners.find((d) => d.dinnerPlanId === changed.id)!,
        alsoEatenOn: week.filter((p) => p.coveredByDinnerPlanId === changed.id).map((p) => p.date),
      };
    },
  }),
  defineTool({
    name: 'nutrition_meal_templates',
    mirrors: 'Query.mealTemplates',
    title: 'List meal templates',
    description: "The user's meal templates (recipes), oldest first, with servings, ingredients (one batch) and instructions; paginated (`page` from 1, `limit` up to 100).",
    inputSchema: {
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 50; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: { mealTemplates: z.array(mealTemplateOut), meta: pageMetaOut },
    area: 'food',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(MealTemplateService).list(ctx.userId, args);
      return { mealTemplates: page.items.map(mealTemplateJson), meta: page.meta };
    },
  }),
  defineTool({
    name: 'nutrition_add_meal_template',
    mirrors: 'Mutation.createMealTemplate',
    title: 'Add a meal template',
    description:
      'A new meal template (recipe) a dinner can use: a name, ingredients for one batch (each with an optional quantity, unit and shop section; they feed the grocery list of the weeks it is cooked), optional instructions and servings. Records no event.',
    inputSchema: {
      name: requiredText('name', NAME_MAX),
      ingredients: z.array(z.object(itemFields)).max(MAX_INGREDIENTS, `at most ${MAX_INGREDIENTS} ingredients`).optional().describe('Defaults to none.'),
      instructions: optionalText('instructions', INSTRUCTIONS_MAX),
      servings: z
        .number({ error: SERVINGS_MESSAGES.whole })
        .int(SERVINGS_MESSAGES.whole)
        .min(1, SERVINGS_MESSAGES.min)
        .max(SERVINGS_MAX, SERVINGS_MESSAGES.max)
        .optional()
        .describe(`1-${SERVINGS_MAX}.`),
    },
    outputSchema: mealTemplateOut.shape,
    area: 'food',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return mealTemplateJson(await ctx.service(MealTemplateService).create(ctx.userId, args));
    },
  }),
  defineTool({
    name: 'nutrition_grocery_list',
    mirrors: 'Query.groceryList',
    title: 'Grocery list of a week',
    description:
      "The week's grocery list (this week by default; or the week holding `date`, or `weekId`), grouped by shop section (items without one last), each item with its quantity, unit and whether it is purchased; `missing` counts what is still to buy, `onlyMissing` shows only those. NOT_FOUND until the list is generated (nutrition_generate_grocery_list).",
    inputSchema: { weekId: weekIdArg, date: weekDateArg, onlyMissing: z.boolean().optional().describe('Only items not purchased yet (default false).') },
    outputSchema: groceryListShape,
    area: 'food',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const list = await ctx.service(GroceryListService).getForWeek(ctx.userId, await weekOf(ctx, args));
      return groceryListJson(ctx, list, args.onlyMissing ?? false);
    },
  }),
  defineTool({
    name: 'nutrition_generate_grocery_list',
    mirrors: 'Mutation.generateGroceryList',
    title: "Generate a week's grocery list",
    description:
      "Makes the week's grocery list from its cook days' meals (one batch each, merged by name and unit), this week by default (or the week holding `date`, or `weekId`); the previous week's unpurchased items are carried in once. Again refreshes it (`created` false): plan items follow the meals, purchased, carried and manual items stay. Records no event.",
    inputSchema: { weekId: weekIdArg, date: weekDateArg },
    outputSchema: { ...groceryListShape, created: z.boolean() },
    area: 'food',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const { list, created } = await ctx.service(GroceryListService).generate(ctx.userId, await weekOf(ctx, args, true));
      return { ...(await groceryListJson(ctx, list)), created };
    },
  }),
  defineTool({
    name: 'nutrition_add_grocery_items',
    mirrors: 'Mutation.addGroceryItem',
    title: 'Add grocery items',
    description:
      "Adds one or several items by hand (each a name with an optional quantity, unit and shop section; kept when the list is refreshed) to a week's grocery list (this week by default; or the week holding `date`, `weekId` or `groceryListId`); all or none are added. The list must be generated first. Records no event.",
    inputSchema: {
      items: z.array(z.object(itemFields)).min(1, 'give at least one item').max(LIST_ITEMS_MAX, `at most ${LIST_ITEMS_MAX} items`),
      groceryListId: z.string().uuid().optional(),
      weekId: weekIdArg,
      date: weekDateArg,
    },
    outputSchema: { groceryListId: z.string(), added: z.array(groceryItemOut) },
    area: 'food',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const listId = await groceryListIdOf(ctx, args);
      const added = await ctx.em.transactional(async (em) => {
        const service = ctx.on(em).service(GroceryListService);
        const items: GroceryItem[] = [];
        for (const item of args.items) items.push(await service.addItem(ctx.userId, listId, item));
        return items;
      });
      return { groceryListId: listId, added: added.map(groceryItemJson) };
    },
  }),
  defineTool({
    name: 'nutrition_tick_grocery_item',
    mirrors: 'Mutation.updateGroceryItem',
    title: 'Tick a grocery item',
    description:
      "Marks an item of a week's grocery list purchased (default) or, with `purchased: false`, not purchased; the item by `itemId` or by `name` (exact, or a unique part of it). The list: `groceryListId`, or the week's (this week by default; or the week holding `date`, or `weekId`). Records no event.",
    inputSchema: {
      itemId: z.string().uuid().optional(),
      name: z.string().max(NAME_MAX).optional().describe("The item's name, instead of its id."),
      purchased: z.boolean().optional().describe('true (default): purchased; false: still to buy.'),
      groceryListId: z.string().uuid().optional(),
      weekId: weekIdArg,
      date: weekDateArg,
    },
    outputSchema: { groceryListId: z.string(), item: groceryItemOut, missing: z.number().describe('Items of the list still to buy.') },
    area: 'food',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const service = ctx.service(GroceryListService);
      const listId = await groceryListIdOf(ctx, args);
      let itemId = args.itemId;
      if (!itemId) {
        if (args.name === undefined) throw new ValidationError("Give the item's id or name", [{ path: [], message: 'itemId or name is required' }]);
        itemId = pickByName('Grocery item', await service.items(ctx.userId, listId), args.name, (i) => i.name, (i) => i.id).id;
      }
      const item = await service.setPurchased(ctx.userId, listId, itemId, args.purchased ?? true);
      const missing = (await service.items(ctx.userId, listId)).filter((i) => !i.purchased).length;
      return { groceryListId: listId, item: groceryItemJson(item), missing };
    },
  }),
];
