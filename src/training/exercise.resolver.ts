import { Args, Ctx, FieldResolver, Float, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { requireAuth } from '../core/current-user.js';
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

@Resolver(() => Exercise)
export class ExerciseResolver {
  @Query(() => ExercisePage, { description: 'Your exercise catalog (global and your own), by name.' })
  exercises(@Args(() => ListExercisesArgs) args: ListExercisesArgs, @Ctx() ctx: AppContext): Promise<ExercisePage> {
    return new ExerciseService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => Exercise, { description: 'One exercise of your catalog (global or your own).' })
  exercise(@Args(() => ExerciseIdArgs) args: ExerciseIdArgs, @Ctx() ctx: AppContext): Promise<Exercise> {
    return new ExerciseService(ctx.em).get(requireAuth(ctx).user.id, args.exerciseId);
  }

  @Query(() => ExerciseHistoryPage, {
    description: 'Your sessions with this exercise, most recent first, each with its volume and best e1RM (for progress charts).',
  })
  exerciseHistory(@Args(() => ExerciseHistoryArgs) args: ExerciseHistoryArgs, @Ctx() ctx: AppContext): Promise<ExerciseHistoryPage> {
    const { exerciseId, ...page } = args;
    return new ExerciseService(ctx.em).history(requireAuth(ctx).user.id, exerciseId, page);
  }

  @Mutation(() => Exercise, { description: 'Adds an exercise of your own to your catalog.' })
  createExercise(@Args(() => CreateExerciseArgs) args: CreateExerciseArgs, @Ctx() ctx: AppContext): Promise<Exercise> {
    return new ExerciseService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Exercise, {
    description: 'Name, category and muscle groups change only on your own exercises (a global one answers NOT_FOUND); oneRepMax is yours and may be set on any exercise of your catalog.',
  })
  updateExercise(@Args(() => UpdateExerciseArgs) args: UpdateExerciseArgs, @Ctx() ctx: AppContext): Promise<Exercise> {
    const { exerciseId, ...changes } = args;
    return new ExerciseService(ctx.em).update(requireAuth(ctx).user.id, exerciseId, changes);
  }

  @Mutation(() => Deleted, { description: 'Only your own exercises can be deleted; logged sessions keep the entry by name.' })
  deleteExercise(@Args(() => ExerciseIdArgs) args: ExerciseIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new ExerciseService(ctx.em).delete(requireAuth(ctx).user.id, args.exerciseId);
  }

  @FieldResolver(() => Float, { nullable: true, description: 'Your one-rep max of the exercise in kg, set with updateExercise; only you see it.' })
  oneRepMax(@Root() exercise: Exercise, @Ctx() ctx: AppContext): Promise<number | null> {
    return ctx.loaders.training.oneRepMaxByUserExercise.load(`${requireAuth(ctx).user.id}|${exercise.id}`);
  }
}
