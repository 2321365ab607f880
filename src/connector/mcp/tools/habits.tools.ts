import { z } from 'zod';
import { HABITS_MAX, HABIT_ICON_MAX, HABIT_NAME_MAX, HABIT_NOTE_MAX, HABIT_UNIT_MAX, HABIT_VALUE_MAX } from '../../../habits/habit-limits.js';
import { HabitKind, HabitSchedule } from '../../../habits/habit-enums.js';
import type { Habit } from '../../../habits/habit.entity.js';
import { HabitService } from '../../../habits/habit.service.js';
import type { HabitDay, HabitStreak } from '../../../habits/habit.types.js';
import { oneOfMessage } from '../../../core/validation/choice.js';
import { boundedNumber, hexColor, optionalText, pageArgs, requiredText } from '../../../core/validation/tool-arguments.js';
import { idOrName } from './by-name.js';
import { dateArg } from './common-arguments.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

const KINDS = Object.values(HabitKind);
const SCHEDULES = Object.values(HabitSchedule);
const valueArg = (field: string) => boundedNumber(field, { min: Number.MIN_VALUE, minMessage: `${field} must be greater than 0`, max: HABIT_VALUE_MAX, maxMessage: `${field} must be at most ${HABIT_VALUE_MAX}` });

const habitOut = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  colour: z.string().nullable(),
  kind: z.enum(KINDS as [HabitKind, ...HabitKind[]]),
  unit: z.string().nullable(),
  target: z.number(),
  schedule: z.enum(SCHEDULES as [HabitSchedule, ...HabitSchedule[]]),
  weekdays: z.array(z.number()),
  timesPerPeriod: z.number().nullable(),
  recurrence: z.string().nullable(),
  startDate: z.string(),
  archived: z.boolean(),
});

const todayOut = z.object({
  date: z.string(),
  state: z.string().describe('DONE, PARTIAL, SKIPPED, REST, PENDING, MISSED or NOT_DUE.'),
  value: z.number(),
  periodDone: z.number().nullable(),
  periodRequired: z.number().nullable(),
});

const streakOut = z.object({ unit: z.string(), current: z.number(), longest: z.number(), freezesLeftThisMonth: z.number() });

function habitJson(habit: Habit) {
  return {
    id: habit.id,
    name: habit.name,
    icon: habit.icon ?? null,
    colour: habit.colour ?? null,
    kind: habit.kind,
    unit: habit.unit ?? null,
    target: habit.target,
    schedule: habit.schedule,
    weekdays: habit.weekdays,
    timesPerPeriod: habit.timesPerPeriod ?? null,
    recurrence: habit.recurrence ?? null,
    startDate: habit.startDate,
    archived: !!habit.archivedAt,
  };
}

const dayJson = (day: HabitDay) => ({ date: day.date, state: day.state, value: day.value, periodDone: day.periodDone, periodRequired: day.periodRequired });
const streakJson = (s: HabitStreak) => ({ unit: s.unit, current: s.current, longest: s.longest, freezesLeftThisMonth: s.freezesLeftThisMonth });

