import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { todayIn } from '../core/dates.js';
import { ACHIEVEMENTS } from './achievement-catalog.seed.js';
import { coinsFor, levelFor, xpForLevel } from './gamification-rules.js';
import { checklistStreakOf, lockProfile, timeZoneOf, trainingStreakOf, unlockAchievements } from './gamification.reactor.js';
import { Purchase } from './purchase.entity.js';
import type { AchievementView, EquipmentItem, GamificationCharacter, GamificationStats, ShopItemView, ShopPurchase } from './gamification.types.js';

interface ItemRow {
  id: string;
  key: string;
  name: string;
  description: string;
  slot: string;
  price: number;
}

/**
 * Reads of a user's gamification state, and the shop. XP itself is written only by the reactor
 * (gamification.reactor.ts), from the domain's facts.
 */
export class GamificationService {
  constructor(private readonly em: EntityManager) {}

  private async balance(userId: string): Promise<{ xp: number; spent: number }> {
    const rows = await this.em.execute<{ xp: number; coins_spent: number }[]>('select xp, coins_spent from gamification_profiles where user_id = ?', [userId]);
    return { xp: rows[0]?.xp ?? 0, spent: rows[0]?.coins_spent ?? 0 };
  }

  async stats(userId: string): Promise<GamificationStats> {
    const { xp, spent } = await this.balance(userId);
    const today = todayIn(await timeZoneOf(this.em, userId));
    const level = levelFor(xp);
    const nextLevelAt = xpForLevel(level + 1);
    const unlocked = await this.em.execute<{ n: number }[]>('select count(*)::int as n from gamification_user_achievements where user_id = ?', [userId]);
    return {
      xp,
      level,
      xpToNextLevel: nextLevelAt - xp,
      nextLevelAt,
      coins: coinsFor(xp, spent),
      coinsSpent: spent,
      streaks: { checklist: await checklistStreakOf(this.em, userId, today), training: await trainingStreakOf(this.em, userId, today) },
      achievementCount: unlocked[0]!.n,
      achievementTotal: ACHIEVEMENTS.length,
    };
  }

  async character(userId: string): Promise<GamificationCharacter> {
    const stats = await this.stats(userId);
    const equipment = await this.em.execute<(EquipmentItem & { order: number })[]>(
      `select i.id as "itemId", i.key, i.name, i.slot, count(*)::int as quantity, min(i."order") as "order"
         from gamification_purchases p join gamification_shop_items i on i.id = p.item_id
        where p.user_id = ? group by i.id order by min(i."order")`,
      [userId],
    );
    return { stats, equipment: equipment.map(({ order: _order, ...item }) => item), avatar: describeAvatar(stats, equipment) };
  }

  async achievements(userId: string): Promise<AchievementView[]> {
    return this.em.execute<AchievementView[]>(
      `select a.id, a.key, a.name, a.description, u.unlocked_at as "unlockedAt"
         from gamification_achievements a
         left join gamification_user_achievements u on u.achievement_id = a.id and u.user_id = ?
        order by a."order"`,
      [userId],
    ).then((rows) => rows.map((r) => ({ ...r, unlockedAt: r.unlockedAt ? new Date(r.unlockedAt) : null })));
  }

  async shop(userId: string): Promise<ShopItemView[]> {
    const { xp, spent } = await this.balance(userId);
    const coins = coinsFor(xp, spent);
    const items = await this.em.execute<ItemRow[]>('select id, key, name, description, slot, price from gamification_shop_items order by "order"');
    return items.map((item) => ({ ...item, affordable: item.price <= coins }));
  }

  /**
   * Buys one item. The profile row lock serialises a user's purchases (and XP changes), so concurrent
   * purchases are judged one after the other and coins never go below 0.
   */
  async purchase(userId: string, itemId: string): Promise<ShopPurchase> {
    return this.em.transactional(async (em) => {
      const items = await em.execute<ItemRow[]>('select id, key, name, description, slot, price from gamification_shop_items where id = ?', [itemId]);
      const item = items[0];
      if (!item) throw new NotFoundError('Shop item');
      const profile = await lockProfile(em, userId);
      const rows = await em.execute<{ coins_spent: number; purchases: number }[]>(
        'select coins_spent, (select count(*)::int from gamification_purchases where user_id = ?) as purchases from gamification_profiles where id = ?',
        [userId, profile.id],
      );
      const spent = rows[0]!.coins_spent;
      const coins = coinsFor(profile.xp, spent);
      if (coins < item.price) {
        throw new RuleViolationError('insufficient_coins', `This item costs ${item.price} coins; you have ${coins}`, ['itemId']);
      }
      const now = new Date();
      const purchase = em.create(Purchase, { userId, itemId: item.id, price: item.price, createdAt: now, updatedAt: now });
      await em.flush();
      await em.execute('update gamification_profiles set coins_spent = coins_spent + ?, updated_at = ? where id = ?', [item.price, now, profile.id]);
      await unlockAchievements(em, userId, {
        counts: {},
        xp: profile.xp,
        level: levelFor(profile.xp),
        checklistStreak: profile.checklist_streak,
        trainingStreak: profile.training_streak,
        cardioKm: null,
        booksFinished: null,
        purchases: rows[0]!.purchases + 1,
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
