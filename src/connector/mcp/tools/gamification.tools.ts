import { z } from 'zod';
import { GamificationService } from '../../../gamification/gamification.service.js';
import { idOrName } from './by-name.js';
import { isoDateTime } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

export const gamificationTools: ConnectorTool[] = [
  defineTool({
    name: 'gamification_stats',
    mirrors: 'Query.gamificationCharacter',
    title: 'XP, level and coins',
    description:
      "The user's game state: total XP, level and the XP to the next one, coins (floor(XP ÷ 10) less what was spent) and coins spent, the checklist streak (days) and training streak (weeks), achievements unlocked, the items bought and a one-line avatar description.",
    inputSchema: {},
    outputSchema: {
      xp: z.number(),
      level: z.number(),
      xpToNextLevel: z.number(),
      nextLevelAt: z.number().describe('Total XP at which the next level starts.'),
      coins: z.number(),
      coinsSpent: z.number(),
      streaks: z.object({ checklist: z.number().describe('Consecutive completed days.'), training: z.number().describe('Consecutive weeks with at least 3 sessions.') }),
      achievementsUnlocked: z.number(),
      achievementsTotal: z.number(),
      equipment: z.array(z.object({ name: z.string(), slot: z.string(), quantity: z.number() })),
      avatar: z.string(),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(_args, ctx) {
      const { stats, equipment, avatar } = await ctx.service(GamificationService).character(ctx.userId);
      return {
        xp: stats.xp,
        level: stats.level,
        xpToNextLevel: stats.xpToNextLevel,
        nextLevelAt: stats.nextLevelAt,
        coins: stats.coins,
        coinsSpent: stats.coinsSpent,
        streaks: { checklist: stats.streaks.checklist, training: stats.streaks.training },
        achievementsUnlocked: stats.achievementCount,
        achievementsTotal: stats.achievementTotal,
        equipment: equipment.map((e) => ({ name: e.name, slot: e.slot, quantity: e.quantity })),
        avatar,
      };
    },
  }),
  defineTool({
    name: 'gamification_achievements',
    mirrors: 'Query.achievements',
    title: 'Achievements',
    description: 'The achievement catalog (a fixed, seeded list) in order, each with when the user unlocked it (null while locked); `status` keeps only the unlocked or the locked ones (default all).',
    inputSchema: {
      status: z.enum(['all', 'unlocked', 'locked']).optional().describe('Default all.'),
    },
    outputSchema: {
      achievements: z.array(z.object({ key: z.string(), name: z.string(), description: z.string(), unlockedAt: isoDateTime.nullable() })),
      unlocked: z.number(),
      total: z.number(),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const all = await ctx.service(GamificationService).achievements(ctx.userId);
      const status = args.status ?? 'all';
      const shown = all.filter((a) => status === 'all' || (status === 'unlocked') === (a.unlockedAt !== null));
      return {
        achievements: shown.map((a) => ({ key: a.key, name: a.name, description: a.description, unlockedAt: a.unlockedAt?.toISOString() ?? null })),
        unlocked: all.filter((a) => a.unlockedAt !== null).length,
        total: all.length,
      };
    },
  }),
  defineTool({
    name: 'gamification_shop',
    mirrors: 'Query.shopItems',
    title: 'Shop',
    description: "The shop's items (a fixed, seeded list) with their prices in coins and whether the user's coins cover each now, plus the user's coins; `affordableOnly` keeps those the coins cover.",
    inputSchema: {
      affordableOnly: z.boolean().optional().describe('Default false.'),
    },
    outputSchema: {
      coins: z.number(),
      items: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), slot: z.string(), price: z.number(), affordable: z.boolean() })),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const service = ctx.service(GamificationService);
      const [items, coins] = [await service.shop(ctx.userId), await service.coins(ctx.userId)];
      return {
        coins,
        items: items
          .filter((i) => !args.affordableOnly || i.affordable)
          .map((i) => ({ id: i.id, name: i.name, description: i.description, slot: i.slot, price: i.price, affordable: i.affordable })),
      };
    },
  }),
  defineTool({
    name: 'gamification_purchase',
    mirrors: 'Mutation.purchaseShopItem',
    title: 'Buy a shop item',
    description:
      'Buys one shop item, given by id or name, with coins (each call buys one more). Coins never go below 0: when they are short it fails with VALIDATION_ERROR (rule insufficient_coins) and changes nothing. The first purchase records achievement_unlocked (first_purchase).',
    inputSchema: {
      itemId: z.string().uuid().optional(),
      itemName: z.string().min(1).max(100).optional().describe('The item by name (exact, any case, or a unique part of it).'),
    },
    outputSchema: { id: z.string(), itemId: z.string(), itemName: z.string(), price: z.number(), coins: z.number().describe('Coins left.'), purchasedAt: isoDateTime },
    area: 'planning',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const service = ctx.service(GamificationService);
      const itemId = await idOrName('Shop item', { id: args.itemId, name: args.itemName }, () => service.shop(ctx.userId), (i) => i.name, (i) => i.id);
      const bought = await service.purchase(ctx.userId, itemId);
      return { id: bought.id, itemId: bought.item.id, itemName: bought.item.name, price: bought.price, coins: bought.coins, purchasedAt: bought.purchasedAt.toISOString() };
    },
  }),
];