export const habitsTools: ConnectorTool[] = [
  defineTool({
    name: 'habits_list',
    mirrors: 'Query.habitsOnDay',
    title: 'List habits',
    description: `The user's active habits in their order, each with its state today (or on \`date\`) and its streak; paginated (at most ${HABITS_MAX} habits exist).`,
    inputSchema: { ...pageArgs, date: dateArg().describe('YYYY-MM-DD; the user\'s today when absent (the day is planned when needed).') },
    outputSchema: { habits: z.array(habitOut.extend({ today: todayOut, streak: streakOut })), meta: pageMetaOut },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const service = ctx.service(HabitService);
      const date = args.date ?? (await service.today(ctx.userId));
      const page = await service.list(ctx.userId, args);
      const states = await Promise.all(page.items.map((habit) => service.stateOn(ctx.userId, habit, date)));
      const streaks = await service.streaksOf(ctx.userId, page.items);
      return { habits: page.items.map((habit, i) => ({ ...habitJson(habit), today: dayJson(states[i]!), streak: streakJson(streaks[i]!) })), meta: page.meta };
    },
  }),
  defineTool({
    name: 'habits_log',
    mirrors: 'Mutation.logHabitEntry',
    title: 'Log a habit',
    description:
      'Logs an entry of a habit (`habitId`, or its name as `habit`) on a day (today by default, or `date`): CHECK and COUNT take 1 by default, DURATION minutes and AMOUNT (in the habit\'s unit) need `value`. ' +
      'Several entries a day add up (at most 50). When the day reaches the target it earns 5 XP; records habit_logged (and habit_streak_updated when the streak changes).',
    inputSchema: {
      habitId: z.string().uuid().optional().describe('The habit; or give its name as `habit`.'),
      habit: z.string().min(1).max(HABIT_NAME_MAX).optional().describe("The habit's name (or a unique part of it), when no habitId is given."),
      value: valueArg('value').optional(),
      note: optionalText('note', HABIT_NOTE_MAX),
      date: dateArg().describe('YYYY-MM-DD; the user\'s today when absent.'),
    },
    outputSchema: { id: z.string(), habitId: z.string(), dayId: z.string(), date: z.string(), value: z.number(), note: z.string().nullable(), createdAt: isoDateTime, day: todayOut, streak: streakOut },
    area: 'planning',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const service = ctx.service(HabitService);
      const habitId = await idOrName('Habit', { id: args.habitId, name: args.habit }, async () => (await service.list(ctx.userId, { limit: HABITS_MAX })).items, (h) => h.name, (h) => h.id);
      const entry = await service.logEntry(ctx.userId, { habitId, date: args.date ?? null, value: args.value ?? null, note: args.note ?? null });
      const fresh = ctx.on(ctx.em.fork()).service(HabitService);
      const habit = await fresh.get(ctx.userId, habitId);
      const [day, [streak]] = await Promise.all([fresh.stateOn(ctx.userId, habit, entry.date), fresh.streaksOf(ctx.userId, [habit])]);
      return { id: entry.id, habitId, dayId: entry.dayId, date: entry.date, value: entry.value, note: entry.note ?? null, createdAt: entry.createdAt.toISOString(), day: dayJson(day), streak: streakJson(streak!) };
    },
  }),
  defineTool({
    name: 'habits_create',
    mirrors: 'Mutation.createHabit',
    title: 'Create a habit',
    description:
      'Defines a habit: a name, a kind (CHECK done or not, the default; COUNT times; DURATION minutes; AMOUNT with a `unit`), a `target` per due day (CHECK 1), and a schedule: ' +
      'DAILY (default), WEEKDAYS (`weekdays`, 1 = Monday … 7 = Sunday), TIMES_PER_WEEK or TIMES_PER_MONTH (`timesPerPeriod`, any days), or RRULE (`recurrence`, an RFC 5545 rule). ' +
      `At most ${HABITS_MAX} habits. Records no event.`,
    inputSchema: {
      name: requiredText('name', HABIT_NAME_MAX),
      icon: optionalText('icon', HABIT_ICON_MAX),
      colour: hexColor('colour').optional(),
      kind: z.enum(KINDS as [HabitKind, ...HabitKind[]], { error: oneOfMessage('kind', KINDS) }).optional(),
      unit: optionalText('unit', HABIT_UNIT_MAX),
      target: valueArg('target').optional(),
      schedule: z.enum(SCHEDULES as [HabitSchedule, ...HabitSchedule[]], { error: oneOfMessage('schedule', SCHEDULES) }).optional(),
      weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional(),
      timesPerPeriod: z.number().int().min(1).max(28).optional(),
      recurrence: optionalText('recurrence', 500),
      startDate: dateArg('startDate').describe("YYYY-MM-DD; the user's today when absent."),
    },
    outputSchema: habitOut.shape,
    area: 'planning',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return habitJson(await ctx.service(HabitService).create(ctx.userId, args));
    },
  }),
];
