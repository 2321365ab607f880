import { Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { GamificationService } from './gamification.service.js';
import { GamificationStats } from './gamification.types.js';

export const GAMIFICATION_TOPIC = liveTopic('gamification', ['GamificationProfile', 'UserAchievement', 'Purchase']);

/** The live gamification profile (issue 27). */
@Authorized()
@Resolver()
export class GamificationLiveResolver {
  @Subscription(() => GamificationStats, {
    subscribe: liveTicks(GAMIFICATION_TOPIC),
    description: 'XP, level, coins, streaks and unlocked achievements as `gamificationStats` answers them, again after each change.',
  })
  gamificationStatsChanged(@CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<GamificationStats> {
    return gamificationService.stats(userId);
  }
}
