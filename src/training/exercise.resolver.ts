import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { requireAuth } from '../core/current-user.js';
import { Exercise } from './exercise.entity.js';
import { ExerciseService } from './exercise.service.js';
import { CreateExerciseArgs, ExerciseIdArgs, ExercisePage, ListExercisesArgs, UpdateExerciseArgs } from './training.types.js';

@Resolver(() => Exercise)
export class ExerciseResolver {
  @Query(() => ExercisePage, { description: 'Your exercise catalog (global and your own), by name.' })
  exercises(@Args(() => ListExercisesArgs) args: ListExercisesArgs, @Ctx() ctx: AppContext): Promise<ExercisePage> {
    return new ExerciseService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Exercise, { description: 'Adds an exercise of your own to your catalog.' })
  createExercise(@Args(() => CreateExerciseArgs) args: CreateExerciseArgs, @Ctx() ctx: AppContext): Promise<Exercise> {
    return new ExerciseService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Exercise, { description: 'Only your own exercises can be changed; global ones answer NOT_FOUND.' })
  updateExercise(@Args(() => UpdateExerciseArgs) args: UpdateExerciseArgs, @Ctx() ctx: AppContext): Promise<Exercise> {
    const { exerciseId, ...changes } = args;
    return new ExerciseService(ctx.em).update(requireAuth(ctx).user.id, exerciseId, changes);
  }

  @Mutation(() => Deleted, { description: 'Only your own exercises can be deleted; logged sessions keep the entry by name.' })
  deleteExercise(@Args(() => ExerciseIdArgs) args: ExerciseIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new ExerciseService(ctx.em).delete(requireAuth(ctx).user.id, args.exerciseId);
  }
}
