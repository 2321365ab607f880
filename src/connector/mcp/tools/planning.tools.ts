import { z } from 'zod';
import { dateArg, dateOrToday, dayIdArg, expectedVersionArg } from './common-arguments.js';
import { bedtimeTargetsFor } from '../../../planning/bedtime-targets.js';
import { ChecklistKey, requiredChecklist } from '../../../planning/checklist-key.js';
import { ChecklistService } from '../../../planning/checklist.service.js';
import { DayService } from '../../../planning/day.service.js';
import { createPlanningLoaders } from '../../../planning/planning.loaders.js';
import { SettingsService } from '../../../settings/settings.service.js';
import { TaskService } from '../../../tasks/task.service.js';
import { WeekService } from '../../../planning/week.service.js';
import { mondayOf } from '../../../core/dates.js';
import type { Day } from '../../../planning/day.entity.js';
import type { ChecklistItem } from '../../../planning/checklist-item.entity.js';
import type { Task } from '../../../tasks/task.entity.js';
import { areaField } from '../../scopes/answer-areas.js';
import { isoDate, isoDateTime, taskOut } from './outputs.js';
import { defineTool, READ_ONLY, type ConnectorTool, type ToolContext } from './tool.js';

const checklistItemOut = z.object({
  key: z.enum(Object.values(ChecklistKey) as [ChecklistKey, ...ChecklistKey[]]),
  completed: z.boolean(),
  required: z.boolean(),
  value: z.unknown().describe('What the item carries when done (e.g. litres for WATER), or null.'),
  completedAt: isoDateTime.nullable(),
  version: z.number().describe("Goes up with every change: send it back as checklist_toggle's expectedVersion so a change made meanwhile is not undone."),
});

export function checklistItemJson(item: ChecklistItem, required: readonly ChecklistKey[]) {
  return { key: item.key, completed: item.completed, required: required.includes(item.key), value: item.value ?? null, completedAt: item.completedAt?.toISOString() ?? null, version: item.version };
}

export function taskJson(task: Task) {
  return {
    id: task.id,
    title: task.title,
    description: task.description ?? null,
    status: task.status,
    timebox: task.timebox,
    nextStep: task.nextStep ?? null,
    categoryId: task.categoryId ?? null,
    dayId: task.dayId ?? null,
    startTime: task.startTime ?? null,
    recurrence: task.recurrence ?? null,
    seriesId: task.seriesId ?? null,
    occurrenceDate: task.occurrenceDate ?? null,
    completedAt: task.completedAt?.toISOString() ?? null,
    createdAt: task.createdAt.toISOString(),
    version: task.version,
  };
}

/** The day a tool works on: the one named, or the user's today (created on first read, as everywhere). */
export async function dayIdOrToday(ctx: ToolContext, dayId: string | undefined): Promise<string> {
  return dayId ?? (await ctx.service(DayService).today(ctx.userId)).id;
}


/** A day's mood, energy and sleep: health's data (logged with health:write), answered to a grant that reads health. */
const healthOfDay = {
  mood: areaField('health', z.number().nullable().describe('1-10; left out without health:read.')),
  energy: areaField('health', z.number().nullable().describe('1-10; left out without health:read.')),
  sleepHours: areaField('health', z.number().nullable().describe('Hours slept; left out without health:read.')),
};

/** What the day tools and the day resources answer for one day. */
const dayShape = {
  id: z.string(),
  date: isoDate,
  weekId: z.string(),
  minimumMode: z.boolean(),
  completed: z.boolean(),
  ...healthOfDay,
  notes: z.string().nullable(),
  checklist: z.array(checklistItemOut),
  perimeterTasks: z.array(z.object({ id: z.string(), title: z.string() })),
  tasks: z.array(taskOut),
  bedtimeTargets: z.object({ wakeTime: z.string().nullable(), inBedTime: z.string().nullable(), lightsOutTime: z.string().nullable(), stressWeek: z.boolean() }),
};

/** A day as the day tools answer it: its checklist, perimeter, tasks and the bedtime targets in effect. */
export async function dayJson(ctx: ToolContext, day: Day) {
  const loaders = createPlanningLoaders(ctx.em);
  const [checklist, perimeter, tasks, week, settings] = await Promise.all([
    ctx.service(ChecklistService).list(ctx.userId, day.id),
    loaders.perimeterByDayId.load(day.id),
    ctx.service(TaskService).list(ctx.userId, { dayId: day.id, limit: 100 }),
    loaders.weekById.load(day.weekId),
    ctx.service(SettingsService).get(ctx.userId),
  ]);
  const required = requiredChecklist(day.minimumMode);
  return {
    id: day.id,
    date: day.date,
    weekId: day.weekId,
    minimumMode: day.minimumMode,
    completed: !!day.completedAt,
    mood: day.mood ?? null,
    energy: day.energy ?? null,
    sleepHours: day.sleepHours ?? null,
    notes: day.notes ?? null,
    checklist: checklist.map((item) => checklistItemJson(item, required)),
    perimeterTasks: perimeter.map((p) => ({ id: p.id, title: p.title })),
    tasks: tasks.items.map(taskJson),
    bedtimeTargets: bedtimeTargetsFor(week, settings),
  };
}

