import type { EntityManager } from '@mikro-orm/postgresql';
import type { AchievementView, EquipmentItem } from './gamification.types.js';

/** The gamification domain's hand-written SQL for its reads and the shop (the reactor's writes are in gamification.reactor.ts). */

export interface ItemRow {
  id: string;
  key: string;
  name: string;
  description: string;
  slot: string;
  price: number;
}

/** XP and coins spent of the user's profile (0 and 0 before any). */
export async function profileBalance(em: EntityManager, userId: string): Promise<{ xp: number; spent: number }> {
  const rows = await em.execute<{ xp: number; coins_spent: number }[]>('select xp, coins_spent from gamification_profiles where user_id = ?', [userId]);
  return { xp: rows[0]?.xp ?? 0, spent: rows[0]?.coins_spent ?? 0 };
}

export async function unlockedCount(em: EntityManager, userId: string): Promise<number> {
  const rows = await em.execute<{ n: number }[]>('select count(*)::int as n from gamification_user_achievements where user_id = ?', [userId]);
  return rows[0]!.n;
}

/** Every achievement in catalog order, with when the user unlocked it (null while locked). */
export async function achievementsOf(em: EntityManager, userId: string): Promise<AchievementView[]> {
  const rows = await em.execute<AchievementView[]>(
    `select a.id, a.key, a.name, a.description, u.unlocked_at as "unlockedAt"
       from gamification_achievements a
       left join gamification_user_achievements u on u.achievement_id = a.id and u.user_id = ?
      order by a."order"`,
    [userId],
  );
  return rows.map((r) => ({ ...r, unlockedAt: r.unlockedAt ? new Date(r.unlockedAt) : null }));
}

/** What the user bought, one row per item with its quantity, in catalog order. */
export function equipmentOf(em: EntityManager, userId: string): Promise<(EquipmentItem & { order: number })[]> {
  return em.execute<(EquipmentItem & { order: number })[]>(
    `select i.id as "itemId", i.key, i.name, i.slot, count(*)::int as quantity, min(i."order") as "order"
       from gamification_purchases p join gamification_shop_items i on i.id = p.item_id
      where p.user_id = ? group by i.id order by min(i."order")`,
    [userId],
  );
}

export function shopItems(em: EntityManager): Promise<ItemRow[]> {
  return em.execute<ItemRow[]>('select id, key, name, description, slot, price from gamification_shop_items order by "order"');
}

export async function shopItem(em: EntityManager, itemId: string): Promise<ItemRow | undefined> {
  const rows = await em.execute<ItemRow[]>('select id, key, name, description, slot, price from gamification_shop_items where id = ?', [itemId]);
  return rows[0];
}

/** Coins spent on the (locked) profile and how many purchases the user has made. */
export async function coinsSpentAndPurchases(em: EntityManager, userId: string, profileId: string): Promise<{ spent: number; purchases: number }> {
  const rows = await em.execute<{ coins_spent: number; purchases: number }[]>(
    'select coins_spent, (select count(*)::int from gamification_purchases where user_id = ?) as purchases from gamification_profiles where id = ?',
    [userId, profileId],
  );
  return { spent: rows[0]!.coins_spent, purchases: rows[0]!.purchases };
}

export async function addCoinsSpent(em: EntityManager, profileId: string, price: number, now: Date): Promise<void> {
  await em.execute('update gamification_profiles set coins_spent = coins_spent + ?, updated_at = ? where id = ?', [price, now, profileId]);
}
