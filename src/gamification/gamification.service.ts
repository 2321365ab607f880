import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { todayIn } from '../core/dates.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { ACHIEVEMENTS } from './achievement-catalog.seed.js';
import { coinsFor, levelFor, xpForLevel } from './gamification-rules.js';
import { checklistStreakOf, trainingStreakOf, unlockAchievements } from './gamification.reactor.js';
import { Purchase } from './purchase.entity.js';
import { achievementsOf, addCoinsSpent, coinsSpentAndPurchases, equipmentOf, lockProfile, profileBalance, shopItem, shopItems, timeZoneOf, unlockedCount } from './gamification.queries.js';
import type { AchievementView, EquipmentItem, GamificationCharacter, GamificationStats, ShopItemView, ShopPurchase } from './gamification.types.js';

/**
 * Reads of a user's gamification state, and the shop. XP itself is written only by the reactor
 * (gamification.reactor.ts), from the domain's facts.
 */
export class GamificationService {
  constructor(private readonly em: EntityManager) {}

  private async balance(userId: string): Promise<{ xp: number; spent: number }> {
    return profileBalance(this.em, userId);
  }

  /** The coins the user has now (floor(XP ÷ 10) less what was spent). */
  async coins(userId: string): Promise<number> {
    const { xp, spent } = await this.balance(userId);
    return coinsFor(xp, spent);
  }

  async stats(userId: string): Promise<GamificationStats> {
    const { xp, spent } = await this.balance(userId);
    const today = todayIn(await timeZoneOf(this.em, userId));
    const level = levelFor(xp);
    const nextLevelAt = xpForLevel(level + 1);
    const unlocked = await unlockedCount(this.em, userId);
    return {
      xp,
      level,
      xpToNextLevel: nextLevelAt - xp,
      nextLevelAt,
      coins: coinsFor(xp, spent),
      coinsSpent: spent,
      streaks: { checklist: await checklistStreakOf(this.em, userId, today), training: await trainingStreakOf(this.em, userId, today) },
      achievementCount: unlocked,
      achievementTotal: ACHIEVEMENTS.length,
    };
  }

  async character(userId: string): Promise<GamificationCharacter> {
    const stats = await this.stats(userId);
    const equipment = await equipmentOf(this.em, userId);
    return { stats, equipment: equipment.map(({ order: _order, ...item }) => item), avatar: describeAvatar(stats, equipment) };
  }

  async achievements(userId: string): Promise<AchievementView[]> {
    return achievementsOf(this.em, userId);
  }

  async shop(userId: string): Promise<ShopItemView[]> {
    const { xp, spent } = await this.balance(userId);
    const coins = coinsFor(xp, spent);
    const items = await shopItems(this.em);
    return items.map((item) => ({ ...item, affordable: item.price <= coins }));
  }

  /**
   * Buys one item. The profile row lock serialises a user's purchases (and XP changes), so concurrent
   * purchases are judged one after the other and coins never go below 0.
   */
  async purchase(userId: string, itemId: string): Promise<ShopPurchase> {
    return this.em.transactional(async (em) => {
      const item = await shopItem(em, itemId);
      if (!item) throw new NotFoundError('Shop item');
      const profile = await lockProfile(em, userId);
      const { spent, purchases } = await coinsSpentAndPurchases(em, userId, profile.id);
      const coins = coinsFor(profile.xp, spent);
      if (coins < item.price) {
        throw new RuleViolationError('insufficient_coins', `This item costs ${item.price} coins; you have ${coins}`, ['itemId']);
      }
      const now = new Date();
      const purchase = em.create(Purchase, { userId, itemId: item.id, price: item.price, createdAt: now, updatedAt: now });
      await em.flush();
      await addCoinsSpent(em, profile.id, item.price, now);
      recordLiveChange(em, userId, { entity: 'GamificationProfile', id: profile.id, kind: 'updated' });
      await unlockAchievements(em, userId, {
        counts: {},
        xp: profile.xp,
        level: levelFor(profile.xp),
        checklistStreak: profile.checklist_streak,
        trainingStreak: profile.training_streak,
        cardioKm: null,
        booksFinished: null,
        purchases: purchases + 1,
      }, now);
      return { id: purchase.id, item: { ...item, affordable: coins - item.price >= item.price }, price: item.price, coins: coins - item.price, purchasedAt: now };
    });
  }
}

const TITLES: [number, string][] = [[10, 'legendary hero'], [7, 'seasoned champion'], [5, 'adventurer'], [3, 'apprentice'], [1, 'novice']];

/** A short description of the character: its rank by level and what it wears. */
function describeAvatar(stats: GamificationStats, equipment: EquipmentItem[]): string {
  const title = TITLES.find(([min]) => stats.level >= min)![1];
  const worn = equipment.filter((e) => e.slot !== 'consumable').map((e) => e.name);
  const gear = worn.length ? ` equipped with ${worn.join(', ')}` : ' in plain clothes';
  const streak = stats.streaks.checklist > 0 ? `, glowing with a ${stats.streaks.checklist}-day streak` : '';
  return `A level ${stats.level} ${title}${gear}${streak}.`;
}
