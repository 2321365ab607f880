import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { TaskCategory } from './task-category.entity.js';
import { Task } from './task.entity.js';
import { TaskService } from './task.service.js';
import { CreateTaskArgs, DeleteTaskArgs, ListTasksArgs, TaskIdArgs, TaskPage, UpdateTaskArgs } from './task.types.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => Task)
export class TaskResolver {
  @CachedPerPerson()
  @Query(() => TaskPage, { description: 'The caller\'s tasks, oldest first; filter by status, category or day.' })
  tasks(@Args(() => ListTasksArgs) args: ListTasksArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<TaskPage> {
    return taskService.list(userId, args);
  }

  @CachedPerPerson()
  @Query(() => Task)
  task(@Args(() => TaskIdArgs) args: TaskIdArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<Task> {
    return taskService.get(userId, args.taskId);
  }

  @Mutation(() => Task, { description: 'A new task starts as todo. With `recurrence` (and a day) it is the first of a recurring series.' })
  createTask(@Args(() => CreateTaskArgs) args: CreateTaskArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<Task> {
    return taskService.create(userId, args);
  }

  @Mutation(() => Task, {
    description: 'Deferring needs a non-empty nextStep in the same request. On a recurring task, `applyTo` says which occurrences the change reaches.',
  })
  updateTask(@Args(() => UpdateTaskArgs) args: UpdateTaskArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<Task> {
    const { taskId, applyTo, expectedVersion, ...changes } = args;
    return taskService.update(userId, taskId, changes, applyTo, expectedVersion);
  }

  @Mutation(() => Deleted, { description: 'On a recurring task, `applyTo` says which occurrences are deleted.' })
  deleteTask(@Args(() => DeleteTaskArgs) args: DeleteTaskArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<Deleted> {
    return taskService.delete(userId, args.taskId, args.applyTo, args.expectedVersion);
  }

  @FieldResolver(() => TaskCategory, { nullable: true })
  category(@Root() task: Task, @Ctx() ctx: AppContext): Promise<TaskCategory | null> | null {
    return task.categoryId ? ctx.loaders.tasks.categoryById.load(task.categoryId) : null;
  }
}
