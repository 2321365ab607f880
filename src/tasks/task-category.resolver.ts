import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../core/pagination.js';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskCategoryService } from './task-category.service.js';
import {
  CategoryIdArgs,
  CreateTaskCategoryArgs,
  TaskCategoryPage,
  UpdateTaskCategoryArgs,
} from './task.types.js';

function service(ctx: AppContext): TaskCategoryService {
  return new TaskCategoryService(ctx.em);
}

@Authorized()
@Resolver(() => TaskCategory)
export class TaskCategoryResolver {
  @Query(() => TaskCategoryPage, { description: 'The caller\'s task categories, oldest first.' })
  taskCategories(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<TaskCategoryPage> {
    return service(ctx).list(userId, args);
  }

  @Mutation(() => TaskCategory)
  createTaskCategory(@Args(() => CreateTaskCategoryArgs) args: CreateTaskCategoryArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<TaskCategory> {
    return service(ctx).create(userId, args);
  }

  @Mutation(() => TaskCategory)
  updateTaskCategory(@Args(() => UpdateTaskCategoryArgs) args: UpdateTaskCategoryArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<TaskCategory> {
    const { categoryId, ...changes } = args;
    return service(ctx).update(userId, categoryId, changes);
  }

  @Mutation(() => Deleted, { description: 'Its tasks stay, without a category.' })
  deleteTaskCategory(@Args(() => CategoryIdArgs) args: CategoryIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return service(ctx).delete(userId, args.categoryId);
  }
}
