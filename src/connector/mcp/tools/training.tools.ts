import { z } from 'zod';
import { dateArg, dateOrToday, dateTimeArg, dayIdArg } from './common-arguments.js';
import { addDays } from '../../../core/dates.js';
import { ValidationError } from '../../../core/errors.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { boundedNumber, optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import { ChecklistKey } from '../../../planning/checklist-key.js';
import { ChecklistService } from '../../../planning/checklist.service.js';
import { createPlanningLoaders } from '../../../planning/planning.loaders.js';
import { CardioEffort } from '../../../training/cardio-effort.js';
import { CardioSessionService } from '../../../training/cardio-session.service.js';
import type { Exercise } from '../../../training/exercise.entity.js';
import { ExerciseService } from '../../../training/exercise.service.js';
import { MobilitySessionService } from '../../../training/mobility-session.service.js';
import { RangeOfMotion } from '../../../training/range-of-motion.js';
import { TrainingSessionService, type TrainingSetData } from '../../../training/training-session.service.js';
import type { TrainingSet } from '../../../training/training-set.entity.js';
import * as metrics from '../../../training/training-metrics.js';
import { createTrainingLoaders } from '../../../training/training.loaders.js';
import {
  CALORIES_MAX,
  CARDIO_TYPE_MAX,
  DISTANCE_MAX_KM,
  DURATION_MAX,
  ELEVATION_GAIN_MAX_M,
  EXERCISE_CATEGORY_MAX,
  EXERCISE_NAME_MAX,
  FOCUS_MAX,
  HEART_RATE_MAX,
  LOAD_MAX_KG,
  MAX_EXERCISES,
  MAX_SETS,
  NOTES_MAX,
  PACE_MAX,
  RATING_MAX,
  RATING_MIN,
  REPS_MAX,
  REST_TIME_MAX,
  RIR_MAX,
  SET_NOTES_MAX,
  SET_SECONDS_MAX,
  SPLIT_MAX,
  TEMPO_PATTERN,
  TRAINING_MESSAGES as M,
  VELOCITY_MAX,
} from '../../../training/training.types.js';
import { idOrName } from './by-name.js';
import { pageMetaOut, isoDate, isoDateTime } from './outputs.js';
import { dayIdOrToday } from './planning.tools.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool, type ToolContext } from './tool.js';

// ---------------------------------------------------------------- shared argument pieces




const rating = (field: string) =>
  boundedNumber(field, { int: M.wholeNumber(field), min: RATING_MIN, max: RATING_MAX, minMessage: M.range(field, RATING_MIN, RATING_MAX), maxMessage: M.range(field, RATING_MIN, RATING_MAX) });
const minutes = (field: string) =>
  boundedNumber(field, { int: M.wholeMinutes(field), min: 1, max: DURATION_MAX, minMessage: M.positiveMinutes(field), maxMessage: M.atMostMinutes(field, DURATION_MAX) }).describe(
    `Minutes, 1-${DURATION_MAX}.`,
  );
const seconds = (field: string, max: number) => boundedNumber(field, { int: M.wholeSeconds(field), min: 0, max, minMessage: M.notNegative(field) });

/** What a logging tool says about the day's checklist item it ticks. */
export const checklistTickOut = z.object({
  key: z.enum(Object.values(ChecklistKey) as [ChecklistKey, ...ChecklistKey[]]),
  completed: z.boolean(),
  tickedNow: z.boolean().describe('Whether this call ticked it (false: it was already done, or left as it was).'),
});

/** Whether the day's `key` item is done; the day must be the user's (NOT_FOUND otherwise). */
export async function checklistDone(ctx: ToolContext, dayId: string, key: ChecklistKey): Promise<boolean> {
  return (await ctx.service(ChecklistService).list(ctx.userId, dayId)).some((item) => item.key === key && item.completed);
}

/**
 * Logs through `write` and, when `tick`, completes the day's `key` item as the app's checklist does
 * (checklist_completed, day completion; an item already done is left as it is), all in one transaction.
 */
async function logAndTick<T>(ctx: ToolContext, dayId: string, key: ChecklistKey, tick: boolean, write: (tx: ToolContext) => Promise<T>) {
  return ctx.em.transactional(async (em) => {
    const tx = ctx.on(em);
    const record = await write(tx);
    const before = await checklistDone(tx, dayId, key);
    if (tick && !before) await tx.service(ChecklistService).setCompleted(ctx.userId, dayId, key, true);
    return { record, checklist: { key, completed: before || tick, tickedNow: tick && !before } };
  });
}

