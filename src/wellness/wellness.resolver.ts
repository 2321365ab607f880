import { Args, Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Day } from '../planning/day.entity.js';
import { MeditationSession } from './meditation-session.entity.js';
import { MoodEntry } from './mood-entry.entity.js';
import { SleepEntry } from './sleep-entry.entity.js';
import { StepsEntry } from './steps-entry.entity.js';
import { WaterIntake } from './water-intake.entity.js';
import { MeditationService, MoodService, SleepService, StepsService, WaterService } from './wellness.service.js';
import { LogMeditationArgs, LogMoodArgs, LogSleepArgs, LogStepsArgs, LogWaterArgs } from './wellness.types.js';
import { Service } from '../core/request-services.js';

/** Logging water, steps, meditation, mood and sleep for one of your days (the app's side of the Public API writes). */
@Authorized()
@Resolver()
export class WellnessResolver {
  @Mutation(() => WaterIntake, { description: 'Records water_logged.' })
  logWater(@Args(() => LogWaterArgs) args: LogWaterArgs, @CurrentUserId() userId: string, @Service(WaterService) waterService: WaterService): Promise<WaterIntake> {
    return waterService.log(userId, args);
  }

  @Mutation(() => StepsEntry)
  logSteps(@Args(() => LogStepsArgs) args: LogStepsArgs, @CurrentUserId() userId: string, @Service(StepsService) stepsService: StepsService): Promise<StepsEntry> {
    return stepsService.log(userId, args);
  }

  @Mutation(() => MeditationSession, { description: 'Records meditation_logged.' })
  logMeditation(@Args(() => LogMeditationArgs) args: LogMeditationArgs, @CurrentUserId() userId: string, @Service(MeditationService) meditationService: MeditationService): Promise<MeditationSession> {
    return meditationService.log(userId, args);
  }

  @Mutation(() => MoodEntry, { description: "Also sets the day's mood and energy." })
  logMood(@Args(() => LogMoodArgs) args: LogMoodArgs, @CurrentUserId() userId: string, @Service(MoodService) moodService: MoodService): Promise<MoodEntry> {
    return moodService.log(userId, args);
  }

  @Mutation(() => SleepEntry, { description: "Also sets the day's sleepHours." })
  logSleep(@Args(() => LogSleepArgs) args: LogSleepArgs, @CurrentUserId() userId: string, @Service(SleepService) sleepService: SleepService): Promise<SleepEntry> {
    return sleepService.log(userId, args);
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
