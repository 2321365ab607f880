import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../core/pagination.js';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { requireAuth } from '../core/current-user.js';
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

@Resolver(() => TaskCategory)
export class TaskCategoryResolver {
  @Query(() => TaskCategoryPage, { description: 'The caller\'s task categories, oldest first.' })
  taskCategories(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: AppContext): Promise<TaskCategoryPage> {
    return service(ctx).list(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => TaskCategory)
  createTaskCategory(@Args(() => CreateTaskCategoryArgs) args: CreateTaskCategoryArgs, @Ctx() ctx: AppContext): Promise<TaskCategory> {
    return service(ctx).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => TaskCategory)
  updateTaskCategory(@Args(() => UpdateTaskCategoryArgs) args: UpdateTaskCategoryArgs, @Ctx() ctx: AppContext): Promise<TaskCategory> {
    const { categoryId, ...changes } = args;
    return service(ctx).update(requireAuth(ctx).user.id, categoryId, changes);
  }

  @Mutation(() => Deleted, { description: 'Its tasks stay, without a category.' })
  deleteTaskCategory(@Args(() => CategoryIdArgs) args: CategoryIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return service(ctx).delete(requireAuth(ctx).user.id, args.categoryId);
  }
}
