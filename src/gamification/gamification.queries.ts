import { recordLiveChange } from '../core/live/change-collector.js';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import type { XpAction } from './gamification-rules.js';
import type { AchievementView, EquipmentItem } from './gamification.types.js';

/** Gamification's hand-written SQL: the reactor's ledger and profile writes, the reads and the shop. */

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

export interface ProfileRow {
  id: string;
  xp: number;
  highest_level: number;
  checklist_streak: number;
  training_streak: number;
  /** The user's time zone (their settings', else the default): streaks count days in it. */
  timezone: string;
}

const PROFILE_COLUMNS = 'id, xp, highest_level, checklist_streak, training_streak';

/**
 * Creates the user's profile row when missing and locks it: one user's reactions and purchases run one
 * at a time. One statement (issue 36: a checklist toggle or a logged session sent two, and a third for
 * the time zone): the insert of a missing row and the lock of an existing one, as CTEs. Both CTEs read
 * the statement's snapshot, so when another transaction made the row meanwhile (the insert waited on
 * it, then did nothing) neither returns it: then the two statements, the second with a fresh snapshot.
 */
export async function lockProfile(em: EntityManager, userId: string): Promise<ProfileRow> {
  const now = new Date();
  const timezone = `coalesce((select timezone from user_settings where user_id = ?), '${DEFAULT_TIMEZONE}') as timezone`;
  const rows = await em.execute<ProfileRow[]>(
    `with made as (insert into gamification_profiles (id, created_at, updated_at, user_id) values (?, ?, ?, ?) on conflict (user_id) do nothing returning ${PROFILE_COLUMNS}),
     locked as (select ${PROFILE_COLUMNS} from gamification_profiles where user_id = ? for update)
     select p.*, ${timezone} from (select * from made union all select * from locked) p`,
    [randomUUID(), now, now, userId, userId, userId],
  );
  if (rows[0]) return rows[0];
  return (await em.execute<ProfileRow[]>(`select ${PROFILE_COLUMNS}, ${timezone} from gamification_profiles where user_id = ? for update`, [userId, userId]))[0]!;
}

export async function saveProfile(
  em: EntityManager,
  profileId: string,
  p: { xp: number; highestLevel: number; checklistStreak: number; trainingStreak: number },
  now: Date,
): Promise<void> {
  await em.execute(
    'update gamification_profiles set xp = ?, highest_level = ?, checklist_streak = ?, training_streak = ?, updated_at = ? where id = ?',
    [p.xp, p.highestLevel, p.checklistStreak, p.trainingStreak, now, profileId],
  );
}

/** Adds the ledger entry once (its key: user, action, source); the XP granted, or null when it was there already. */
export async function grantXp(em: EntityManager, userId: string, action: XpAction, sourceId: string, amount: number, grantedAt: Date, now: Date): Promise<number | null> {
  const inserted = await em.execute<{ id: string; xp: number }[]>(
    `insert into gamification_xp_grants (id, created_at, updated_at, user_id, action, source_id, xp, granted_at)
     values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (user_id, action, source_id) do nothing returning id, xp`,
    [randomUUID(), now, now, userId, action, sourceId, amount, grantedAt],
  );
  // A raw insert: the live updates and the change feed hear it from here.
  if (inserted[0]) recordLiveChange(em, userId, { entity: 'XpGrant', id: String(inserted[0].id), kind: 'created' });
  return inserted[0]?.xp ?? null;
}

/** Removes the ledger entry; the XP it had granted, or null when there was none. */
export async function takeBackXp(em: EntityManager, userId: string, action: XpAction, sourceId: string): Promise<number | null> {
  const removed = await em.execute<{ id: string; xp: number }[]>('delete from gamification_xp_grants where user_id = ? and action = ? and source_id = ? returning id, xp', [userId, action, sourceId]);
  if (removed[0]) recordLiveChange(em, userId, { entity: 'XpGrant', id: String(removed[0].id), kind: 'deleted' });
  return removed[0]?.xp ?? null;
}

