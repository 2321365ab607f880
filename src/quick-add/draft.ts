import type { Token } from './spans.js';

/** What a line can make. */
export const QUICK_KINDS = [
  'task',
  'recurring_task',
  'habit',
  'habit_entry',
  'water',
  'steps',
  'sleep',
  'mood',
  'weight',
  'expense',
  'income',
  'training',
  'reading',
  'social',
] as const;
export type QuickKind = (typeof QUICK_KINDS)[number];

/** The connector area each kind belongs to (its scope: `<area>:write` to write, `:read` for a dry run). */
export const KIND_AREAS: Readonly<Record<QuickKind, 'planning' | 'health' | 'money' | 'journal' | 'people'>> = {
  task: 'planning',
  recurring_task: 'planning',
  habit: 'planning',
  habit_entry: 'planning',
  water: 'health',
  steps: 'health',
  sleep: 'health',
  mood: 'health',
  weight: 'health',
  expense: 'money',
  income: 'money',
  training: 'health',
  reading: 'journal',
  social: 'people',
};

/**
 * The record a line describes, before names are matched to the person's own records: `fields` hold
 * names (`categoryName`, `accountName`, `exercises[].name`, `bookTitle`, `people`, `habitName`) where
 * the record holds ids. `assumptions` say each value the line did not give and a default filled in.
 */
export interface Draft {
  kind: QuickKind;
  fields: Record<string, unknown>;
  assumptions: string[];
  /** Values out of their bounds (the record would be refused: 400 naming each field). */
  problems?: { field: string; message: string }[];
}

/** Another reading of the same line (a habit or a recurring task; last Friday or the coming one). */
export interface Alternative {
  kind: QuickKind;
  summary: string;
  fields: Record<string, unknown>;
}

/** A line understood: its tokens, the record it describes and the other readings. */
export interface ParsedLine {
  text: string;
  tokens: Token[];
  draft: Draft;
  alternatives: Alternative[];
}

/** A line not (fully) understood: what was, and the words that were not. */
export interface UnparsedLine {
  text: string;
  tokens: Token[];
  unknown: Token[];
  reason: string;
}
