import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
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

@Authorized()
@Resolver(() => PerimeterTask)
export class PerimeterResolver {
  @Query(() => PerimeterTaskPage, { description: "The user's reusable perimeter tasks." })
  perimeterTasks(@Args(() => PerimeterTaskListArgs) args: PerimeterTaskListArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Page<PerimeterTask>> {
    return new PerimeterService(ctx.em).list(userId, args);
  }

  @Mutation(() => PerimeterTask)
  createPerimeterTask(@Args(() => CreatePerimeterTaskArgs) args: CreatePerimeterTaskArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<PerimeterTask> {
    return new PerimeterService(ctx.em).create(userId, args);
  }

  @Mutation(() => PerimeterTask)
  updatePerimeterTask(@Args(() => UpdatePerimeterTaskArgs) args: UpdatePerimeterTaskArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<PerimeterTask> {
    const { taskId, ...changes } = args;
    return new PerimeterService(ctx.em).update(userId, taskId, changes);
  }

  @Mutation(() => Deleted)
  async deletePerimeterTask(@Args(() => PerimeterTaskIdArgs) args: PerimeterTaskIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    await new PerimeterService(ctx.em).delete(userId, args.taskId);
    return deleted(args.taskId, 'Perimeter task');
  }

  @Mutation(() => [PerimeterTask], { description: "Sets the day's perimeter: 3 to 5 tasks, or 2 to 3 in minimum mode." })
  setDayPerimeter(@Args(() => SetDayPerimeterArgs) args: SetDayPerimeterArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<PerimeterTask[]> {
    return new PerimeterService(ctx.em).setForDay(userId, args.dayId, args.taskIds);
  }
}