/** One statement for the ledger's counts per action and the achievements already unlocked. */
export async function ledgerProgress(em: EntityManager, userId: string): Promise<{ counts: Record<string, number>; unlocked: Set<string> }> {
  const [row] = await em.execute<{ counts: Record<string, number> | null; unlocked: string[] | null }[]>(
    `select (select json_object_agg(action, n) from (select action, count(*)::int as n from gamification_xp_grants where user_id = ? group by action) c) as counts,
            (select array_agg(achievement_id) from gamification_user_achievements where user_id = ?) as unlocked`,
    [userId, userId],
  );
  return { counts: row?.counts ?? {}, unlocked: new Set(row?.unlocked ?? []) };
}

export async function cardioKmOf(em: EntityManager, userId: string): Promise<number> {
  return (await em.execute<{ km: number }[]>('select coalesce(sum(distance), 0)::float8 as km from cardio_sessions where user_id = ?', [userId]))[0]!.km;
}

export async function booksFinishedOf(em: EntityManager, userId: string): Promise<number> {
  return (await em.execute<{ n: number }[]>('select count(*)::int as n from books where user_id = ? and total_pages > 0 and current_page >= total_pages', [userId]))[0]!.n;
}

/** The task's timebox, or null when the task is gone. */
export async function taskTimebox(em: EntityManager, taskId: string): Promise<number | null> {
  const rows = await em.execute<{ timebox: number }[]>('select timebox from tasks where id = ?', [taskId]);
  return rows[0]?.timebox ?? null;
}

export async function unlockedAchievementIds(em: EntityManager, userId: string): Promise<string[]> {
  return (await em.execute<{ achievement_id: string }[]>('select achievement_id from gamification_user_achievements where user_id = ?', [userId])).map((r) => r.achievement_id);
}

/** Unlocks the achievement once; true when this call unlocked it. */
export async function insertUnlock(em: EntityManager, userId: string, achievementId: string, now: Date): Promise<boolean> {
  const inserted = await em.execute<{ id: string }[]>(
    `insert into gamification_user_achievements (id, created_at, updated_at, user_id, achievement_id, unlocked_at)
     values (?, ?, ?, ?, ?, ?) on conflict (user_id, achievement_id) do nothing returning id`,
    [randomUUID(), now, now, userId, achievementId, now],
  );
  return inserted.length > 0;
}

export async function timeZoneOf(em: EntityManager, userId: string): Promise<string> {
  const rows = await em.execute<{ timezone: string }[]>('select timezone from user_settings where user_id = ?', [userId]);
  return rows[0]?.timezone ?? DEFAULT_TIMEZONE;
}

/** The user's completed days up to `today`, newest first (the last 1000). */
export async function completedDatesUpTo(em: EntityManager, userId: string, today: string): Promise<string[]> {
  const rows = await em.execute<{ d: string }[]>(
    "select to_char(date, 'YYYY-MM-DD') as d from days where user_id = ? and completed_at is not null and date <= ?::date order by date desc limit 1000",
    [userId, today],
  );
  return rows.map((r) => r.d);
}

/** Training sessions per week (keyed by the week's Monday) up to `today`, the last 520 weeks. */
export async function trainingSessionsPerWeek(em: EntityManager, userId: string, today: string): Promise<Map<string, number>> {
  const rows = await em.execute<{ monday: string; n: number }[]>(
    `select to_char(d.date - (extract(isodow from d.date)::int - 1), 'YYYY-MM-DD') as monday, count(*)::int as n
       from training_sessions s join days d on d.id = s.day_id
      where s.user_id = ? and d.date <= ?::date
      group by 1 order by 1 desc limit 520`,
    [userId, today],
  );
  return new Map(rows.map((r) => [r.monday, r.n]));
}