const tickArg = (key: ChecklistKey) =>
  z.boolean().default(true).describe(`Also tick the day's ${key} checklist item (as the checklist toggle would; left as is when already done). Default true; false leaves the checklist alone.`);

// ---------------------------------------------------------------- exercises by name

/** The user's catalog entries (global and own) a name may mean: those containing it, else those sharing a word with it (as candidates). */
async function catalogFor(ctx: ToolContext, name: string): Promise<Exercise[]> {
  const service = ctx.service(ExerciseService);
  const found = await service.search(ctx.userId, name, 50);
  if (found.length) return found;
  const words = [...new Set(name.split(/[\s,/-]+/).filter((w) => w.length >= 3))].slice(0, 5);
  const byWord = await Promise.all(words.map((word) => service.search(ctx.userId, word, 10)));
  return [...new Map(byWord.flat().map((e) => [e.id, e])).values()];
}

async function exerciseIdOf(ctx: ToolContext, given: { exerciseId?: string; name?: string }): Promise<string> {
  return idOrName('Exercise', { id: given.exerciseId, name: given.name }, () => catalogFor(ctx, given.name!), (e) => e.name, (e) => e.id);
}

const exerciseRef = {
  exerciseId: z.string().uuid().optional().describe("An exercise's id (from training_search_exercises)."),
  name: z.string().min(1).max(EXERCISE_NAME_MAX).optional().describe('Or its name as the person says it (e.g. "bench press"): exact (any case) or the only one containing it.'),
};

// ---------------------------------------------------------------- answers

const setOut = z.object({
  setNumber: z.number(),
  reps: z.number().nullable(),
  load: z.number().nullable().describe('kg'),
  rpe: z.number().nullable(),
  e1rm: z.number().nullable().describe('Epley estimated 1RM of the set, kg.'),
});

function setJson(set: Pick<TrainingSet, 'setNumber' | 'reps' | 'load' | 'rpe'>) {
  return { setNumber: set.setNumber, reps: set.reps ?? null, load: set.load ?? null, rpe: set.rpe ?? null, e1rm: metrics.e1rm(set) };
}

/** The best set of some: highest e1RM, else heaviest, else most reps (null when there are none). */
function bestSet<S extends { reps?: number | null; load?: number | null }>(sets: readonly S[]): S | null {
  const score = (s: S) => [metrics.rawE1rm(s) ?? -1, s.load ?? -1, s.reps ?? -1];
  let best: S | null = null;
  for (const set of sets) {
    if (!best) {
      best = set;
      continue;
    }
    const [a, b] = [score(set), score(best)];
    const i = a.findIndex((v, k) => v !== b[k]);
    if (i >= 0 && a[i]! > b[i]!) best = set;
  }
  return best;
}

const setIn = z.object({
  reps: boundedNumber('reps', { int: M.wholeNumber('reps'), min: 0, max: REPS_MAX, minMessage: M.notNegative('reps') }).optional(),
  load: boundedNumber('load', { min: 0, max: LOAD_MAX_KG, minMessage: M.notNegative('load') }).optional().describe('Weight in kg (0 or absent for bodyweight).'),
  repeat: boundedNumber('repeat', { int: 'repeat must be a whole number', min: 1, max: MAX_SETS })
    .optional()
    .describe('Log this set this many times (3×5 at 80 kg: { reps: 5, load: 80, repeat: 3 }); default 1.'),
  rpe: boundedNumber('rpe', { min: RATING_MIN, max: RATING_MAX, minMessage: M.range('rpe', RATING_MIN, RATING_MAX), maxMessage: M.range('rpe', RATING_MIN, RATING_MAX) })
    .refine((v) => Number.isInteger(v * 2), M.halfStep('rpe'))
    .optional()
    .describe('Rating of perceived exertion, 1-10 in steps of 0.5.'),
  rir: boundedNumber('rir', { int: M.wholeNumber('rir'), min: 0, max: RIR_MAX, minMessage: M.range('rir', 0, RIR_MAX), maxMessage: M.range('rir', 0, RIR_MAX) })
    .optional()
    .describe('Reps in reserve, 0-10.'),
  restTime: seconds('restTime', REST_TIME_MAX).optional().describe('Rest after the set, seconds.'),
  tempo: z.string().regex(TEMPO_PATTERN, M.tempo).optional().describe('e.g. 3-1-1-0 (eccentric, pause, concentric, pause seconds; X for explosive).'),
  tut: seconds('tut', SET_SECONDS_MAX).optional().describe('Time under tension, seconds.'),
  pauseDuration: seconds('pauseDuration', SET_SECONDS_MAX).optional().describe('Pause within the rep, seconds.'),
  rom: z.enum(Object.values(RangeOfMotion) as [RangeOfMotion, ...RangeOfMotion[]]).optional().describe('Range of motion: full, partial or lengthened.'),
  velocity: boundedNumber('velocity', { min: 0, max: VELOCITY_MAX, minMessage: M.notNegative('velocity') }).optional().describe('Mean concentric velocity, m/s.'),
  notes: optionalText('notes', SET_NOTES_MAX),
});

