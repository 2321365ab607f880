import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { CardioSession } from './cardio-session.entity.js';
import { CardioSessionService } from './cardio-session.service.js';
import { MobilitySession } from './mobility-session.entity.js';
import { MobilitySessionService } from './mobility-session.service.js';
import { CardioSessionPage, CreateCardioSessionArgs, CreateMobilitySessionArgs, DayRangeArgs, MobilitySessionPage } from './training.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => MobilitySession)
export class MobilitySessionResolver {
  @Query(() => MobilitySessionPage, { description: 'Your mobility sessions; filter by day or date range.' })
  mobilitySessions(@Args(() => DayRangeArgs) args: DayRangeArgs, @CurrentUserId() userId: string, @Service(MobilitySessionService) mobilitySessionService: MobilitySessionService): Promise<MobilitySessionPage> {
    return mobilitySessionService.list(userId, args);
  }

  @Mutation(() => MobilitySession, { description: 'Lunch slot rule: refused when the day has a cardio session.' })
  createMobilitySession(@Args(() => CreateMobilitySessionArgs) args: CreateMobilitySessionArgs, @CurrentUserId() userId: string, @Service(MobilitySessionService) mobilitySessionService: MobilitySessionService): Promise<MobilitySession> {
    return mobilitySessionService.create(userId, args);
  }
}

@Authorized()
@Resolver(() => CardioSession)
export class CardioSessionResolver {
  @Query(() => CardioSessionPage, { description: 'Your cardio sessions by start time; filter by day or date range.' })
  cardioSessions(@Args(() => DayRangeArgs) args: DayRangeArgs, @CurrentUserId() userId: string, @Service(CardioSessionService) cardioSessionService: CardioSessionService): Promise<CardioSessionPage> {
    return cardioSessionService.list(userId, args);
  }

  @Mutation(() => CardioSession, { description: 'Lunch slot rule: refused when the day has a mobility session. Records cardio_logged.' })
  createCardioSession(@Args(() => CreateCardioSessionArgs) args: CreateCardioSessionArgs, @CurrentUserId() userId: string, @Service(CardioSessionService) cardioSessionService: CardioSessionService): Promise<CardioSession> {
    return cardioSessionService.create(userId, args);
  }
}
