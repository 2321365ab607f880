import { z } from 'zod';
import { BodyMeasurementService } from '../../../body/body-measurement.service.js';
import type { BodyMeasurement } from '../../../body/body-measurement.entity.js';
import { BODY_FAT_MAX, BODY_MESSAGES, BODY_NOTES_MAX, BODY_WEIGHT_MAX_KG, GIRTH_MAX_CM } from '../../../body/body.types.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { optionalText } from '../../../core/validation/tool-arguments.js';
import { ChecklistKey } from '../../../planning/checklist-key.js';
import { round } from '../../../training/training-metrics.js';
import { MeditationService, SleepService, StepsService } from '../../../wellness/wellness.service.js';
import {
  MEDITATION_MINUTES_MAX,
  MEDITATION_TYPE_MAX,
  NOTES_MAX,
  SCORE_MAX,
  SCORE_MIN,
  scoreMessage,
  SLEEP_HOURS_MAX,
  STEPS_MAX,
  WELLNESS_MESSAGES as W,
} from '../../../wellness/wellness.types.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { dayIdOrToday } from './planning.tools.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool } from './tool.js';
import { boundedNumber } from '../../../core/validation/tool-arguments.js';
import { checklistDone, checklistTickOut } from './training.tools.js';
import { dateArg, dateTimeArg, dayIdArg } from './common-arguments.js';

const notes = optionalText('notes', NOTES_MAX);

const measurementOut = z.object({
  id: z.string(),
  dayId: z.string(),
  measuredAt: isoDateTime,
  weight: z.number().nullable().describe('kg'),
  bodyFat: z.number().nullable().describe('%'),
  waist: z.number().nullable().describe('cm'),
  hip: z.number().nullable().describe('cm'),
  notes: z.string().nullable(),
});

function measurementJson(m: BodyMeasurement) {
  return {
    id: m.id,
    dayId: m.dayId,
    measuredAt: m.measuredAt.toISOString(),
    weight: m.weight ?? null,
    bodyFat: m.bodyFat ?? null,
    waist: m.waist ?? null,
    hip: m.hip ?? null,
    notes: m.notes ?? null,
  };
}

const positive = (field: string, max: number, maxMessage?: string) => boundedNumber(field, { min: 0.001, max, minMessage: BODY_MESSAGES.positive(field), maxMessage });

