import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { ChecklistKey, requiredChecklist } from './checklist-key.js';
import { Day } from './day.entity.js';
import { DayService } from './day.service.js';
import { PerimeterTask } from './perimeter-task.entity.js';
import { bedtimeTargetsFor } from './bedtime-targets.js';
import { BedtimeTargets, DayIdArgs, UpdateDayArgs } from './planning.types.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => Day)
export class DayResolver {
  @CachedPerPerson()
  @Query(() => Day)
  day(@Args(() => DayIdArgs) args: DayIdArgs, @CurrentUserId() userId: string, @Service(DayService) dayService: DayService): Promise<Day> {
    return dayService.get(userId, args.dayId);
  }

  @Query(() => Day, { description: "Today in the user's time zone; created on first read." })
  async today(@CurrentUserId() userId: string, @Service(DayService) dayService: DayService, @Ctx() ctx: AppContext): Promise<Day> {
    // The whole settings row through the request's loader, not the time zone alone, and the day's week
    // with the day: the bedtime targets read both, which then cost no statements of their own (issue 36).
    const { timezone } = await ctx.loaders.settings.byUserId.load(userId);
    return dayService.today(userId, { timezone, onWeek: (week) => ctx.loaders.planning.weekById.prime(week.id, week) });
  }

  @Mutation(() => Day)
  updateDay(@Args(() => UpdateDayArgs) args: UpdateDayArgs, @CurrentUserId() userId: string, @Service(DayService) dayService: DayService): Promise<Day> {
    const { dayId, ...changes } = args;
    return dayService.update(userId, dayId, changes);
  }

  @FieldResolver(() => Boolean, { description: 'Every required checklist item is done.' })
  completed(@Root() day: Day): boolean {
    return !!day.completedAt;
  }

  @FieldResolver(() => [ChecklistKey], { description: 'The checklist this day requires: 10 items, or the core 3 in minimum mode.' })
  requiredChecklist(@Root() day: Day): readonly ChecklistKey[] {
    return requiredChecklist(day.minimumMode);
  }

  @FieldResolver(() => [ChecklistItem])
  checklist(@Root() day: Day, @Ctx() ctx: AppContext): Promise<ChecklistItem[]> {
    ctx.loaders.planning.dayById.prime(day.id, day);
    return ctx.loaders.planning.checklistByDayId.load(day.id);
  }

  @FieldResolver(() => [PerimeterTask])
  perimeterTasks(@Root() day: Day, @Ctx() ctx: AppContext): Promise<PerimeterTask[]> {
    return ctx.loaders.planning.perimeterByDayId.load(day.id);
  }

  @FieldResolver(() => BedtimeTargets, { description: 'Bedtime targets in effect for this day (spec rule 7).' })
  async bedtimeTargets(@Root() day: Day, @Ctx() ctx: AppContext): Promise<BedtimeTargets> {
    const [week, settings] = await Promise.all([
      ctx.loaders.planning.weekById.load(day.weekId),
      ctx.loaders.settings.byUserId.load(day.userId),
    ]);
    return bedtimeTargetsFor(week, settings);
  }
}
