import { Authorized, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../../core/current-user.js';
import { BrainStatsService } from './brain-stats.service.js';
import { BrainStats } from './brain-stats.types.js';
import { Service } from '../../core/request-services.js';

@Authorized()
@Resolver()
export class BrainStatsResolver {
  @Query(() => BrainStats, { description: 'Counts of your Brain: per type, words in notes, records per database.' })
  brainStats(@CurrentUserId() userId: string, @Service(BrainStatsService) brainStatsService: BrainStatsService): Promise<BrainStats> {
    return brainStatsService.stats(userId);
  }
}
