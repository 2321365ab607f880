import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Day } from '../planning/day.entity.js';
import { DinnerPlan } from './dinner-plan.entity.js';
import { DinnerPlanService } from './dinner-plan.service.js';
import { DinnerPlanPage, ListDinnerPlansArgs, UpdateDinnerPlanArgs, WeekIdArgs } from './nutrition.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => DinnerPlan)
export class DinnerPlanResolver {
  @Query(() => DinnerPlanPage, { description: 'Your dinner plans by date; filter by week or day.' })
  dinnerPlans(@Args(() => ListDinnerPlansArgs) args: ListDinnerPlansArgs, @CurrentUserId() userId: string, @Service(DinnerPlanService) dinnerPlanService: DinnerPlanService): Promise<DinnerPlanPage> {
    return dinnerPlanService.list(userId, args);
  }

  @Mutation(() => [DinnerPlan], { description: 'Makes the 7 dinner plans of the week under the cooking rule; again returns the same 7 (200).' })
  async generateDinnerWeek(@Args(() => WeekIdArgs) args: WeekIdArgs, @CurrentUserId() userId: string, @Service(DinnerPlanService) dinnerPlanService: DinnerPlanService, @Ctx() ctx: AppContext): Promise<DinnerPlan[]> {
    const { plans, created } = await dinnerPlanService.generateWeek(userId, args.weekId);
    if (!created) ctx.http.setStatus(200);
    return plans;
  }

  @Mutation(() => DinnerPlan, { description: "Cooking rule: a cook day's meal is set on the covered day too; cooked on a cook day completes COOK." })
  updateDinnerPlan(@Args(() => UpdateDinnerPlanArgs) args: UpdateDinnerPlanArgs, @CurrentUserId() userId: string, @Service(DinnerPlanService) dinnerPlanService: DinnerPlanService): Promise<DinnerPlan> {
    const { dinnerPlanId, ...changes } = args;
    return dinnerPlanService.update(userId, dinnerPlanId, changes);
  }
}

/** A day's dinner plan (a day is reached only by its owner). */
@Resolver(() => Day)
export class DayDinnerResolver {
  @FieldResolver(() => DinnerPlan, { nullable: true, description: "Null until the week's dinner plans are generated." })
  dinnerPlan(@Root() day: Day, @Ctx() ctx: AppContext): Promise<DinnerPlan | null> {
    return ctx.loaders.nutrition.dinnerPlanByDayId.load(day.id);
  }
}
