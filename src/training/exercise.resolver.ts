import { Args, Authorized, Ctx, FieldResolver, Float, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { Exercise } from './exercise.entity.js';
import { ExerciseService } from './exercise.service.js';
import {
  CreateExerciseArgs,
  ExerciseHistoryArgs,
  ExerciseHistoryPage,
  ExerciseIdArgs,
  ExercisePage,
  ListExercisesArgs,
  UpdateExerciseArgs,
} from './training.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => Exercise)
export class ExerciseResolver {
  @Query(() => ExercisePage, { description: 'Your exercise catalog (global and your own), by name.' })
  exercises(@Args(() => ListExercisesArgs) args: ListExercisesArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<ExercisePage> {
    return exerciseService.list(userId, args);
  }

  @Query(() => Exercise, { description: 'One exercise of your catalog (global or your own).' })
  exercise(@Args(() => ExerciseIdArgs) args: ExerciseIdArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<Exercise> {
    return exerciseService.get(userId, args.exerciseId);
  }

  @Query(() => ExerciseHistoryPage, {
    description: 'Your sessions with this exercise, most recent first, each with its volume and best e1RM (for progress charts).',
  })
  exerciseHistory(@Args(() => ExerciseHistoryArgs) args: ExerciseHistoryArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<ExerciseHistoryPage> {
    const { exerciseId, ...page } = args;
    return exerciseService.history(userId, exerciseId, page);
  }

  @Mutation(() => Exercise, { description: 'Adds an exercise of your own to your catalog.' })
  createExercise(@Args(() => CreateExerciseArgs) args: CreateExerciseArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<Exercise> {
    return exerciseService.create(userId, args);
  }

  @Mutation(() => Exercise, {
    description: 'Name, category and muscle groups change only on your own exercises (a global one answers NOT_FOUND); oneRepMax is yours and may be set on any exercise of your catalog.',
  })
  updateExercise(@Args(() => UpdateExerciseArgs) args: UpdateExerciseArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<Exercise> {
    const { exerciseId, ...changes } = args;
    return exerciseService.update(userId, exerciseId, changes);
  }

  @Mutation(() => Deleted, { description: 'Only your own exercises can be deleted; logged sessions keep the entry by name.' })
  deleteExercise(@Args(() => ExerciseIdArgs) args: ExerciseIdArgs, @CurrentUserId() userId: string, @Service(ExerciseService) exerciseService: ExerciseService): Promise<Deleted> {
    return exerciseService.delete(userId, args.exerciseId);
  }

  @FieldResolver(() => Float, { nullable: true, description: 'Your one-rep max of the exercise in kg, set with updateExercise; only you see it.' })
  oneRepMax(@Root() exercise: Exercise, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<number | null> {
    return ctx.loaders.training.oneRepMaxByUserExercise.load(`${userId}|${exercise.id}`);
  }
}
