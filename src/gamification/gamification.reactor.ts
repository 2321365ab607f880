import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, mondayOf, todayIn } from '../core/dates.js';
import type { Fact, FactName, FactPayloads, FactReactor } from '../core/events/fact-dispatcher.js';
import { recordEvent } from '../core/events/record-event.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { ACHIEVEMENTS, achievementId, type Progress } from './achievement-catalog.seed.js';
import { levelFor, taskXp, XP, type XpAction } from './gamification-rules.js';
import {
  booksFinishedOf,
  cardioKmOf,
  completedDatesUpTo,
  grantXp,
  insertUnlock,
  ledgerProgress,
  lockProfile,
  saveProfile,
  takeBackXp,
  taskTimebox,
  trainingSessionsPerWeek,
  unlockedAchievementIds,
} from './gamification.queries.js';

type LedgerOp = { grant: boolean; action: XpAction; sourceId: string };

/** Which ledger entry a fact adds (grant) or takes back (undo). Facts not listed earn nothing. */
const LEDGER: { [N in FactName]?: (data: FactPayloads[N]) => LedgerOp } = {
  task_completed: (d) => ({ grant: true, action: 'task', sourceId: d.taskId }),
  task_reopened: (d) => ({ grant: false, action: 'task', sourceId: d.taskId }),
  checklist_completed: (d) => ({ grant: true, action: 'checklist_item', sourceId: `${d.dayId}:${d.itemKey}` }),
  checklist_item_unticked: (d) => ({ grant: false, action: 'checklist_item', sourceId: `${d.dayId}:${d.itemKey}` }),
  day_completed: (d) => ({ grant: true, action: 'day', sourceId: d.dayId }),
  day_reopened: (d) => ({ grant: false, action: 'day', sourceId: d.dayId }),
  training_logged: (d) => ({ grant: true, action: 'training', sourceId: d.sessionId }),
  training_deleted: (d) => ({ grant: false, action: 'training', sourceId: d.sessionId }),
  cardio_logged: (d) => ({ grant: true, action: 'cardio', sourceId: d.sessionId }),
  cardio_deleted: (d) => ({ grant: false, action: 'cardio', sourceId: d.sessionId }),
  mobility_logged: (d) => ({ grant: true, action: 'mobility', sourceId: d.sessionId }),
  mobility_deleted: (d) => ({ grant: false, action: 'mobility', sourceId: d.sessionId }),
  reading_logged: (d) => ({ grant: true, action: 'reading', sourceId: d.sessionId }),
  reading_deleted: (d) => ({ grant: false, action: 'reading', sourceId: d.sessionId }),
  meditation_logged: (d) => ({ grant: true, action: 'meditation', sourceId: d.sessionId }),
  meditation_deleted: (d) => ({ grant: false, action: 'meditation', sourceId: d.sessionId }),
  journal_entry_created: (d) => ({ grant: true, action: 'journal', sourceId: d.entryId }),
  journal_entry_deleted: (d) => ({ grant: false, action: 'journal', sourceId: d.entryId }),
  habit_day_done: (d) => ({ grant: true, action: 'habit', sourceId: `${d.habitId}:${d.dayId}` }),
  habit_day_undone: (d) => ({ grant: false, action: 'habit', sourceId: `${d.habitId}:${d.dayId}` }),
};

function ledgerOp(fact: Fact): LedgerOp | null {
  const op = LEDGER[fact.name] as ((data: Fact['data']) => LedgerOp) | undefined;
  return op ? op(fact.data) : null;
}

const CHECKLIST_STREAK_FACTS = new Set(['day_completed', 'day_reopened']);
const TRAINING_STREAK_FACTS = new Set(['training_logged', 'training_deleted']);
const BOOK_FACTS = new Set<FactName>(['reading_logged', 'reading_deleted', 'book_progressed']);

/**
 * Gamification reacting to the domain's facts, in the transaction that recorded them (registered by
 * the app wiring on the core FactDispatcher): the XP ledger, level-ups, streaks and achievements, and
 * the `level_up`, `streak_updated` and `achievement_unlocked` events, all committed with the change.
 */
export const gamificationReactor: FactReactor = {
  reactsTo: (name) => name in LEDGER || BOOK_FACTS.has(name),
  async react(em, facts) {
    const byUser = new Map<string, Fact[]>();
    for (const fact of facts) {
      const list = byUser.get(fact.userId);
      if (list) list.push(fact);
      else byUser.set(fact.userId, [fact]);
    }
    for (const [userId, userFacts] of byUser) await reactFor(em, userId, userFacts);
  },
};

