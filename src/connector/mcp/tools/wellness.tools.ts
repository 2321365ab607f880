import { z } from 'zod';
import { dayIdArg } from './common-arguments.js';
import { MoodService, WaterService } from '../../../wellness/wellness.service.js';
import { NOTES_MAX, SCORE_MAX, SCORE_MIN, scoreMessage, WATER_VOLUME_MAX_ML, WATER_VOLUME_MIN_ML } from '../../../wellness/wellness.types.js';
import { optionalText, boundedInt } from '../../../core/validation/tool-arguments.js';
import { dayIdOrToday } from './planning.tools.js';
import { isoDateTime } from './outputs.js';
import { ADDITIVE, defineTool, type ConnectorTool } from './tool.js';

const dayId = dayIdArg;
const time = z.string().datetime({ offset: true }).optional().describe('ISO date-time; now when absent.');
const notes = optionalText('notes', NOTES_MAX);

export const wellnessTools: ConnectorTool[] = [
  defineTool({
    name: 'log_water',
    mirrors: 'Mutation.logWater',
    undoAs: 'logWater',
    title: 'Log water',
    description: 'Records water drunk on a day (today by default), in millilitres. Records water_logged.',
    inputSchema: {
      volume: z
        .number({ error: 'volume must be a number' })
        .min(WATER_VOLUME_MIN_ML, 'volume must be positive')
        .max(WATER_VOLUME_MAX_ML, `volume must be at most ${WATER_VOLUME_MAX_ML} millilitres`)
        .describe(`Millilitres, above 0 and at most ${WATER_VOLUME_MAX_ML}.`),
      dayId,
      time,
      notes,
    },
    outputSchema: { id: z.string(), dayId: z.string(), volume: z.number(), time: isoDateTime, message: z.string() },
    area: 'health',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const day = await dayIdOrToday(ctx, args.dayId);
      const input = { dayId: day, volume: args.volume, time: args.time, notes: args.notes };
      const intake = await ctx.undoable(input, () => ctx.service(WaterService).log(ctx.userId, input));
      return { id: intake.id, dayId: day, volume: intake.volume, time: intake.time.toISOString(), message: `Logged ${intake.volume} ml of water` };
    },
  }),
  defineTool({
    name: 'log_mood',
    mirrors: 'Mutation.logMood',
    undoAs: 'logMood',
    title: 'Log mood and energy',
    description: "Records a mood and energy check-in (each 1-10) on a day (today by default) and sets the day's mood and energy to it.",
    inputSchema: {
      mood: boundedInt('mood', SCORE_MIN, SCORE_MAX, scoreMessage('mood')),
      energy: boundedInt('energy', SCORE_MIN, SCORE_MAX, scoreMessage('energy')),
      dayId,
      time,
      notes,
    },
    outputSchema: { id: z.string(), dayId: z.string(), mood: z.number(), energy: z.number(), time: isoDateTime },
    area: 'health',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const day = await dayIdOrToday(ctx, args.dayId);
      const input = { dayId: day, mood: args.mood, energy: args.energy, time: args.time, notes: args.notes };
      const entry = await ctx.undoable(input, () => ctx.service(MoodService).log(ctx.userId, input));
      return { id: entry.id, dayId: day, mood: entry.mood, energy: entry.energy, time: entry.time.toISOString() };
    },
  }),
];
