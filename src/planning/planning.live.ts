import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { Day } from './day.entity.js';
import { PLANNING_DAY_FIELDS, type DayFieldSources } from './day-fields.js';
import { mayConcernDay } from './day-of-change.js';
import { DayService } from './day.service.js';
import { DayIdArgs, WeekStartArgs } from './planning.types.js';
import { Week } from './week.entity.js';
import { WeekService } from './week.service.js';

/** A day follows what its fields read (declared per field by the domains), and only changes that can be of that day. */
export const DAY_TOPIC = liveTopic('day', [], { within: (change, args) => mayConcernDay(change, args.dayId) });
/** A week shows its days, any of their fields. */
export const WEEK_TOPIC = liveTopic('week', ['Week']);

/** The day and week subscriptions follow the records these Day fields read (the composition passes every domain's). */
export function followDayFields(sources: DayFieldSources): void {
  for (const entities of Object.values(sources)) {
    DAY_TOPIC.follow(entities);
    WEEK_TOPIC.follow(entities);
  }
}
followDayFields(PLANNING_DAY_FIELDS);

/** Live days and weeks (issue 27): the first event is the current state, then one per committed change. */
@Authorized()
@Resolver()
export class PlanningLiveResolver {
  @Subscription(() => Day, { subscribe: liveTicks(DAY_TOPIC), description: 'The day as `day` answers it, again after each change to it.' })
  dayChanged(@Args(() => DayIdArgs) args: DayIdArgs, @CurrentUserId() userId: string, @Service(DayService) dayService: DayService): Promise<Day> {
    return dayService.get(userId, args.dayId);
  }

  @Subscription(() => Week, { subscribe: liveTicks(WEEK_TOPIC), description: 'The week as `week` answers it, again after each change to it or its days.' })
  weekChanged(@Args(() => WeekStartArgs) args: WeekStartArgs, @CurrentUserId() userId: string, @Service(WeekService) weekService: WeekService): Promise<Week> {
    return weekService.findByStart(userId, args.startDate);
  }
}
