import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { serviceFor, type RequestService, type ServiceScope } from '../core/request-services.js';
import { DayService } from '../planning/day.service.js';
import { isMissingDay } from '../planning/day-scope.js';
import { ExerciseService } from '../training/exercise.service.js';
import { CardioEffort } from '../training/cardio-effort.js';
import { CardioSessionService } from '../training/cardio-session.service.js';
import { TrainingSessionService } from '../training/training-session.service.js';
import { MeditationService, MoodService, SleepService, StepsService, WaterService } from '../wellness/wellness.service.js';
import { BodyMeasurementService } from '../body/body-measurement.service.js';
import type {
  PublicBodyMetricsArgs,
  PublicBodyMetricsLogged,
  PublicCardioArgs,
  PublicCardioLogged,
  PublicExercise,
  PublicMeditationArgs,
  PublicMeditationLogged,
  PublicMoodArgs,
  PublicMoodLogged,
  PublicSleepArgs,
  PublicSleepLogged,
  PublicStepsArgs,
  PublicStepsLogged,
  PublicWaterArgs,
  PublicWaterLogged,
  PublicWorkoutArgs,
  PublicWorkoutLogged,
} from './public.types.js';
import { PUBLIC_SEARCH_MAX } from './public.types.js';
import type { PublicHabit, PublicHabitLogged, PublicLogHabitArgs } from './public-habits.types.js';
import { HabitService } from '../habits/habit.service.js';
import { HABITS_MAX } from '../habits/habit-limits.js';
import { streakUnit } from '../habits/habit-schedule.js';

/** Who writes: the key's owner (with their time zone, read with the key) or the signed-in user. */
export interface PublicCaller {
  userId: string;
  timezone?: string;
}

/**
 * The Public API's writes: each one finds the caller's today (in their time zone, created with its
 * week when missing) and goes through the same domain service as the app, so the rules hold and the
 * same events are recorded. Answers are sanitized to identifiers and what was logged.
 */
export class PublicApiService {
  private readonly scope: ServiceScope;

  constructor(em: EntityManager, deps: AppDeps) {
    this.scope = { deps, em };
  }

  static forRequest(scope: ServiceScope): PublicApiService {
    return new PublicApiService(scope.em, scope.deps);
  }

  /** A domain service on this request's entity manager, made as a resolver's is. */
  private service<T>(service: RequestService<T>): T {
    return serviceFor(this.scope, service);
  }

  /**
   * The caller's today, read by its owner. With the key's time zone known, from the instance's cache of
   * today's day ids (no statement once cached); a signed-in caller's time zone is read with the day.
   */
  private async todayId(caller: PublicCaller): Promise<string> {
    const { todayDayIds } = this.scope.deps;
    if (todayDayIds && caller.timezone) return todayDayIds.today(this.scope.em, caller.userId, caller.timezone);
    return (await this.service(DayService).today(caller.userId, { timezone: caller.timezone })).id;
  }

  /**
   * Runs a write on the caller's today. Today's id (cached per instance, or just read) can name a day
   * deleted a moment ago: on another instance before its notification arrives, or while the write waited
   * on the deletion's lock. The write then finds no day and fails whole (one statement, or its
   * transaction): nothing was written. The caller's cached day ids are forgotten, the request's unit of
   * work emptied (it may still hold the unwritten record, which a flush would send again), and the write
   * runs once more on today read afresh (made again when missing).
   */
  private async onToday<T>(caller: PublicCaller, write: (dayId: string) => Promise<T>): Promise<T> {
    const dayId = await this.todayId(caller);
    try {
      return await write(dayId);
    } catch (error) {
      if (!isMissingDay(error)) throw error;
      this.scope.deps.todayDayIds?.forget(caller.userId);
      this.scope.em.clear();
      return write(await this.todayId(caller));
    }
  }

  async searchExercises(caller: PublicCaller, q?: string | null): Promise<PublicExercise[]> {
    const found = await this.service(ExerciseService).search(caller.userId, q ?? undefined, PUBLIC_SEARCH_MAX);
    return found.map((e) => ({ id: e.id, name: e.name, muscleGroup: e.muscleGroups?.[0] ?? null }));
  }

  /** The caller's active habits (all of them: at most HABITS_MAX) with their state on today. */
  async listHabits(caller: PublicCaller): Promise<PublicHabit[]> {
    const dayId = await this.todayId(caller);
    const page = await this.service(HabitService).stateForDay(caller.userId, dayId, { limit: HABITS_MAX });
    return page.items.map(({ habit, state, value }) => ({
      id: habit.id,
      name: habit.name,
      kind: habit.kind,
      unit: habit.unit ?? null,
      target: habit.target,
      state,
      value,
      currentStreak: habit.currentStreak,
      streakUnit: streakUnit(habit),
    }));
  }

  /** Logs an entry of one of the caller's habits on their today (the app's rules: caps, kinds, archive). */
  async logHabit(caller: PublicCaller, args: PublicLogHabitArgs): Promise<PublicHabitLogged> {
    const habits = this.service(HabitService);
    const entry = await this.onToday(caller, (dayId) => habits.logEntry(caller.userId, { habitId: args.habitId, dayId, value: args.value, note: args.note }));
    const habit = await habits.get(caller.userId, args.habitId);
    const day = await habits.stateOn(caller.userId, habit, entry.date);
    return {
      id: entry.id,
      habitId: habit.id,
      date: entry.date,
      value: entry.value,
      state: day.state,
      dayValue: day.value,
      target: habit.target,
      currentStreak: habit.currentStreak,
      streakUnit: streakUnit(habit),
      message: `Logged ${habit.name}: ${day.value} of ${habit.target}${habit.unit ? ` ${habit.unit}` : ''} today`,
      record: entry,
    };
  }

