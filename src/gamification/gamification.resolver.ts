import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { GamificationService } from './gamification.service.js';
import { AchievementView, GamificationCharacter, GamificationStats, ShopItemIdArgs, ShopItemView, ShopPurchase } from './gamification.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver()
export class GamificationResolver {
  @Query(() => GamificationStats, { description: 'XP, level, XP to the next level, coins, streaks and achievement count.' })
  gamificationStats(@CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<GamificationStats> {
    return gamificationService.stats(userId);
  }

  @Query(() => GamificationCharacter, { description: 'Your stats, the equipment you bought and a description of your avatar.' })
  gamificationCharacter(@CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<GamificationCharacter> {
    return gamificationService.character(userId);
  }

  @Query(() => [AchievementView], { description: 'The whole catalog; `unlockedAt` is set for those you unlocked.' })
  achievements(@CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<AchievementView[]> {
    return gamificationService.achievements(userId);
  }

  @Query(() => [ShopItemView], { description: 'The shop, with whether your coins cover each price.' })
  shopItems(@CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<ShopItemView[]> {
    return gamificationService.shop(userId);
  }

  @Mutation(() => ShopPurchase, { description: 'Buys one item; 400 when your coins are short (coins never go below 0).' })
  purchaseShopItem(@Args(() => ShopItemIdArgs) args: ShopItemIdArgs, @CurrentUserId() userId: string, @Service(GamificationService) gamificationService: GamificationService): Promise<ShopPurchase> {
    return gamificationService.purchase(userId, args.itemId);
  }
}
