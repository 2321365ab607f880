import type { EntityManager } from '@mikro-orm/postgresql';
import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { Day } from './day.entity.js';
import { PLANNING_DAY_FIELDS, type DayFieldSources } from './day-fields.js';
import { mayConcernDay, mayConcernWeek, type WeekRecords } from './day-of-change.js';
import { DayService } from './day.service.js';
import { DayIdArgs, WeekStartArgs } from './planning.types.js';
import { Week } from './week.entity.js';
import { WeekService } from './week.service.js';

/** A day follows what its fields read (declared per field by the domains), and only changes that can be of that day. */
export const DAY_TOPIC = liveTopic('day', [], { within: (change, args) => mayConcernDay(change, args.dayId) });
/** A week shows its days, any of their fields: only changes of that week, its days, or of no day re-read it. */
export const WEEK_TOPIC = liveTopic('week', ['Week'], {
  resolve: (args, em, userId) => weekRecords(em, userId, args.startDate),
  resolvedFrom: ['Week'],
  within: (change, _args, week) => mayConcernWeek(change, week as WeekRecords | null),
});

/** The week starting `startDate` and its days' ids (two small reads when a subscription starts), null when not generated. */
async function weekRecords(em: EntityManager, userId: string, startDate: unknown): Promise<WeekRecords | null> {
  if (typeof startDate !== 'string') return null;
  const week = await em.findOne(Week, { userId, startDate }, { fields: ['id'] });
  if (!week) return null;
  const days = await em.find(Day, { userId, weekId: week.id }, { fields: ['id'] });
  return { weekId: week.id, dayIds: new Set(days.map((day) => day.id)) };
}

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
