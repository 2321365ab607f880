import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { GamificationService } from './gamification.service.js';
import { AchievementView, GamificationCharacter, GamificationStats, ShopItemIdArgs, ShopItemView, ShopPurchase } from './gamification.types.js';

@Authorized()
@Resolver()
export class GamificationResolver {
  @Query(() => GamificationStats, { description: 'XP, level, XP to the next level, coins, streaks and achievement count.' })
  gamificationStats(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<GamificationStats> {
    return new GamificationService(ctx.em).stats(userId);
  }

  @Query(() => GamificationCharacter, { description: 'Your stats, the equipment you bought and a description of your avatar.' })
  gamificationCharacter(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<GamificationCharacter> {
    return new GamificationService(ctx.em).character(userId);
  }

  @Query(() => [AchievementView], { description: 'The whole catalog; `unlockedAt` is set for those you unlocked.' })
  achievements(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<AchievementView[]> {
    return new GamificationService(ctx.em).achievements(userId);
  }

  @Query(() => [ShopItemView], { description: 'The shop, with whether your coins cover each price.' })
  shopItems(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<ShopItemView[]> {
    return new GamificationService(ctx.em).shop(userId);
  }

  @Mutation(() => ShopPurchase, { description: 'Buys one item; 400 when your coins are short (coins never go below 0).' })
  purchaseShopItem(@Args(() => ShopItemIdArgs) args: ShopItemIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<ShopPurchase> {
    return new GamificationService(ctx.em).purchase(userId, args.itemId);
  }
}
