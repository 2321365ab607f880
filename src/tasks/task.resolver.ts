import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { TaskCategory } from './task-category.entity.js';
import { Task } from './task.entity.js';
import { TaskService } from './task.service.js';
import { CreateTaskArgs, ListTasksArgs, TaskIdArgs, TaskPage, UpdateTaskArgs } from './task.types.js';

function service(ctx: AppContext): TaskService {
  return new TaskService(ctx.em);
}

@Authorized()
@Resolver(() => Task)
export class TaskResolver {
  @Query(() => TaskPage, { description: 'The caller\'s tasks, oldest first; filter by status, category or day.' })
  tasks(@Args(() => ListTasksArgs) args: ListTasksArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<TaskPage> {
    return service(ctx).list(userId, args);
  }

  @Query(() => Task)
  task(@Args(() => TaskIdArgs) args: TaskIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Task> {
    return service(ctx).get(userId, args.taskId);
  }

  @Mutation(() => Task, { description: 'A new task starts as todo.' })
  createTask(@Args(() => CreateTaskArgs) args: CreateTaskArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Task> {
    return service(ctx).create(userId, args);
  }

  @Mutation(() => Task, { description: 'Deferring needs a non-empty nextStep in the same request.' })
  updateTask(@Args(() => UpdateTaskArgs) args: UpdateTaskArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Task> {
    const { taskId, ...changes } = args;
    return service(ctx).update(userId, taskId, changes);
  }

  @Mutation(() => Deleted)
  deleteTask(@Args(() => TaskIdArgs) args: TaskIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return service(ctx).delete(userId, args.taskId);
  }

  @FieldResolver(() => TaskCategory, { nullable: true })
  category(@Root() task: Task, @Ctx() ctx: AppContext): Promise<TaskCategory | null> | null {
    return task.categoryId ? ctx.loaders.tasks.categoryById.load(task.categoryId) : null;
  }
}