const dateInput = dateArg().describe("YYYY-MM-DD; the user's today when absent.");


export const planningTools: ConnectorTool[] = [
  defineTool({
    name: 'planning_get_today',
    title: "Today's plan",
    description:
      "The user's today (in their time zone, created on first read): mode, mood and energy (with health:read), the checklist (which items the day requires and which are done), the perimeter tasks, the day's tasks and the bedtime targets in effect.",
    inputSchema: {},
    outputSchema: dayShape,
    area: 'planning',
    annotations: READ_ONLY,
    async run(_args, ctx) {
      return dayJson(ctx, await ctx.service(DayService).today(ctx.userId));
    },
  }),
  defineTool({
    name: 'planning_get_day',
    title: 'A day of the plan',
    description: 'One day by date (today by default), as planning_get_today answers it. A date whose week was never generated is NOT_FOUND.',
    inputSchema: { date: dateInput },
    outputSchema: dayShape,
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const days = ctx.service(DayService);
      return dayJson(ctx, args.date ? await days.onDate(ctx.userId, args.date) : await days.today(ctx.userId));
    },
  }),
  defineTool({
    name: 'planning_get_week',
    title: 'A week of the plan',
    description:
      "The week (Monday to Sunday) holding `date` (today by default): whether it is a stress week, and per day its completion, mood, energy and sleep (with health:read) and checklist progress (required items done / required). A week never generated is NOT_FOUND.",
    inputSchema: { date: dateInput },
    outputSchema: {
      id: z.string(),
      startDate: isoDate,
      endDate: isoDate,
      isStressWeek: z.boolean(),
      daysCompleted: z.number(),
      days: z.array(
        z.object({
          id: z.string(),
          date: isoDate,
          completed: z.boolean(),
          minimumMode: z.boolean(),
          ...healthOfDay,
          checklistDone: z.number(),
          checklistRequired: z.number(),
        }),
      ),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const week = await ctx.service(WeekService).findByStart(ctx.userId, mondayOf(await dateOrToday(ctx, args.date)));
      const loaders = createPlanningLoaders(ctx.em);
      const days = await loaders.daysByWeekId.load(week.id);
      const checklists = await Promise.all(days.map((day) => loaders.checklistByDayId.load(day.id)));
      const dayRows = days.map((day, i) => {
        const required = requiredChecklist(day.minimumMode);
        const items = checklists[i]!.filter((item) => required.includes(item.key));
        return {
          id: day.id,
          date: day.date,
          completed: !!day.completedAt,
          minimumMode: day.minimumMode,
          mood: day.mood ?? null,
          energy: day.energy ?? null,
          sleepHours: day.sleepHours ?? null,
          checklistDone: items.filter((item) => item.completed).length,
          checklistRequired: required.length,
        };
      });
      return {
        id: week.id,
        startDate: week.startDate,
        endDate: week.endDate,
        isStressWeek: !!week.isStressWeek,
        daysCompleted: dayRows.filter((d) => d.completed).length,
        days: dayRows,
      };
    },
  }),
  defineTool({
    name: 'checklist_toggle',
    undoAs: 'toggleChecklistItem',
    title: 'Toggle a checklist item',
    description:
      'Flips one checklist item of a day (today by default) between done and not done; becoming done records checklist_completed and may complete the day. `value` is kept when it becomes done (e.g. WATER in litres). ' +
      'With `expectedVersion` (the item\'s `version` last read) a flip made meanwhile is not flipped back: VERSION_CONFLICT answers the current item.',
    inputSchema: {
      key: z.enum(Object.values(ChecklistKey) as [ChecklistKey, ...ChecklistKey[]]).describe('The checklist item.'),
      dayId: dayIdArg,
      value: z.union([z.number(), z.string(), z.boolean()]).optional().describe('A value the item carries when done (e.g. litres for WATER).'),
      expectedVersion: expectedVersionArg('checklist item'),
    },
    outputSchema: { dayId: z.string(), ...checklistItemOut.shape, dayCompleted: z.boolean() },
    area: 'planning',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(args, ctx) {
      const dayId = await dayIdOrToday(ctx, args.dayId);
      const value = args.value ?? null;
      const { expectedVersion } = args;
      const toggle = () => ctx.service(ChecklistService).toggle(ctx.userId, dayId, args.key, value, { expectedVersion });
      const item = await ctx.undoable({ dayId, key: args.key, value, expectedVersion }, toggle);
      const day = await ctx.service(DayService).get(ctx.userId, dayId);
      return { dayId, ...checklistItemJson(item, requiredChecklist(day.minimumMode)), dayCompleted: !!day.completedAt };
    },
  }),
];
