import { MAX_PAGE_SIZE } from '../../core/pagination.js';
import type { JournalQuestion } from '../../journal/journal-question.entity.js';
import { JournalEntryService } from '../../journal/journal-entry.service.js';
import { JournalQuestionService } from '../../journal/journal-question.service.js';
import { requiredChecklist, type ChecklistKey } from '../../planning/checklist-key.js';
import { ChecklistService } from '../../planning/checklist.service.js';
import { InsightService } from '../../insights/insight.service.js';
import { weekLine } from '../../insights/weekly-summary.js';
import type { KindContext, ReminderKind, ReminderSpec } from '../reminder-kind.js';
import { clip, isClockTime, listed, localInstant, nextDaily, shortDate } from './local-time.js';
import { plannedDay } from './morning-brief.js';

/** When an evening review rings without a `localTime`. */
export const DEFAULT_EVENING_REVIEW_TIME = '21:00';
/** Pages of journal questions read at most (the global ones plus the user's own). */
const QUESTION_PAGES = 10;
const QUESTIONS_SHOWN = 2;
const LINE_MAX = 200;

/** MAKE_BED → Make bed. */
const label = (key: ChecklistKey) => key.charAt(0) + key.slice(1).toLowerCase().replace(/_/g, ' ');

interface Leftovers {
  dayId: string;
  checklist: ChecklistKey[];
  questions: string[];
}

/** Every question the user sees (global ones first, then their own), bounded. */
async function visibleQuestions(ctx: KindContext, userId: string): Promise<JournalQuestion[]> {
  const service = ctx.service(JournalQuestionService);
  const all: JournalQuestion[] = [];
  for (let page = 1; page <= QUESTION_PAGES; page++) {
    const { items, meta } = await service.list(userId, { page, limit: MAX_PAGE_SIZE });
    all.push(...items);
    if (all.length >= meta.total || !items.length) break;
  }
  return all;
}

/** What is left of the day on `date`: required checklist items not done and questions not answered; null when the day was never planned. */
async function leftoversOf(ctx: KindContext, userId: string, date: string): Promise<Leftovers | null> {
  const day = await plannedDay(ctx, userId, date);
  if (!day) return null;
  const [items, questions, entries] = await Promise.all([
    ctx.service(ChecklistService).list(userId, day.id),
    visibleQuestions(ctx, userId),
    // At most 100 entries a day (the row cap): one page holds them all.
    ctx.service(JournalEntryService).list(userId, { dayId: day.id, limit: MAX_PAGE_SIZE }),
  ]);
  const done = new Set(items.filter((i) => i.completed).map((i) => i.key));
  const answered = new Set(entries.items.map((e) => e.questionId));
  return {
    dayId: day.id,
    checklist: requiredChecklist(day.minimumMode).filter((key) => !done.has(key)),
    questions: questions.filter((q) => !answered.has(q.id)).map((q) => q.question),
  };
}

const timeOf = (spec: ReminderSpec) => (isClockTime(spec.localTime) ? spec.localTime : DEFAULT_EVENING_REVIEW_TIME);

/**
 * `evening_review`: each day at `localTime` (default 21:00, the user's time zone) minus
 * `offsetMinutes`, keyed by the day. The message: the day's required checklist items not done (by its
 * mode), the journal questions without an answer that day, and the week so far in one line (what rose
 * and fell against the week before, the longest streak: insights' weekly summary). Not sent (stillDue false) when nothing is
 * left — every required item done and every question answered — or when the day was never planned (its
 * week not generated): a review of nothing is noise.
 */
export const eveningReviewKind: ReminderKind = {
  name: 'evening_review',
  target: null,
  localTime: 'optional',

  async checkTarget() {},

  async nextOccurrence(ctx, spec, after) {
    return nextDaily(after, spec.offsetMinutes, ctx.timezone, async (date) => localInstant(date, timeOf(spec), ctx.timezone));
  },

  async stillDue(ctx, spec, occurrence) {
    const left = await leftoversOf(ctx, spec.userId, occurrence.key);
    return !!left && (left.checklist.length > 0 || left.questions.length > 0);
  },

  async message(ctx, spec, occurrence) {
    const left = await leftoversOf(ctx, spec.userId, occurrence.key);
    const lines: string[] = [];
    if (left?.checklist.length) lines.push(`Checklist left: ${listed(left.checklist.map(label), 10)}`);
    if (left?.questions.length) {
      const count = left.questions.length;
      lines.push(`Journal: ${count} question${count === 1 ? '' : 's'} to answer`);
      for (const question of left.questions.slice(0, QUESTIONS_SHOWN)) lines.push(`- ${clip(question, 100)}`);
    }
    if (!lines.length) lines.push('Everything is done. Well done.');
    // The week so far against the week before (insights' weekly summary), when anything moved.
    const week = weekLine(await ctx.service(InsightService).weeklySummary(spec.userId, occurrence.key, occurrence.dueAt));
    if (week) lines.push(week);
    return {
      title: `Evening review: ${shortDate(occurrence.key)}`,
      body: lines.map((line) => clip(line, LINE_MAX)).join('\n'),
      url: left ? `/api/v1/days/${left.dayId}` : '/api/v1/days/today',
    };
  },
};
