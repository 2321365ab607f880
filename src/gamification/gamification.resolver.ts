import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { requireAuth } from '../core/current-user.js';
import { GamificationService } from './gamification.service.js';
import { AchievementView, GamificationCharacter, GamificationStats, ShopItemIdArgs, ShopItemView, ShopPurchase } from './gamification.types.js';

@Resolver()
export class GamificationResolver {
  @Query(() => GamificationStats, { description: 'XP, level, XP to the next level, coins, streaks and achievement count.' })
  gamificationStats(@Ctx() ctx: AppContext): Promise<GamificationStats> {
    return new GamificationService(ctx.em).stats(requireAuth(ctx).user.id);
  }

  @Query(() => GamificationCharacter, { description: 'Your stats, the equipment you bought and a description of your avatar.' })
  gamificationCharacter(@Ctx() ctx: AppContext): Promise<GamificationCharacter> {
    return new GamificationService(ctx.em).character(requireAuth(ctx).user.id);
  }

  @Query(() => [AchievementView], { description: 'The whole catalog; `unlockedAt` is set for those you unlocked.' })
  achievements(@Ctx() ctx: AppContext): Promise<AchievementView[]> {
    return new GamificationService(ctx.em).achievements(requireAuth(ctx).user.id);
  }

  @Query(() => [ShopItemView], { description: 'The shop, with whether your coins cover each price.' })
  shopItems(@Ctx() ctx: AppContext): Promise<ShopItemView[]> {
    return new GamificationService(ctx.em).shop(requireAuth(ctx).user.id);
  }

  @Mutation(() => ShopPurchase, { description: 'Buys one item; 400 when your coins are short (coins never go below 0).' })
  purchaseShopItem(@Args(() => ShopItemIdArgs) args: ShopItemIdArgs, @Ctx() ctx: AppContext): Promise<ShopPurchase> {
    return new GamificationService(ctx.em).purchase(requireAuth(ctx).user.id, args.itemId);
  }
}
