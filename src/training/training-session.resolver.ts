import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { requireAuth } from '../core/current-user.js';
import { TrainingExercise } from './training-exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { TrainingSessionService } from './training-session.service.js';
import { TrainingSet } from './training-set.entity.js';
import {
  CreateTrainingSessionArgs,
  DayRangeArgs,
  TrainingSessionIdArgs,
  TrainingSessionPage,
  UpdateTrainingSessionArgs,
} from './training.types.js';

@Resolver(() => TrainingSession)
export class TrainingSessionResolver {
  @Query(() => TrainingSessionPage, { description: 'Your training sessions by start time; filter by day or date range.' })
  trainingSessions(@Args(() => DayRangeArgs) args: DayRangeArgs, @Ctx() ctx: AppContext): Promise<TrainingSessionPage> {
    return new TrainingSessionService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => TrainingSession)
  trainingSession(@Args(() => TrainingSessionIdArgs) args: TrainingSessionIdArgs, @Ctx() ctx: AppContext): Promise<TrainingSession> {
    return new TrainingSessionService(ctx.em).get(requireAuth(ctx).user.id, args.sessionId);
  }

  @Mutation(() => TrainingSession, { description: 'Logs a session; records training_logged.' })
  createTrainingSession(@Args(() => CreateTrainingSessionArgs) args: CreateTrainingSessionArgs, @Ctx() ctx: AppContext): Promise<TrainingSession> {
    return new TrainingSessionService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => TrainingSession, { description: '`exercises` replaces every exercise and set; records training_updated.' })
  updateTrainingSession(@Args(() => UpdateTrainingSessionArgs) args: UpdateTrainingSessionArgs, @Ctx() ctx: AppContext): Promise<TrainingSession> {
    const { sessionId, ...changes } = args;
    return new TrainingSessionService(ctx.em).update(requireAuth(ctx).user.id, sessionId, changes);
  }

  @Mutation(() => Deleted)
  deleteTrainingSession(@Args(() => TrainingSessionIdArgs) args: TrainingSessionIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new TrainingSessionService(ctx.em).delete(requireAuth(ctx).user.id, args.sessionId);
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
}
