/**
 * The numbers of operations.md ("Gamification"): XP per action, coins, levels. Pure functions, so the
 * table of docs/gamification.md and the tests read the same rules the reactor applies.
 */

/** Ledger actions and what each earns (a task's XP depends on its timebox: taskXp). */
export const XP = {
  checklist_item: 5,
  day: 25,
  training: 20,
  cardio: 15,
  mobility: 15,
  reading: 10,
  meditation: 10,
  journal: 5,
  /** A habit's day reaching its target earns what a checklist item earns (issue 37: "by the same rules"). */
  habit: 5,
} as const;

export type XpAction = keyof typeof XP | 'task';

/** 10 × clamp(round(timebox / 30), 1, 4); halves round up (45 min → 20). */
export function taskXp(timeboxMinutes: number): number {
  const units = Math.min(4, Math.max(1, Math.floor(timeboxMinutes / 30 + 0.5)));
  return 10 * units;
}

/** Total XP needed to reach `level`: 100 × L × (L+1) / 2 for level L+1 (level 1 at 0, 2 at 100, 3 at 300, 4 at 600). */
export function xpForLevel(level: number): number {
  const l = level - 1;
  return (100 * l * (l + 1)) / 2;
}

export function levelFor(xp: number): number {
  let level = 1;
  while (xpForLevel(level + 1) <= xp) level++;
  return level;
}

/** Coins = floor(XP earned ÷ 10) less what was spent; shown as 0 when taken-back XP leaves it below. */
export function coinsFor(xp: number, spent: number): number {
  return Math.max(0, Math.floor(xp / 10) - spent);
}
