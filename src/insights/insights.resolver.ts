import { Args, Authorized, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { Service } from '../core/request-services.js';
import { Insight } from './insight.entity.js';
import { InsightService } from './insight.service.js';
import { InsightDateArgs, InsightIdArgs, InsightPage, ListInsightsArgs, ThisDayLastYear, WeeklyInsightSummary, toDirection } from './insights.types.js';

@Authorized()
@Resolver(() => Insight)
export class InsightResolver {
  @Query(() => InsightPage, { description: 'Your insights (found each night), strongest first: smallest q, then largest |rho|.' })
  insights(@Args(() => ListInsightsArgs) args: ListInsightsArgs, @CurrentUserId() userId: string, @Service(InsightService) insights: InsightService): Promise<InsightPage> {
    return insights.list(userId, args);
  }

  @Query(() => Insight)
  insight(@Args(() => InsightIdArgs) args: InsightIdArgs, @CurrentUserId() userId: string, @Service(InsightService) insights: InsightService): Promise<Insight> {
    return insights.get(userId, args.insightId);
  }

  @Query(() => WeeklyInsightSummary, { description: 'The week holding `date` (the current week by default) against the same weekdays of the week before, and your streaks.' })
  async insightsWeeklySummary(@Args(() => InsightDateArgs) args: InsightDateArgs, @CurrentUserId() userId: string, @Service(InsightService) insights: InsightService): Promise<WeeklyInsightSummary> {
    const summary = await insights.weeklySummary(userId, args.date);
    return { ...summary, metrics: summary.metrics.map((m) => ({ ...m, direction: toDirection(m.direction) })) };
  }

  @Query(() => ThisDayLastYear, { description: 'What you logged on `date` (today by default) a year before.' })
  thisDayLastYear(@Args(() => InsightDateArgs) args: InsightDateArgs, @CurrentUserId() userId: string, @Service(InsightService) insights: InsightService): Promise<ThisDayLastYear> {
    return insights.thisDayLastYear(userId, args.date);
  }
}