export const healthTools: ConnectorTool[] = [
  defineTool({
    name: 'health_log_sleep',
    mirrors: 'Mutation.logSleep',
    undoAs: 'logSleep',
    title: 'Log sleep',
    description:
      "Records a night's sleep on a day (the day woken up; today by default): hours slept, optionally bedtime, wake time and quality 1-10. Sets the day's sleepHours.",
    inputSchema: {
      duration: boundedNumber('duration', { min: 0.001, max: SLEEP_HOURS_MAX, minMessage: W.positive('duration'), maxMessage: W.atMost('duration', SLEEP_HOURS_MAX, 'hours') }).describe(
        `Hours slept, above 0 and at most ${SLEEP_HOURS_MAX}.`,
      ),
      dayId: dayIdArg,
      bedtime: dateTimeArg('Lights out'),
      wakeTime: dateTimeArg('Woke up'),
      quality: boundedNumber('quality', { int: W.wholeNumber('quality'), min: SCORE_MIN, max: SCORE_MAX, minMessage: scoreMessage('quality'), maxMessage: scoreMessage('quality') })
        .optional()
        .describe('1-10.'),
      notes,
    },
    outputSchema: {
      id: z.string(),
      dayId: z.string(),
      duration: z.number(),
      bedtime: isoDateTime.nullable(),
      wakeTime: isoDateTime.nullable(),
      quality: z.number().nullable(),
      message: z.string(),
    },
    area: 'health',
    annotations: ADDITIVE,
    async run({ dayId: given, ...input }, ctx) {
      const dayId = await dayIdOrToday(ctx, given);
      const entry = await ctx.undoable({ ...input, dayId }, () => ctx.service(SleepService).log(ctx.userId, { ...input, dayId }));
      return {
        id: entry.id,
        dayId,
        duration: entry.duration,
        bedtime: entry.bedtime?.toISOString() ?? null,
        wakeTime: entry.wakeTime?.toISOString() ?? null,
        quality: entry.quality ?? null,
        message: `Logged ${entry.duration} h of sleep`,
      };
    },
  }),
  defineTool({
    name: 'health_log_steps',
    mirrors: 'Mutation.logSteps',
    undoAs: 'logSteps',
    title: 'Log steps',
    description: 'Records a step count on a day (today by default), e.g. what a phone or watch shows.',
    inputSchema: {
      steps: boundedNumber('steps', { int: W.wholeNumber('steps'), min: 0, max: STEPS_MAX, minMessage: W.notNegative('steps'), maxMessage: W.atMost('steps', STEPS_MAX) }).describe(
        `0-${STEPS_MAX}.`,
      ),
      dayId: dayIdArg,
      time: dateTimeArg('When counted; now when absent'),
      notes,
    },
    outputSchema: { id: z.string(), dayId: z.string(), steps: z.number(), time: isoDateTime, message: z.string() },
    area: 'health',
    annotations: ADDITIVE,
    async run({ dayId: given, ...input }, ctx) {
      const dayId = await dayIdOrToday(ctx, given);
      const entry = await ctx.undoable({ ...input, dayId }, () => ctx.service(StepsService).log(ctx.userId, { ...input, dayId }));
      return { id: entry.id, dayId, steps: entry.steps, time: entry.time.toISOString(), message: `Logged ${entry.steps} steps` };
    },
  }),
  defineTool({
    name: 'health_log_meditation',
    mirrors: 'Mutation.logMeditation',
    undoAs: 'logMeditation',
    title: 'Log meditation',
    description:
      "Records a meditation on a day (today by default): minutes and optionally its type (e.g. breathing, body scan). Records meditation_logged (XP) and ticks the day's MEDITATION checklist item unless it is already done.",
    inputSchema: {
      duration: boundedNumber('duration', {
        int: W.wholeMinutes('duration'),
        min: 1,
        max: MEDITATION_MINUTES_MAX,
        minMessage: W.positiveMinutes('duration'),
        maxMessage: W.atMost('duration', MEDITATION_MINUTES_MAX, 'minutes'),
      }).describe(`Minutes, 1-${MEDITATION_MINUTES_MAX}.`),
      type: optionalText('type', MEDITATION_TYPE_MAX).describe('Free text, e.g. breathing.'),
      dayId: dayIdArg,
      time: dateTimeArg('When; now when absent'),
      notes,
    },
    outputSchema: { id: z.string(), dayId: z.string(), duration: z.number(), type: z.string().nullable(), time: isoDateTime, checklist: checklistTickOut, message: z.string() },
    area: 'health',
    annotations: ADDITIVE,
    async run({ dayId: given, ...input }, ctx) {
      const dayId = await dayIdOrToday(ctx, given);
      const before = await checklistDone(ctx, dayId, ChecklistKey.MEDITATION);
      const session = await ctx.undoable({ ...input, dayId }, () => ctx.service(MeditationService).log(ctx.userId, { ...input, dayId }));
      return {
        id: session.id,
        dayId,
        duration: session.duration,
        type: session.type ?? null,
        time: session.time.toISOString(),
        checklist: { key: ChecklistKey.MEDITATION, completed: true, tickedNow: !before },
        message: `Logged ${session.duration} min of meditation`,
      };
    },
  }),
  defineTool({
    name: 'health_body_measurements',
    mirrors: 'Query.bodyMeasurements',
    title: 'Body measurements',
    description:
      "The user's body measurements (weight kg, body fat %, waist and hip cm), newest first, optionally within `startDate`..`endDate` (YYYY-MM-DD, the measurement's day), with the weight change from the oldest to the newest shown. Paginated (`limit` default 10; more than 100 counts as 100).",
    inputSchema: {
      startDate: dateArg('startDate'),
      endDate: dateArg('endDate'),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 10; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: {
      measurements: z.array(measurementOut),
      weightChange: z.number().nullable().describe('Newest weight − oldest weight among those shown, kg; null under two weights.'),
      meta: pageMetaOut,
    },
    area: 'health',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(BodyMeasurementService).latest(ctx.userId, { ...args, limit: args.limit ?? 10 });
      const weights = page.items.map((m) => m.weight).filter((w): w is number => typeof w === 'number');
      return {
        measurements: page.items.map(measurementJson),
        weightChange: weights.length >= 2 ? round(weights[0]! - weights[weights.length - 1]!, 2) : null,
        meta: page.meta,
      };
    },
  }),
  defineTool({
    name: 'health_log_body_measurement',
    mirrors: 'Mutation.createBodyMeasurement',
    undoAs: 'createBodyMeasurement',
    title: 'Log a body measurement',
    description: 'Records a body measurement on a day (today by default): at least one of weight (kg), bodyFat (%), waist and hip (cm).',
    inputSchema: {
      weight: positive('weight', BODY_WEIGHT_MAX_KG, BODY_MESSAGES.atMostKg('weight', BODY_WEIGHT_MAX_KG)).optional().describe('Kilograms.'),
      bodyFat: boundedNumber('bodyFat', { min: 0, max: BODY_FAT_MAX, minMessage: BODY_MESSAGES.range('bodyFat', 0, BODY_FAT_MAX), maxMessage: BODY_MESSAGES.range('bodyFat', 0, BODY_FAT_MAX) })
        .optional()
        .describe('Percent, 0-100.'),
      waist: positive('waist', GIRTH_MAX_CM).optional().describe('Centimetres.'),
      hip: positive('hip', GIRTH_MAX_CM).optional().describe('Centimetres.'),
      dayId: dayIdArg,
      measuredAt: dateTimeArg('When measured; now when absent'),
      notes: optionalText('notes', BODY_NOTES_MAX),
    },
    outputSchema: { ...measurementOut.shape, message: z.string() },
    area: 'health',
    annotations: ADDITIVE,
    async run({ dayId: given, ...input }, ctx) {
      const dayId = await dayIdOrToday(ctx, given);
      const row = await ctx.undoable({ ...input, dayId }, () => ctx.service(BodyMeasurementService).create(ctx.userId, { ...input, dayId }));
      const parts = [row.weight != null && `${row.weight} kg`, row.bodyFat != null && `${row.bodyFat}% body fat`, row.waist != null && `waist ${row.waist} cm`, row.hip != null && `hip ${row.hip} cm`];
      return { ...measurementJson(row), message: `Logged ${parts.filter(Boolean).join(', ')}` };
    },
  }),
];
