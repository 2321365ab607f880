import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../core/pagination.js';
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
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => TaskCategory)
export class TaskCategoryResolver {
  @CachedPerPerson()
  @Query(() => TaskCategoryPage, { description: 'The caller\'s task categories, oldest first.' })
  taskCategories(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(TaskCategoryService) taskCategoryService: TaskCategoryService): Promise<TaskCategoryPage> {
    return taskCategoryService.list(userId, args);
  }

  @Mutation(() => TaskCategory)
  createTaskCategory(@Args(() => CreateTaskCategoryArgs) args: CreateTaskCategoryArgs, @CurrentUserId() userId: string, @Service(TaskCategoryService) taskCategoryService: TaskCategoryService): Promise<TaskCategory> {
    return taskCategoryService.create(userId, args);
  }

  @Mutation(() => TaskCategory)
  updateTaskCategory(@Args(() => UpdateTaskCategoryArgs) args: UpdateTaskCategoryArgs, @CurrentUserId() userId: string, @Service(TaskCategoryService) taskCategoryService: TaskCategoryService): Promise<TaskCategory> {
    const { categoryId, ...changes } = args;
    return taskCategoryService.update(userId, categoryId, changes);
  }

  @Mutation(() => Deleted, { description: 'Its tasks stay, without a category.' })
  deleteTaskCategory(@Args(() => CategoryIdArgs) args: CategoryIdArgs, @CurrentUserId() userId: string, @Service(TaskCategoryService) taskCategoryService: TaskCategoryService): Promise<Deleted> {
    return taskCategoryService.delete(userId, args.categoryId);
  }
}
