import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, mondayOf, todayIn } from '../core/dates.js';
import type { Fact, FactName, FactPayloads, FactReactor } from '../core/events/fact-dispatcher.js';
import { recordEvent } from '../core/events/record-event.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import { ACHIEVEMENTS, achievementId, type Progress } from './achievement-catalog.seed.js';
import { levelFor, taskXp, XP, type XpAction } from './gamification-rules.js';

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
  mobility_logged: (d) => ({ grant: true, action: 'mobility', sourceId: d.sessionId }),
  reading_logged: (d) => ({ grant: true, action: 'reading', sourceId: d.sessionId }),
  reading_deleted: (d) => ({ grant: false, action: 'reading', sourceId: d.sessionId }),
  meditation_logged: (d) => ({ grant: true, action: 'meditation', sourceId: d.sessionId }),
  journal_entry_created: (d) => ({ grant: true, action: 'journal', sourceId: d.entryId }),
  journal_entry_deleted: (d) => ({ grant: false, action: 'journal', sourceId: d.entryId }),
};

function ledgerOp(fact: Fact): LedgerOp | null {
  const op = LEDGER[fact.name] as ((data: Fact['data']) => LedgerOp) | undefined;
  return op ? op(fact.data) : null;
}

const CHECKLIST_STREAK_FACTS = new Set(['day_completed', 'day_reopened']);
const TRAINING_STREAK_FACTS = new Set(['training_logged', 'training_deleted']);
const BOOK_FACTS = new Set<FactName>(['reading_logged', 'reading_deleted', 'book_progressed']);

interface ProfileRow {
  id: string;
  xp: number;
  highest_level: number;
  checklist_streak: number;
  training_streak: number;
}

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

/** Creates the user's profile row when missing and locks it: one user's reactions and purchases run one at a time. */
export async function lockProfile(em: EntityManager, userId: string): Promise<ProfileRow> {
  const now = new Date();
  await em.execute(
    'insert into gamification_profiles (id, created_at, updated_at, user_id) values (?, ?, ?, ?) on conflict (user_id) do nothing',
    [randomUUID(), now, now, userId],
  );
  const rows = await em.execute<ProfileRow[]>(
    'select id, xp, highest_level, checklist_streak, training_streak from gamification_profiles where user_id = ? for update',
    [userId],
  );
  return rows[0]!;
}

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
      const inserted = await em.execute<{ xp: number }[]>(
        `insert into gamification_xp_grants (id, created_at, updated_at, user_id, action, source_id, xp, granted_at)
         values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (user_id, action, source_id) do nothing returning xp`,
        [randomUUID(), now, now, userId, op.action, op.sourceId, amount, fact.occurredAt],
      );
      if (inserted[0]) xp += inserted[0].xp;
    } else {
      const removed = await em.execute<{ xp: number }[]>(
        'delete from gamification_xp_grants where user_id = ? and action = ? and source_id = ? returning xp',
        [userId, op.action, op.sourceId],
      );
      if (removed[0]) xp -= removed[0].xp;
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
    const today = todayIn(await timeZoneOf(em, userId), now);
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

  await em.execute(
    'update gamification_profiles set xp = ?, highest_level = ?, checklist_streak = ?, training_streak = ?, updated_at = ? where id = ?',
    [xp, highestLevel, checklistStreak, trainingStreak, now, profile.id],
  );

  // One statement for the ledger's counts per action and the achievements already unlocked.
  const [progressRow] = await em.execute<{ counts: Record<string, number> | null; unlocked: string[] | null }[]>(
    `select (select json_object_agg(action, n) from (select action, count(*)::int as n from gamification_xp_grants where user_id = ? group by action) c) as counts,
            (select array_agg(achievement_id) from gamification_user_achievements where user_id = ?) as unlocked`,
    [userId, userId],
  );
  const counts = progressRow?.counts ?? {};
  const unlocked = new Set(progressRow?.unlocked ?? []);
  const cardioKm = names.has('cardio_logged')
    ? (await em.execute<{ km: number }[]>('select coalesce(sum(distance), 0)::float8 as km from cardio_sessions where user_id = ?', [userId]))[0]!.km
    : null;
  const booksFinished = [...names].some((n) => BOOK_FACTS.has(n))
    ? (await em.execute<{ n: number }[]>('select count(*)::int as n from books where user_id = ? and total_pages > 0 and current_page >= total_pages', [userId]))[0]!.n
    : null;
  await unlockAchievements(em, userId, { counts, xp, level, checklistStreak, trainingStreak, cardioKm, booksFinished, purchases: null }, now, unlocked);
}