async function reactFor(em: EntityManager, userId: string, facts: Fact[]): Promise<void> {
  const profile = await lockProfile(em, userId);
  const now = new Date();
  let xp = profile.xp;
  for (const fact of facts) {
    const op = ledgerOp(fact);
    if (!op) continue;
    if (op.grant) {
      const amount = op.action === 'task' ? await taskAmount(em, op.sourceId) : XP[op.action];
      if (amount === null) continue;
      xp += (await grantXp(em, userId, op.action, op.sourceId, amount, fact.occurredAt, now)) ?? 0;
    } else {
      xp -= (await takeBackXp(em, userId, op.action, op.sourceId)) ?? 0;
    }
  }

  const level = levelFor(xp);
  let highestLevel = profile.highest_level;
  if (level > highestLevel) {
    highestLevel = level;
    recordEvent(em, userId, 'level_up', { newLevel: level, leveledUpAt: now.toISOString() }, now);
  }

  const names = new Set(facts.map((f) => f.name));
  let { checklist_streak: checklistStreak, training_streak: trainingStreak } = profile;
  const needsChecklist = [...names].some((n) => CHECKLIST_STREAK_FACTS.has(n));
  const needsTraining = [...names].some((n) => TRAINING_STREAK_FACTS.has(n));
  if (needsChecklist || needsTraining) {
    const today = todayIn(profile.timezone, now);
    if (needsChecklist) {
      const current = await checklistStreakOf(em, userId, today);
      if (current !== checklistStreak) {
        checklistStreak = current;
        recordEvent(em, userId, 'streak_updated', { streakType: 'checklist', currentStreak: current, updatedAt: now.toISOString() }, now);
      }
    }
    if (needsTraining) {
      const current = await trainingStreakOf(em, userId, today);
      if (current !== trainingStreak) {
        trainingStreak = current;
        recordEvent(em, userId, 'streak_updated', { streakType: 'training', currentStreak: current, updatedAt: now.toISOString() }, now);
      }
    }
  }

  await saveProfile(em, profile.id, { xp, highestLevel, checklistStreak, trainingStreak }, now);
  recordLiveChange(em, userId, { entity: 'GamificationProfile', id: profile.id, kind: 'updated' });

  const { counts, unlocked } = await ledgerProgress(em, userId);
  const cardioKm = names.has('cardio_logged') ? await cardioKmOf(em, userId) : null;
  const booksFinished = [...names].some((n) => BOOK_FACTS.has(n)) ? await booksFinishedOf(em, userId) : null;
  await unlockAchievements(em, userId, { counts, xp, level, checklistStreak, trainingStreak, cardioKm, booksFinished, purchases: null }, now, unlocked);
}

async function taskAmount(em: EntityManager, taskId: string): Promise<number | null> {
  const timebox = await taskTimebox(em, taskId);
  return timebox === null ? null : taskXp(timebox);
}

/**
 * Unlocks (once) every achievement whose condition holds, each with its `achievement_unlocked` event.
 * `alreadyUnlocked`: the ids the caller read already (else they are read here).
 */
export async function unlockAchievements(em: EntityManager, userId: string, progress: Progress, now: Date, alreadyUnlocked?: ReadonlySet<string>): Promise<void> {
  const due = ACHIEVEMENTS.filter((a) => a.unlocked(progress));
  if (due.length === 0) return;
  const have = alreadyUnlocked ?? new Set(await unlockedAchievementIds(em, userId));
  for (const achievement of due) {
    const id = achievementId(achievement.key);
    if (have.has(id)) continue;
    if (await insertUnlock(em, userId, id, now)) {
      recordLiveChange(em, userId, { entity: 'UserAchievement', id, kind: 'created' });
      recordEvent(em, userId, 'achievement_unlocked', { achievementId: id, achievementKey: achievement.key, unlockedAt: now.toISOString() }, now);
    }
  }
}

/**
 * Consecutive completed days ending today or yesterday (today may still be completed) in the user's
 * time zone; a day later than today does not count.
 */
export async function checklistStreakOf(em: EntityManager, userId: string, today: string): Promise<number> {
  const completed = new Set(await completedDatesUpTo(em, userId, today));
  let day = completed.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (completed.has(day)) {
    streak++;
    day = addDays(day, -1);
  }
  return streak;
}

/**
 * Consecutive weeks (Monday to Sunday) with at least 3 training sessions, ending with this week when
 * it already has 3, else with last week (this week can still make it).
 */
export async function trainingStreakOf(em: EntityManager, userId: string, today: string): Promise<number> {
  const weeks = await trainingSessionsPerWeek(em, userId, today);
  let monday = mondayOf(today);
  if ((weeks.get(monday) ?? 0) < 3) monday = addDays(monday, -7);
  let streak = 0;
  while ((weeks.get(monday) ?? 0) >= 3) {
    streak++;
    monday = addDays(monday, -7);
  }
  return streak;
}
