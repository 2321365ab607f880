import type { EntityManager } from '@mikro-orm/postgresql';
import { stableId } from '../core/database/stable-id.js';
import { ShopItem } from './shop-item.entity.js';

/** The seeded shop. Keys are the identity (ids derive from them): never rename one, add a new one. */
export const SHOP_ITEMS: ReadonlyArray<{ key: string; name: string; description: string; slot: string; price: number }> = [
  { key: 'energy_potion', name: 'Energy Potion', description: 'A fizzy blue drink. Purely decorative.', slot: 'consumable', price: 5 },
  { key: 'leather_cap', name: 'Leather Cap', description: 'A sturdy cap for early mornings.', slot: 'head', price: 10 },
  { key: 'wooden_sword', name: 'Wooden Sword', description: 'Every hero starts somewhere.', slot: 'hand', price: 15 },
  { key: 'traveler_cloak', name: "Traveler's Cloak", description: 'Keeps the rain off on long runs.', slot: 'body', price: 25 },
  { key: 'reading_glasses', name: 'Reading Glasses', description: 'For finishing one more chapter.', slot: 'accessory', price: 30 },
  { key: 'iron_helmet', name: 'Iron Helmet', description: 'Heavy, shiny and very serious.', slot: 'head', price: 50 },
  { key: 'steel_sword', name: 'Steel Sword', description: 'Forged from a hundred completed tasks.', slot: 'hand', price: 80 },
  { key: 'chainmail', name: 'Chainmail', description: 'Armour for the busiest weeks.', slot: 'body', price: 120 },
  { key: 'pet_owl', name: 'Pet Owl', description: 'A wise companion that reminds you to journal.', slot: 'pet', price: 150 },
  { key: 'golden_crown', name: 'Golden Crown', description: 'For those who never break a streak.', slot: 'head', price: 500 },
];

export function shopItemId(key: string): string {
  return stableId(`shop-item:${key}`);
}

/** Inserts the missing items; existing rows (by id) are left as they are. */
export async function seedShopItems(em: EntityManager): Promise<void> {
  const now = new Date();
  const rows = SHOP_ITEMS.map((item, i) => ({ id: shopItemId(item.key), createdAt: now, updatedAt: now, ...item, order: i + 1 }));
  await em.createQueryBuilder(ShopItem).insert(rows).onConflict().ignore().execute();
}