// ---------------------------------------------------------------- tools

export const trainingTools: ConnectorTool[] = [
  defineTool({
    name: 'training_log_session',
    mirrors: 'Mutation.createTrainingSession',
    title: 'Log a training session',
    description:
      'Logs a gym session on a day (today by default): each exercise by `name` or `exerciseId` from the user\'s catalog, in order, with its sets (reps, load in kg, RPE, rest and the rest; `repeat` writes a set several times, so 3×5 at 80 kg is one entry). Records training_logged (XP), and by default ticks the day\'s GYM checklist item. Answers the session with each exercise\'s sets, volume and best e1RM.',
    inputSchema: {
      dayId: dayIdArg,
      split: requiredText('split', SPLIT_MAX).optional().describe('The weekly split label, e.g. Push; "Workout" when absent.'),
      exercises: z
        .array(z.object({ ...exerciseRef, sets: z.array(setIn).max(MAX_SETS, M.tooManySets).optional() }))
        .max(MAX_EXERCISES, M.tooManyExercises)
        .optional()
        .describe(`The exercises in the order done (at most ${MAX_EXERCISES}, ${MAX_SETS} sets each).`),
      startTime: dateTimeArg('When it started; now when absent'),
      endTime: dateTimeArg('When it ended'),
      sessionRPE: rating('sessionRPE').optional().describe('Session RPE, 1-10.'),
      notes: optionalText('notes', NOTES_MAX),
      tickGym: tickArg(ChecklistKey.GYM),
    },
    outputSchema: {
      id: z.string(),
      dayId: z.string(),
      split: z.string(),
      startTime: isoDateTime,
      exercises: z.array(
        z.object({ exerciseId: z.string(), name: z.string(), sets: z.array(setOut), volume: z.number().describe('Σ reps × load, kg.'), bestE1rm: z.number().nullable() }),
      ),
      totalVolume: z.number(),
      checklist: checklistTickOut,
      message: z.string(),
    },
    area: 'health',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const dayId = await dayIdOrToday(ctx, args.dayId);
      const given = args.exercises ?? [];
      const ids = await Promise.all(given.map((e) => exerciseIdOf(ctx, e)));
      const exercises = given.map((e, i) => {
        const sets: TrainingSetData[] = (e.sets ?? []).flatMap(({ repeat, ...set }) => Array.from({ length: repeat ?? 1 }, () => ({ ...set })));
        if (sets.length > MAX_SETS) throw new ValidationError(M.tooManySets, [{ path: ['exercises', i, 'sets'], message: M.tooManySets }]);
        return { exerciseId: ids[i]!, sets };
      });
      const { record: session, checklist } = await logAndTick(ctx, dayId, ChecklistKey.GYM, args.tickGym, (tx) =>
        tx.service(TrainingSessionService).create(ctx.userId, {
          dayId,
          split: args.split ?? 'Workout',
          startTime: args.startTime,
          endTime: args.endTime,
          sessionRPE: args.sessionRPE,
          notes: args.notes,
          exercises,
        }),
      );
      const loaders = createTrainingLoaders(ctx.em);
      const entries = await loaders.exercisesBySessionId.load(session.id);
      const setsOf = await loaders.setsByTrainingExerciseId.loadMany(entries.map((e) => e.id));
      const out = entries.map((entry, i) => {
        const sets = setsOf[i] as TrainingSet[];
        return { exerciseId: entry.exerciseId ?? '', name: entry.exerciseName, sets: sets.map(setJson), volume: metrics.volume(sets), bestE1rm: metrics.bestE1rm(sets) };
      });
      const setCount = out.reduce((n, e) => n + e.sets.length, 0);
      return {
        id: session.id,
        dayId,
        split: session.split,
        startTime: session.startTime.toISOString(),
        exercises: out,
        totalVolume: metrics.round(out.reduce((sum, e) => sum + e.volume, 0), 2),
        checklist,
        message: `Logged ${session.split}: ${out.length} exercise${out.length === 1 ? '' : 's'}, ${setCount} set${setCount === 1 ? '' : 's'}`,
      };
    },
  }),
  defineTool({
    name: 'training_exercise_history',
    mirrors: 'Query.exerciseHistory',
    title: "An exercise's progress",
    description:
      "One exercise (by `name` or `exerciseId`) over the user's sessions, most recent first: per session its date, set count, best set, best estimated 1RM (Epley e1RM) and volume (Σ reps × load), and the e1RM trend from the oldest to the newest session shown. Paginated (`limit` default 20, at most 100).",
    inputSchema: {
      ...exerciseRef,
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Sessions per page (default 20; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: {
      exercise: z.object({ id: z.string(), name: z.string(), category: z.string(), oneRepMax: z.number().nullable().describe("The user's own 1RM setting, kg.") }),
      sessions: z.array(
        z.object({
          sessionId: z.string(),
          date: isoDate,
          split: z.string(),
          setCount: z.number(),
          bestSet: setOut.nullable(),
          bestE1rm: z.number().nullable(),
          volume: z.number(),
        }),
      ),
      trend: z.object({
        sessions: z.number().describe('Sessions shown with an e1RM.'),
        firstE1rm: z.number().nullable().describe('Of the oldest session shown.'),
        latestE1rm: z.number().nullable().describe('Of the newest session shown.'),
        bestE1rm: z.number().nullable(),
        change: z.number().nullable().describe('latestE1rm − firstE1rm, kg.'),
        direction: z.enum(['up', 'down', 'flat', 'not_enough_data']),
      }),
      meta: pageMetaOut,
    },
    area: 'health',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const service = ctx.service(ExerciseService);
      const exerciseId = await exerciseIdOf(ctx, args);
      const exercise = await service.get(ctx.userId, exerciseId);
      const history = await service.history(ctx.userId, exerciseId, { page: args.page, limit: args.limit ?? 20 });
      const loaders = createTrainingLoaders(ctx.em);
      const [entriesBySession, oneRepMax] = await Promise.all([
        loaders.exercisesBySessionId.loadMany(history.items.map((h) => h.sessionId)),
        loaders.oneRepMaxByUserExercise.load(`${ctx.userId}|${exerciseId}`),
      ]);
      const sessions = await Promise.all(
        history.items.map(async (h, i) => {
          const entries = (entriesBySession[i] as { id: string; exerciseId?: string | null }[]).filter((e) => e.exerciseId === exerciseId);
          const sets = (await loaders.setsByTrainingExerciseId.loadMany(entries.map((e) => e.id))).flat() as TrainingSet[];
          const best = bestSet(sets);
          return { sessionId: h.sessionId, date: h.date, split: h.split, setCount: h.setCount, bestSet: best ? setJson(best) : null, bestE1rm: h.bestE1rm, volume: h.volume };
        }),
      );
      const rated = sessions.filter((s) => s.bestE1rm !== null).map((s) => s.bestE1rm!);
      const latest = rated[0] ?? null;
      const first = rated.length ? rated[rated.length - 1]! : null;
      const change = rated.length >= 2 ? metrics.round(latest! - first!, 1) : null;
      return {
        exercise: { id: exercise.id, name: exercise.name, category: exercise.category, oneRepMax: oneRepMax ?? null },
        sessions,
        trend: {
          sessions: rated.length,
          firstE1rm: first,
          latestE1rm: latest,
          bestE1rm: rated.length ? Math.max(...rated) : null,
          change,
          direction: change === null ? 'not_enough_data' : change > 0 ? 'up' : change < 0 ? 'down' : 'flat',
        },
        meta: history.meta,
      };
    },
  }),
  defineTool({
    name: 'training_search_exercises',
    mirrors: 'Query.exercises',
    title: 'Search the exercise catalog',
    description:
      "The user's exercise catalog (the shared one and their own), by name: `q` is text the name contains (any case), `category` an exact category (strength, mobility, core, power, conditioning, plyometrics or one of theirs), `muscleGroup` a muscle worked. Paginated (`limit` default 20, at most 100).",
    inputSchema: {
      q: z.string().max(EXERCISE_NAME_MAX).optional().describe('Text the name contains.'),
      category: z.string().max(EXERCISE_CATEGORY_MAX).optional(),
      muscleGroup: z.string().max(EXERCISE_CATEGORY_MAX).optional().describe('e.g. chest, hamstrings.'),
      global: z.boolean().optional().describe('true: the shared catalog only; false: only the user\'s own.'),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 20; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: {
      exercises: z.array(z.object({ id: z.string(), name: z.string(), category: z.string(), muscleGroups: z.array(z.string()), isGlobal: z.boolean() })),
      meta: pageMetaOut,
    },
    area: 'health',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(ExerciseService).list(ctx.userId, { ...args, limit: args.limit ?? 20 });
      return {
        exercises: page.items.map((e) => ({ id: e.id, name: e.name, category: e.category, muscleGroups: e.muscleGroups, isGlobal: e.isGlobal })),
        meta: page.meta,
      };
    },
  }),
  defineTool({
    name: 'training_sessions',
    title: 'Training sessions in a period',
    description:
      "The user's gym sessions from `start` to `end` (YYYY-MM-DD, both included; the last 7 days by default), by start time: split, exercises with their set count, volume and best e1RM, and the total volume. At most 100.",
    inputSchema: {
      start: dateArg('start').describe('First day, YYYY-MM-DD; 6 days before `end` when absent.'),
      end: dateArg('end').describe("Last day, YYYY-MM-DD; the user's today when absent."),
    },
    outputSchema: {
      start: isoDate,
      end: isoDate,
      sessions: z.array(
        z.object({
          id: z.string(),
          date: isoDate,
          split: z.string(),
          startTime: isoDateTime,
          exercises: z.array(z.object({ name: z.string(), setCount: z.number(), volume: z.number(), bestE1rm: z.number().nullable() })),
          volume: z.number(),
        }),
      ),
      totalVolume: z.number(),
    },
    area: 'health',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const end = await dateOrToday(ctx, args.end);
      const start = args.start ?? addDays(end, -6);
      const page = await ctx.service(TrainingSessionService).list(ctx.userId, { startDate: start, endDate: end, limit: MAX_PAGE_SIZE });
      const loaders = createTrainingLoaders(ctx.em);
      const planning = createPlanningLoaders(ctx.em);
      const sessions = await Promise.all(
        page.items.map(async (session) => {
          const [day, entries] = await Promise.all([planning.dayById.load(session.dayId), loaders.exercisesBySessionId.load(session.id)]);
          const setsOf = (await loaders.setsByTrainingExerciseId.loadMany(entries.map((e) => e.id))) as TrainingSet[][];
          const exercises = entries.map((entry, i) => ({ name: entry.exerciseName, setCount: setsOf[i]!.length, volume: metrics.volume(setsOf[i]!), bestE1rm: metrics.bestE1rm(setsOf[i]!) }));
          return {
            id: session.id,
            date: day?.date ?? '',
            split: session.split,
            startTime: session.startTime.toISOString(),
            exercises,
            volume: metrics.volume(setsOf.flat()),
          };
        }),
      );
      return { start, end, sessions, totalVolume: metrics.round(sessions.reduce((sum, s) => sum + s.volume, 0), 2) };
    },
  }),
  defineTool({
    name: 'training_log_mobility',
    mirrors: 'Mutation.createMobilitySession',
    title: 'Log a mobility session',
    description:
      "Logs a mobility session on a day (today by default): its focus (e.g. hips), minutes and intensity 1-10. Lunch slot rule: refused when the day already has a cardio session. Earns XP, and by default ticks the day's MOBILITY checklist item.",
    inputSchema: {
      dayId: dayIdArg,
      focus: requiredText('focus', FOCUS_MAX).describe('What it worked on, e.g. hips.'),
      duration: minutes('duration'),
      intensity: rating('intensity').describe('1-10.'),
      tickMobility: tickArg(ChecklistKey.MOBILITY),
    },
    outputSchema: { id: z.string(), dayId: z.string(), focus: z.string(), duration: z.number(), intensity: z.number(), checklist: checklistTickOut, message: z.string() },
    area: 'health',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const dayId = await dayIdOrToday(ctx, args.dayId);
      const { record: session, checklist } = await logAndTick(ctx, dayId, ChecklistKey.MOBILITY, args.tickMobility, (tx) =>
        tx.service(MobilitySessionService).create(ctx.userId, { dayId, focus: args.focus, duration: args.duration, intensity: args.intensity }),
      );
      return {
        id: session.id,
        dayId,
        focus: session.focus,
        duration: session.duration,
        intensity: session.intensity,
        checklist,
        message: `Logged ${session.duration} min of mobility (${session.focus})`,
      };
    },
  }),
  defineTool({
    name: 'training_log_cardio',
    mirrors: 'Mutation.createCardioSession',
    title: 'Log a cardio session',
    description:
      "Logs a cardio session on a day (today by default): type (run, bike, rowing …), minutes, and what the person knows of distance (km), pace (min/km), intensity 1-10 or effort (easy, zone2, hard), heart rate, calories and elevation. Lunch slot rule: refused when the day already has a mobility session. Records cardio_logged (XP), and by default ticks the day's CARDIO checklist item.",
    inputSchema: {
      dayId: dayIdArg,
      type: requiredText('type', CARDIO_TYPE_MAX).describe('e.g. run, bike, rowing.'),
      duration: minutes('duration'),
      distance: boundedNumber('distance', { min: 0.001, max: DISTANCE_MAX_KM, minMessage: M.positive('distance') }).optional().describe('Kilometres.'),
      intensity: rating('intensity').optional().describe('1-10.'),
      effort: z.enum(Object.values(CardioEffort) as [CardioEffort, ...CardioEffort[]]).optional().describe('easy, zone2 or hard.'),
      pace: boundedNumber('pace', { min: 0.001, max: PACE_MAX, minMessage: M.positive('pace') }).optional().describe('Minutes per kilometre.'),
      averageHeartRate: boundedNumber('averageHeartRate', { int: 'averageHeartRate must be an integer number', min: 1, max: HEART_RATE_MAX, minMessage: M.positive('averageHeartRate') }).optional(),
      maxHeartRate: boundedNumber('maxHeartRate', { int: 'maxHeartRate must be an integer number', min: 1, max: HEART_RATE_MAX, minMessage: M.positive('maxHeartRate') }).optional(),
      calories: boundedNumber('calories', { int: 'calories must be an integer number', min: 1, max: CALORIES_MAX, minMessage: M.positive('calories') }).optional().describe('kcal.'),
      elevationGain: boundedNumber('elevationGain', { int: 'elevationGain must be an integer number', min: 0, max: ELEVATION_GAIN_MAX_M, minMessage: M.notNegative('elevationGain') })
        .optional()
        .describe('Metres.'),
      startTime: dateTimeArg('When it started; now when absent'),
      endTime: dateTimeArg('When it ended'),
      notes: optionalText('notes', NOTES_MAX),
      tickCardio: tickArg(ChecklistKey.CARDIO),
    },
    outputSchema: {
      id: z.string(),
      dayId: z.string(),
      type: z.string(),
      duration: z.number(),
      distance: z.number().nullable(),
      pace: z.number().nullable(),
      startTime: isoDateTime,
      checklist: checklistTickOut,
      message: z.string(),
    },
    area: 'health',
    annotations: ADDITIVE,
    async run({ dayId: given, tickCardio, ...input }, ctx) {
      const dayId = await dayIdOrToday(ctx, given);
      const { record: session, checklist } = await logAndTick(ctx, dayId, ChecklistKey.CARDIO, tickCardio, (tx) =>
        tx.service(CardioSessionService).create(ctx.userId, { ...input, dayId }),
      );
      return {
        id: session.id,
        dayId,
        type: session.type,
        duration: session.duration,
        distance: session.distance ?? null,
        pace: session.pace ?? null,
        startTime: session.startTime.toISOString(),
        checklist,
        message: `Logged ${session.duration} min of ${session.type}${session.distance ? ` (${session.distance} km)` : ''}`,
      };
    },
  }),
];
