import { Args, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { requireAuth } from '../core/current-user.js';
import { Day } from '../planning/day.entity.js';
import { MeditationSession } from './meditation-session.entity.js';
import { MoodEntry } from './mood-entry.entity.js';
import { SleepEntry } from './sleep-entry.entity.js';
import { StepsEntry } from './steps-entry.entity.js';
import { WaterIntake } from './water-intake.entity.js';
import { MeditationService, MoodService, SleepService, StepsService, WaterService } from './wellness.service.js';
import { LogMeditationArgs, LogMoodArgs, LogSleepArgs, LogStepsArgs, LogWaterArgs } from './wellness.types.js';

/** Logging water, steps, meditation, mood and sleep for one of your days (the app's side of the Public API writes). */
@Resolver()
export class WellnessResolver {
  @Mutation(() => WaterIntake, { description: 'Records water_logged.' })
  logWater(@Args(() => LogWaterArgs) args: LogWaterArgs, @Ctx() ctx: AppContext): Promise<WaterIntake> {
    return new WaterService(ctx.em).log(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => StepsEntry)
  logSteps(@Args(() => LogStepsArgs) args: LogStepsArgs, @Ctx() ctx: AppContext): Promise<StepsEntry> {
    return new StepsService(ctx.em).log(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => MeditationSession, { description: 'Records meditation_logged.' })
  logMeditation(@Args(() => LogMeditationArgs) args: LogMeditationArgs, @Ctx() ctx: AppContext): Promise<MeditationSession> {
    return new MeditationService(ctx.em).log(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => MoodEntry, { description: "Also sets the day's mood and energy." })
  logMood(@Args(() => LogMoodArgs) args: LogMoodArgs, @Ctx() ctx: AppContext): Promise<MoodEntry> {
    return new MoodService(ctx.em).log(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => SleepEntry, { description: "Also sets the day's sleepHours." })
  logSleep(@Args(() => LogSleepArgs) args: LogSleepArgs, @Ctx() ctx: AppContext): Promise<SleepEntry> {
    return new SleepService(ctx.em).log(requireAuth(ctx).user.id, args);
  }
}

/** A day's wellness records, oldest first. */
@Resolver(() => Day)
export class DayWellnessResolver {
  @FieldResolver(() => [WaterIntake])
  waterIntakes(@Root() day: Day, @Ctx() ctx: AppContext): Promise<WaterIntake[]> {
    return ctx.loaders.wellness.waterIntakesByDayId.load(day.id);
  }

  @FieldResolver(() => [StepsEntry])
  stepsEntries(@Root() day: Day, @Ctx() ctx: AppContext): Promise<StepsEntry[]> {
    return ctx.loaders.wellness.stepsEntriesByDayId.load(day.id);
  }

  @FieldResolver(() => [MeditationSession])
  meditationSessions(@Root() day: Day, @Ctx() ctx: AppContext): Promise<MeditationSession[]> {
    return ctx.loaders.wellness.meditationSessionsByDayId.load(day.id);
  }

  @FieldResolver(() => [MoodEntry])
  moodEntries(@Root() day: Day, @Ctx() ctx: AppContext): Promise<MoodEntry[]> {
    return ctx.loaders.wellness.moodEntriesByDayId.load(day.id);
  }

  @FieldResolver(() => [SleepEntry])
  sleepEntries(@Root() day: Day, @Ctx() ctx: AppContext): Promise<SleepEntry[]> {
    return ctx.loaders.wellness.sleepEntriesByDayId.load(day.id);
  }
}
