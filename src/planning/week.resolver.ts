import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Day } from './day.entity.js';
import { UpdateWeekArgs, WeekStartArgs } from './planning.types.js';
import { Week } from './week.entity.js';
import { WeekService } from './week.service.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => Week)
export class WeekResolver {
  @CachedPerPerson()
  @Query(() => Week, { description: 'A generated week by its Monday, with its days.' })
  week(@Args(() => WeekStartArgs) args: WeekStartArgs, @CurrentUserId() userId: string, @Service(WeekService) weekService: WeekService): Promise<Week> {
    return weekService.findByStart(userId, args.startDate);
  }

  @Mutation(() => Week, { description: 'Creates the week and its 7 days; an existing week is returned unchanged.' })
  async generateWeek(@Args(() => WeekStartArgs) args: WeekStartArgs, @CurrentUserId() userId: string, @Service(WeekService) weekService: WeekService, @Ctx() ctx: AppContext): Promise<Week> {
    const { week, created } = await weekService.generate(userId, args.startDate);
    if (!created) ctx.http.setStatus(200);
    return week;
  }

  @Mutation(() => Week)
  updateWeek(@Args(() => UpdateWeekArgs) args: UpdateWeekArgs, @CurrentUserId() userId: string, @Service(WeekService) weekService: WeekService): Promise<Week> {
    return weekService.update(userId, args.weekId, { isStressWeek: args.isStressWeek });
  }

  @FieldResolver(() => [Day])
  async days(@Root() week: Week, @Ctx() ctx: AppContext): Promise<Day[]> {
    ctx.loaders.planning.weekById.prime(week.id, week);
    return ctx.loaders.planning.daysByWeekId.load(week.id);
  }
}