  async logWater(caller: PublicCaller, args: PublicWaterArgs): Promise<PublicWaterLogged> {
    const { userId } = caller;
    // Today was read by its owner: the write checks no ownership again.
    const intake = await this.onToday(caller, (dayId) =>
      this.service(WaterService).log(userId, { dayId, volume: args.volume, time: args.time, notes: args.notes }, { ownedDay: { id: dayId, userId } }),
    );
    return { id: intake.id, volume: intake.volume, time: intake.time, message: `Logged ${intake.volume} ml of water`, record: intake };
  }

  async logWorkout(caller: PublicCaller, args: PublicWorkoutArgs): Promise<PublicWorkoutLogged> {
    const { userId } = caller;
    const exercises = (args.exercises ?? []).map((e) => ({
      exerciseId: e.exerciseId,
      sets: (e.sets ?? []).map((s) => ({ setNumber: s.setNumber, reps: s.reps ?? null, load: s.weight ?? null })),
    }));
    const session = await this.onToday(caller, (dayId) =>
      this.service(TrainingSessionService).create(userId, {
        dayId,
        split: args.splitLabel,
        startTime: args.startTime,
        endTime: args.endTime,
        sessionRPE: args.sessionRPE,
        notes: args.notes,
        exercises,
      }),
    );
    const count = exercises.length;
    return { id: session.id, splitLabel: session.split, exercisesCount: count, message: `Logged ${session.split} workout with ${count} exercise${count === 1 ? '' : 's'}`, record: session };
  }

  async logSteps(caller: PublicCaller, args: PublicStepsArgs): Promise<PublicStepsLogged> {
    const { userId } = caller;
    const entry = await this.onToday(caller, (dayId) =>
      this.service(StepsService).log(userId, { dayId, steps: args.steps, time: args.time, notes: args.notes }),
    );
    return { steps: entry.steps, message: `Logged ${entry.steps} steps`, record: entry };
  }

  async logMeditation(caller: PublicCaller, args: PublicMeditationArgs): Promise<PublicMeditationLogged> {
    const { userId } = caller;
    const session = await this.onToday(caller, (dayId) =>
      this.service(MeditationService).log(userId, { dayId, duration: args.duration, type: args.type, time: args.time, notes: args.notes }),
    );
    return { duration: session.duration, type: session.type ?? null, time: session.time, message: `Logged ${session.duration} minutes of meditation`, record: session };
  }

  async logCardio(caller: PublicCaller, args: PublicCardioArgs): Promise<PublicCardioLogged> {
    const { userId } = caller;
    const session = await this.onToday(caller, (dayId) =>
      this.service(CardioSessionService).create(userId, {
        dayId,
        type: args.type,
        duration: args.duration,
        effort: args.intensity ?? CardioEffort.easy,
        distance: args.distance,
        pace: args.pace,
        averageHeartRate: args.averageHeartRate,
        maxHeartRate: args.maxHeartRate,
        calories: args.calories,
        elevationGain: args.elevationGain,
        startTime: args.startTime,
        endTime: args.endTime,
        notes: args.notes,
      }),
    );
    return { id: session.id, type: session.type, duration: session.duration, message: `Logged ${session.duration} minutes of ${session.type}`, record: session };
  }

  async logMood(caller: PublicCaller, args: PublicMoodArgs): Promise<PublicMoodLogged> {
    const { userId } = caller;
    const entry = await this.onToday(caller, (dayId) =>
      this.service(MoodService).log(userId, { dayId, mood: args.mood, energy: args.energy, time: args.time, notes: args.notes }),
    );
    return { mood: entry.mood, energy: entry.energy, message: `Logged mood ${entry.mood}/10 and energy ${entry.energy}/10`, record: entry };
  }

  async logSleep(caller: PublicCaller, args: PublicSleepArgs): Promise<PublicSleepLogged> {
    const { userId } = caller;
    const entry = await this.onToday(caller, (dayId) =>
      this.service(SleepService).log(userId, {
        dayId,
        duration: args.duration,
        bedtime: args.bedtime,
        wakeTime: args.wakeTime,
        quality: args.quality,
        notes: args.notes,
      }),
    );
    return { sleepHours: entry.duration, message: `Logged ${entry.duration} hours of sleep`, record: entry };
  }

  async logBodyMetrics(caller: PublicCaller, args: PublicBodyMetricsArgs): Promise<PublicBodyMetricsLogged> {
    const { userId } = caller;
    const row = await this.onToday(caller, (dayId) =>
      this.service(BodyMeasurementService).create(userId, {
        dayId,
        weight: args.weight,
        bodyFat: args.bodyFat,
        notes: args.notes,
        measuredAt: args.time,
      }),
    );
    return { id: row.id, weight: row.weight!, bodyFat: row.bodyFat ?? null, message: `Logged a weight of ${row.weight} kg`, record: row };
  }
}
