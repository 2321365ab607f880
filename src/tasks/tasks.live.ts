import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { mayConcernDay } from '../planning/day-of-change.js';
import { TaskService } from './task.service.js';
import { ListTasksArgs, TaskPage } from './task.types.js';

/** A list filtered by day re-reads only for tasks of that day (before or after the change). */
export const TASKS_TOPIC = liveTopic('tasks', ['Task', 'TaskCategory'], { within: (change, args) => change.entity !== 'Task' || mayConcernDay(change, args.dayId) });

/** The live task list (issue 27). */
@Authorized()
@Resolver()
export class TasksLiveResolver {
  @Subscription(() => TaskPage, { subscribe: liveTicks(TASKS_TOPIC), description: 'The page `tasks` answers for these arguments, again after each change to your tasks.' })
  tasksChanged(@Args(() => ListTasksArgs) args: ListTasksArgs, @CurrentUserId() userId: string, @Service(TaskService) taskService: TaskService): Promise<TaskPage> {
    return taskService.list(userId, args);
  }
}
