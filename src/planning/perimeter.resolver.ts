import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
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
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => PerimeterTask)
export class PerimeterResolver {
  @CachedPerPerson()
  @Query(() => PerimeterTaskPage, { description: "The user's reusable perimeter tasks." })
  perimeterTasks(@Args(() => PerimeterTaskListArgs) args: PerimeterTaskListArgs, @CurrentUserId() userId: string, @Service(PerimeterService) perimeterService: PerimeterService): Promise<Page<PerimeterTask>> {
    return perimeterService.list(userId, args);
  }

  @Mutation(() => PerimeterTask)
  createPerimeterTask(@Args(() => CreatePerimeterTaskArgs) args: CreatePerimeterTaskArgs, @CurrentUserId() userId: string, @Service(PerimeterService) perimeterService: PerimeterService): Promise<PerimeterTask> {
    return perimeterService.create(userId, args);
  }

  @Mutation(() => PerimeterTask)
  updatePerimeterTask(@Args(() => UpdatePerimeterTaskArgs) args: UpdatePerimeterTaskArgs, @CurrentUserId() userId: string, @Service(PerimeterService) perimeterService: PerimeterService): Promise<PerimeterTask> {
    const { taskId, ...changes } = args;
    return perimeterService.update(userId, taskId, changes);
  }

  @Mutation(() => Deleted)
  async deletePerimeterTask(@Args(() => PerimeterTaskIdArgs) args: PerimeterTaskIdArgs, @CurrentUserId() userId: string, @Service(PerimeterService) perimeterService: PerimeterService): Promise<Deleted> {
    await perimeterService.delete(userId, args.taskId);
    return deleted(args.taskId, 'Perimeter task');
  }

  @Mutation(() => [PerimeterTask], { description: "Sets the day's perimeter: 3 to 5 tasks, or 2 to 3 in minimum mode." })
  setDayPerimeter(@Args(() => SetDayPerimeterArgs) args: SetDayPerimeterArgs, @CurrentUserId() userId: string, @Service(PerimeterService) perimeterService: PerimeterService): Promise<PerimeterTask[]> {
    return perimeterService.setForDay(userId, args.dayId, args.taskIds);
  }
}
