import { Args, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic, type LiveTick } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { mayConcernDay } from '../planning/day-of-change.js';
import { TaskService } from './task.service.js';
import { ListTasksArgs, TaskPage } from './task.types.js';

/** A list filtered by day re-reads only for tasks of that day (before or after the change). */
export const TASKS_TOPIC = liveTopic('tasks', ['Task', 'TaskCategory'], { within: (change, args) => change.entity !== 'Task' || mayConcernDay(change, args.dayId) });

const PAST_THE_END = 'tasks:past-the-end';

/** The live task list (issue 27). */
@Authorized()
@Resolver()
export class TasksLiveResolver {
  @Subscription(() => TaskPage, { subscribe: liveTicks(TASKS_TOPIC), description: 'The page `tasks` answers for these arguments, again after each change to your tasks.' })
  async tasksChanged(
    @Args(() => ListTasksArgs) args: ListTasksArgs,
    @Root() tick: LiveTick,
    @CurrentUserId() userId: string,
    @Service(TaskService) taskService: TaskService,
  ): Promise<TaskPage> {
    // A page past the end stays empty until enough tasks match: while it is, one COUNT answers it.
    const page = await taskService.list(userId, args, { countFirst: tick.kept?.get(PAST_THE_END) === true });
    tick.kept?.set(PAST_THE_END, page.items.length === 0 && page.meta.page > 1);
    return page;
  }
}