async function taskAmount(em: EntityManager, taskId: string): Promise<number | null> {
  const rows = await em.execute<{ timebox: number }[]>('select timebox from tasks where id = ?', [taskId]);
  return rows[0] ? taskXp(rows[0].timebox) : null;
}

/**
 * Unlocks (once) every achievement whose condition holds, each with its `achievement_unlocked` event.
 * `alreadyUnlocked`: the ids the caller read already (else they are read here).
 */
export async function unlockAchievements(em: EntityManager, userId: string, progress: Progress, now: Date, alreadyUnlocked?: ReadonlySet<string>): Promise<void> {
  const due = ACHIEVEMENTS.filter((a) => a.unlocked(progress));
  if (due.length === 0) return;
  const have =
    alreadyUnlocked ??
    new Set(
      (await em.execute<{ achievement_id: string }[]>('select achievement_id from gamification_user_achievements where user_id = ?', [userId])).map((r) => r.achievement_id),
    );
  for (const achievement of due) {
    const id = achievementId(achievement.key);
    if (have.has(id)) continue;
    const inserted = await em.execute<{ id: string }[]>(
      `insert into gamification_user_achievements (id, created_at, updated_at, user_id, achievement_id, unlocked_at)
       values (?, ?, ?, ?, ?, ?) on conflict (user_id, achievement_id) do nothing returning id`,
      [randomUUID(), now, now, userId, id, now],
    );
    if (inserted[0]) {
      recordEvent(em, userId, 'achievement_unlocked', { achievementId: id, achievementKey: achievement.key, unlockedAt: now.toISOString() }, now);
    }
  }
}

export async function timeZoneOf(em: EntityManager, userId: string): Promise<string> {
  const rows = await em.execute<{ timezone: string }[]>('select timezone from user_settings where user_id = ?', [userId]);
  return rows[0]?.timezone ?? DEFAULT_TIMEZONE;
}

/**
 * Consecutive completed days ending today or yesterday (today may still be completed) in the user's
 * time zone; a day later than today does not count.
 */
export async function checklistStreakOf(em: EntityManager, userId: string, today: string): Promise<number> {
  const rows = await em.execute<{ d: string }[]>(
    "select to_char(date, 'YYYY-MM-DD') as d from days where user_id = ? and completed_at is not null and date <= ?::date order by date desc limit 1000",
    [userId, today],
  );
  const completed = new Set(rows.map((r) => r.d));
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
  const rows = await em.execute<{ monday: string; n: number }[]>(
    `select to_char(d.date - (extract(isodow from d.date)::int - 1), 'YYYY-MM-DD') as monday, count(*)::int as n
       from training_sessions s join days d on d.id = s.day_id
      where s.user_id = ? and d.date <= ?::date
      group by 1 order by 1 desc limit 520`,
    [userId, today],
  );
  const weeks = new Map(rows.map((r) => [r.monday, r.n]));
  let monday = mondayOf(today);
  if ((weeks.get(monday) ?? 0) < 3) monday = addDays(monday, -7);
  let streak = 0;
  while ((weeks.get(monday) ?? 0) >= 3) {
    streak++;
    monday = addDays(monday, -7);
  }
  return streak;
}
