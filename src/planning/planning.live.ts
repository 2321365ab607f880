import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { Day } from './day.entity.js';
import { DayService } from './day.service.js';
import { DayIdArgs, WeekStartArgs } from './planning.types.js';
import { Week } from './week.entity.js';
import { WeekService } from './week.service.js';

/** Everything a day answers: its checklist, perimeter, tasks, mood and energy, sleep and completion. */
const DAY_ENTITIES = [
  'Day', 'ChecklistItem', 'DayPerimeterTask', 'PerimeterTask', 'Task', 'TaskCategory', 'UserSettings',
  'MoodEntry', 'SleepEntry', 'WaterIntake', 'StepsEntry', 'MeditationSession',
  'TrainingSession', 'CardioSession', 'MobilitySession', 'DinnerPlan',
];
export const DAY_TOPIC = liveTopic('day', DAY_ENTITIES);
export const WEEK_TOPIC = liveTopic('week', ['Week', ...DAY_ENTITIES]);

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
