import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../core/context.js';
import { CurrentUserId } from '../../core/current-user.js';
import { BrainStatsService } from './brain-stats.service.js';
import { BrainStats } from './brain-stats.types.js';

@Authorized()
@Resolver()
export class BrainStatsResolver {
  @Query(() => BrainStats, { description: 'Counts of your Brain: per type, words in notes, records per database.' })
  brainStats(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<BrainStats> {
    return new BrainStatsService(ctx.em).stats(userId);
  }
}
