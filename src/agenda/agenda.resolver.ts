import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { AgendaFeedService, feedPath } from './agenda-feed.service.js';
import { AgendaService, MAX_AGENDA_ENTRIES } from './agenda.service.js';
import { AgendaEntry, AgendaFeedUrl, AgendaRangeArgs, CreateAgendaFeedArgs } from './agenda.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => AgendaEntry)
export class AgendaResolver {
  @Query(() => [AgendaEntry], {
    description:
      'Tasks, training, mobility, cardio, social happenings, deadlines, project task due dates, transactions, reading, meditation and birthdays overlapping [start, end), sorted by start; ' +
      'recurring tasks on the dates of their rule with no task made yet, and recurring transactions on their dates not booked yet. ' +
      `At most ${MAX_AGENDA_ENTRIES} entries: a range holding more is a 400 asking for a shorter one.`,
  })
  agendaRange(@Args(() => AgendaRangeArgs) args: AgendaRangeArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<AgendaEntry[]> {
    return AgendaService.range(ctx.em, userId, args);
  }

  @Mutation(() => AgendaFeedUrl, {
    description: 'A new secret iCalendar URL of your agenda (last and next 90 days); the previous URL answers 404 from now on. includeHabits: the URL also carries your active habits (`?include=habits`).',
  })
  async createAgendaFeed(
    @Args(() => CreateAgendaFeedArgs) args: CreateAgendaFeedArgs,
    @CurrentUserId() userId: string,
    @Service(AgendaFeedService) agendaFeedService: AgendaFeedService,
    @Ctx() ctx: AppContext,
  ): Promise<AgendaFeedUrl> {
    const token = await agendaFeedService.rotate(userId);
    return { url: `${ctx.deps.config.baseUrl}${feedPath(token)}${args.includeHabits ? '?include=habits' : ''}` };
  }
}
