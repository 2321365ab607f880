import { Args, Authorized, Ctx, FieldResolver, Float, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { TrainingExercise } from './training-exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { TrainingSessionService } from './training-session.service.js';
import { TrainingSet } from './training-set.entity.js';
import * as metrics from './training-metrics.js';
import {
  CreateTrainingSessionArgs,
  DayRangeArgs,
  TrainingSessionIdArgs,
  TrainingSessionPage,
  UpdateTrainingSessionArgs,
} from './training.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => TrainingSession)
export class TrainingSessionResolver {
  @Query(() => TrainingSessionPage, { description: 'Your training sessions by start time; filter by day or date range.' })
  trainingSessions(@Args(() => DayRangeArgs) args: DayRangeArgs, @CurrentUserId() userId: string, @Service(TrainingSessionService) trainingSessionService: TrainingSessionService): Promise<TrainingSessionPage> {
    return trainingSessionService.list(userId, args);
  }

  @Query(() => TrainingSession)
  trainingSession(@Args(() => TrainingSessionIdArgs) args: TrainingSessionIdArgs, @CurrentUserId() userId: string, @Service(TrainingSessionService) trainingSessionService: TrainingSessionService): Promise<TrainingSession> {
    return trainingSessionService.get(userId, args.sessionId);
  }

  @Mutation(() => TrainingSession, { description: 'Logs a session; records training_logged.' })
  createTrainingSession(@Args(() => CreateTrainingSessionArgs) args: CreateTrainingSessionArgs, @CurrentUserId() userId: string, @Service(TrainingSessionService) trainingSessionService: TrainingSessionService): Promise<TrainingSession> {
    return trainingSessionService.create(userId, args);
  }

  @Mutation(() => TrainingSession, { description: '`exercises` replaces every exercise and set; records training_updated.' })
  updateTrainingSession(@Args(() => UpdateTrainingSessionArgs) args: UpdateTrainingSessionArgs, @CurrentUserId() userId: string, @Service(TrainingSessionService) trainingSessionService: TrainingSessionService): Promise<TrainingSession> {
    const { sessionId, ...changes } = args;
    return trainingSessionService.update(userId, sessionId, changes);
  }

  @Mutation(() => Deleted)
  deleteTrainingSession(@Args(() => TrainingSessionIdArgs) args: TrainingSessionIdArgs, @CurrentUserId() userId: string, @Service(TrainingSessionService) trainingSessionService: TrainingSessionService): Promise<Deleted> {
    return trainingSessionService.delete(userId, args.sessionId);
  }

  @FieldResolver(() => [TrainingExercise], { description: 'In the order logged.' })
  exercises(@Root() session: TrainingSession, @Ctx() ctx: AppContext): Promise<TrainingExercise[]> {
    return ctx.loaders.training.exercisesBySessionId.load(session.id);
  }
}

@Resolver(() => TrainingExercise)
export class TrainingExerciseResolver {
  @FieldResolver(() => [TrainingSet], { description: 'By set number.' })
  sets(@Root() entry: TrainingExercise, @Ctx() ctx: AppContext): Promise<TrainingSet[]> {
    return ctx.loaders.training.setsByTrainingExerciseId.load(entry.id);
  }

  @FieldResolver(() => Float, { description: 'Computed: Σ reps × load of the sets, kg (two decimals).' })
  async volume(@Root() entry: TrainingExercise, @Ctx() ctx: AppContext): Promise<number> {
    return metrics.volume(await ctx.loaders.training.setsByTrainingExerciseId.load(entry.id));
  }

  @FieldResolver(() => Float, { nullable: true, description: 'Computed: the best e1RM of the sets, kg (one decimal).' })
  async bestE1rm(@Root() entry: TrainingExercise, @Ctx() ctx: AppContext): Promise<number | null> {
    return metrics.bestE1rm(await ctx.loaders.training.setsByTrainingExerciseId.load(entry.id));
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: 'Computed: % drop of reps × load from the first to the last set having both (one decimal); null under two such sets.',
  })
  async fatigueIndex(@Root() entry: TrainingExercise, @Ctx() ctx: AppContext): Promise<number | null> {
    return metrics.fatigueIndex(await ctx.loaders.training.setsByTrainingExerciseId.load(entry.id));
  }
}

@Resolver(() => TrainingSet)
export class TrainingSetResolver {
  @FieldResolver(() => Float, { nullable: true, description: 'Computed: Epley e1RM, load × (1 + reps/30), kg (one decimal); null without load or reps.' })
  e1rm(@Root() set: TrainingSet): number | null {
    return metrics.e1rm(set);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: "Computed: load ÷ your oneRepMax of the exercise, or else its best e1RM over the 90 days before the session's day, × 100 (one decimal).",
  })
  async percent1rm(@Root() set: TrainingSet, @Ctx() ctx: AppContext): Promise<number | null> {
    if (!set.load) return null;
    return metrics.percent1rm(set, await ctx.loaders.training.percentReferenceByEntryId.load(set.trainingExerciseId));
  }
}
