import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Day } from '../planning/day.entity.js';
import { Task } from './task.entity.js';

/** `Day.tasks`: a day is reached only by its owner, and only the owner's tasks can be attached to it. */
@Resolver(() => Day)
export class DayTasksResolver {
  @FieldResolver(() => [Task], { description: 'The tasks planned on this day, oldest first.' })
  tasks(@Root() day: Day, @Ctx() ctx: AppContext): Promise<Task[]> {
    return ctx.loaders.tasks.tasksByDayId.load(day.id);
  }
}
