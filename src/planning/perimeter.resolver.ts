import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { requireAuth } from '../core/current-user.js';
import { deleted, Deleted } from '../core/deleted.js';
import type { Page } from '../core/pagination.js';
import { PerimeterTask } from './perimeter-task.entity.js';
import { PerimeterService } from './perimeter.service.js';
import {
  CreatePerimeterTaskArgs,
  PerimeterTaskIdArgs,
  PerimeterTaskListArgs,
  PerimeterTaskPage,
  SetDayPerimeterArgs,
  UpdatePerimeterTaskArgs,
} from './planning.types.js';

@Resolver(() => PerimeterTask)
export class PerimeterResolver {
  @Query(() => PerimeterTaskPage, { description: "The user's reusable perimeter tasks." })
  perimeterTasks(@Args(() => PerimeterTaskListArgs) args: PerimeterTaskListArgs, @Ctx() ctx: AppContext): Promise<Page<PerimeterTask>> {
    return new PerimeterService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => PerimeterTask)
  createPerimeterTask(@Args(() => CreatePerimeterTaskArgs) args: CreatePerimeterTaskArgs, @Ctx() ctx: AppContext): Promise<PerimeterTask> {
    return new PerimeterService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => PerimeterTask)
  updatePerimeterTask(@Args(() => UpdatePerimeterTaskArgs) args: UpdatePerimeterTaskArgs, @Ctx() ctx: AppContext): Promise<PerimeterTask> {
    const { taskId, ...changes } = args;
    return new PerimeterService(ctx.em).update(requireAuth(ctx).user.id, taskId, changes);
  }

  @Mutation(() => Deleted)
  async deletePerimeterTask(@Args(() => PerimeterTaskIdArgs) args: PerimeterTaskIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    await new PerimeterService(ctx.em).delete(requireAuth(ctx).user.id, args.taskId);
    return deleted(args.taskId, 'Perimeter task');
  }

  @Mutation(() => [PerimeterTask], { description: "Sets the day's perimeter: 3 to 5 tasks, or 2 to 3 in minimum mode." })
  setDayPerimeter(@Args(() => SetDayPerimeterArgs) args: SetDayPerimeterArgs, @Ctx() ctx: AppContext): Promise<PerimeterTask[]> {
    return new PerimeterService(ctx.em).setForDay(requireAuth(ctx).user.id, args.dayId, args.taskIds);
  }
}
