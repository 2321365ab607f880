import type { Draft } from './draft.js';

type F = Record<string, any>;

const on = (f: F) => (f.date ? ` on ${f.date}` : '');
const at = (f: F) => (f.startTime ? ` at ${f.startTime}` : f.time ? ` at ${f.time}` : '');

/** One sentence saying what a draft records ("Water 500 ml on 2026-11-28"). */
const SUMMARIES: Readonly<Record<Draft['kind'], (f: F) => string>> = {
  task: (f) => `Task "${f.title}"${on(f)}${at(f)}, ${f.timebox} min${f.categoryName ? `, category ${f.categoryName}` : ''}`,
  recurring_task: (f) => `Recurring task "${f.title}" (${f.recurrence}) from ${f.from}${at(f)}, ${f.timebox} min${f.categoryName ? `, category ${f.categoryName}` : ''}`,
  habit: (f) => `Habit "${f.name}" ${f.quota ? `${f.quota.times}× per ${f.quota.per}` : `(${f.recurrence})`}`,
  habit_entry: (f) => `Habit "${f.habitName}" done${on(f)}${f.value !== undefined ? ` (${f.value}${f.unit ? ` ${f.unit}` : ''})` : ''}`,
  water: (f) => `Water ${f.volume} ml${on(f)}${at(f)}`,
  steps: (f) => `${f.steps} steps${on(f)}`,
  sleep: (f) => `Sleep ${f.duration} h${on(f)}${f.quality ? `, quality ${f.quality}` : ''}`,
  mood: (f) => `Mood ${f.mood}${f.energy !== undefined ? `, energy ${f.energy}` : ''}${on(f)}`,
  weight: (f) => `Weight ${f.weight} kg${f.bodyFat !== undefined ? `, body fat ${f.bodyFat}%` : ''}${on(f)}`,
  expense: (f) => `Expense ${String(f.amount).replace('-', '')}${f.currency ? ` ${f.currency}` : ''} "${f.description}"${f.category ? ` #${f.category}` : ''}${f.accountName ? ` from ${f.accountName}` : ''}${on(f)}`,
  income: (f) => `Income ${f.amount}${f.currency ? ` ${f.currency}` : ''} "${f.description}"${f.category ? ` #${f.category}` : ''}${f.accountName ? ` to ${f.accountName}` : ''}${on(f)}`,
  training: (f) => `Training "${f.split}": ${(f.exercises as F[]).map((e) => `${e.name} ${e.sets}×${e.reps}${e.load !== undefined ? ` ${e.load} kg` : ''}`).join(', ')}${on(f)}`,
  reading: (f) => `Read ${f.pagesRead} pages of "${f.bookTitle}" in ${f.duration} min${on(f)}`,
  social: (f) => `${f.title}${on(f)} ${f.startTime}-${f.endTime}${f.location ? ` at ${f.location}` : ''}`,
};

export function summarize(draft: Pick<Draft, 'kind' | 'fields'>): string {
  return SUMMARIES[draft.kind](draft.fields);
}
