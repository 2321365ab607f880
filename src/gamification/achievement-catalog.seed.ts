import type { EntityManager } from '@mikro-orm/postgresql';
import { stableId } from '../core/database/stable-id.js';
import { Achievement } from './achievement.entity.js';

/** What an achievement's condition can look at (null: not measured in this reaction). */
export interface Progress {
  /** Ledger rows per action (task, checklist_item, day, training, …): what currently counts. */
  counts: Record<string, number>;
  xp: number;
  level: number;
  checklistStreak: number;
  trainingStreak: number;
  cardioKm: number | null;
  booksFinished: number | null;
  purchases: number | null;
}

interface AchievementDef {
  key: string;
  name: string;
  description: string;
  unlocked(p: Progress): boolean;
}

const count = (action: string, n: number) => (p: Progress) => (p.counts[action] ?? 0) >= n;

/**
 * The seeded catalog. Keys are the identity (ids derive from them): never rename one, add a new one.
 * Each unlocks once per user and stays unlocked.
 */
export const ACHIEVEMENTS: readonly AchievementDef[] = [
  { key: 'first_task', name: 'First Task', description: 'Complete your first task.', unlocked: count('task', 1) },
  { key: 'tasks_10', name: 'Getting Things Done', description: 'Complete 10 tasks.', unlocked: count('task', 10) },
  { key: 'tasks_50', name: 'Task Master', description: 'Complete 50 tasks.', unlocked: count('task', 50) },
  { key: 'first_checklist_item', name: 'Tick', description: 'Tick your first checklist item.', unlocked: count('checklist_item', 1) },
  { key: 'checklist_items_100', name: 'Hundred Ticks', description: 'Have 100 checklist items ticked.', unlocked: count('checklist_item', 100) },
  { key: 'first_day_completed', name: 'Full Day', description: 'Complete every required checklist item of a day.', unlocked: count('day', 1) },
  { key: 'days_completed_10', name: 'Ten Good Days', description: 'Complete 10 days.', unlocked: count('day', 10) },
  { key: 'checklist_streak_3', name: 'On a Roll', description: 'Complete 3 days in a row.', unlocked: (p) => p.checklistStreak >= 3 },
  { key: 'checklist_streak_7', name: 'Perfect Week', description: 'Complete 7 days in a row.', unlocked: (p) => p.checklistStreak >= 7 },
  { key: 'checklist_streak_30', name: 'Unbreakable', description: 'Complete 30 days in a row.', unlocked: (p) => p.checklistStreak >= 30 },
  { key: 'first_training', name: 'First Rep', description: 'Log your first training session.', unlocked: count('training', 1) },
  { key: 'training_sessions_25', name: 'Gym Regular', description: 'Log 25 training sessions.', unlocked: count('training', 25) },
  { key: 'training_streak_4', name: 'Consistent Lifter', description: 'Train at least 3 times a week for 4 weeks in a row.', unlocked: (p) => p.trainingStreak >= 4 },
  { key: 'first_cardio', name: 'First Steps', description: 'Log your first cardio session.', unlocked: count('cardio', 1) },
  { key: 'cardio_100km', name: 'Century', description: 'Cover 100 km of cardio.', unlocked: (p) => (p.cardioKm ?? 0) >= 100 },
  { key: 'first_mobility', name: 'Limber', description: 'Log your first mobility session.', unlocked: count('mobility', 1) },
  { key: 'first_reading', name: 'Bookworm', description: 'Log your first reading session.', unlocked: count('reading', 1) },
  { key: 'first_book_finished', name: 'The End', description: 'Finish your first book.', unlocked: (p) => (p.booksFinished ?? 0) >= 1 },
  { key: 'first_meditation', name: 'Stillness', description: 'Log your first meditation.', unlocked: count('meditation', 1) },
  { key: 'meditation_10', name: 'Calm Mind', description: 'Log 10 meditations.', unlocked: count('meditation', 10) },
  { key: 'first_journal_entry', name: 'Dear Diary', description: 'Write your first journal entry.', unlocked: count('journal', 1) },
  { key: 'journal_entries_30', name: 'Chronicler', description: 'Write 30 journal entries.', unlocked: count('journal', 30) },
  { key: 'level_5', name: 'Adventurer', description: 'Reach level 5.', unlocked: (p) => p.level >= 5 },
  { key: 'level_10', name: 'Hero', description: 'Reach level 10.', unlocked: (p) => p.level >= 10 },
  { key: 'xp_1000', name: 'Thousand', description: 'Earn 1000 XP.', unlocked: (p) => p.xp >= 1000 },
  { key: 'first_purchase', name: 'Shopper', description: 'Buy your first item in the shop.', unlocked: (p) => (p.purchases ?? 0) >= 1 },
];

export function achievementId(key: string): string {
  return stableId(`achievement:${key}`);
}

/** Inserts the missing catalog entries; existing rows are left as they are (any unique key: two instances
 * starting together insert the same rows, and a conflict on `key` must not stop the second). */
export async function seedAchievements(em: EntityManager): Promise<void> {
  const now = new Date();
  const rows = ACHIEVEMENTS.map((a, i) => ({ id: achievementId(a.key), createdAt: now, updatedAt: now, key: a.key, name: a.name, description: a.description, order: i + 1 }));
  await em.createQueryBuilder(Achievement).insert(rows).onConflict().ignore().execute();
}
