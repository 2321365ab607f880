import { z } from 'zod';
import { dayIdArg } from './common-arguments.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { requiredText } from '../../../core/validation/tool-arguments.js';
import { JournalEntryService } from '../../../journal/journal-entry.service.js';
import type { JournalEntry } from '../../../journal/journal-entry.entity.js';
import type { JournalQuestion } from '../../../journal/journal-question.entity.js';
import { JournalQuestionService } from '../../../journal/journal-question.service.js';
import { ANSWER_MAX, ORDER_MESSAGES, QUESTION_MAX, QUESTION_ORDER_MAX } from '../../../journal/journal.types.js';
import { DayService } from '../../../planning/day.service.js';
import { idOrName } from './by-name.js';
import { isoDate, isoDateTime } from './outputs.js';
import { wholeNumber } from '../../../core/validation/tool-arguments.js';
import { ADDITIVE, defineTool, READ_ONLY, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';


/** Questions read per page, and how many pages at most (the global ten plus the user's own). */
const QUESTION_PAGES = 10;

/** Every question the user sees (global ones first, then their own, each by order), bounded. */
async function visibleQuestions(ctx: ToolContext): Promise<JournalQuestion[]> {
  const service = ctx.service(JournalQuestionService);
  const all: JournalQuestion[] = [];
  for (let page = 1; page <= QUESTION_PAGES; page++) {
    const { items, meta } = await service.list(ctx.userId, { page, limit: MAX_PAGE_SIZE });
    all.push(...items);
    if (all.length >= meta.total || !items.length) break;
  }
  return all;
}

/** A day's entries: at most 100 a day (the row cap), so one page holds them all. */
async function dayEntries(ctx: ToolContext, dayId: string): Promise<JournalEntry[]> {
  return (await ctx.service(JournalEntryService).list(ctx.userId, { dayId, limit: MAX_PAGE_SIZE })).items;
}

async function dayOrToday(ctx: ToolContext, dayId: string | undefined) {
  const days = ctx.service(DayService);
  return dayId ? days.get(ctx.userId, dayId) : days.today(ctx.userId);
}

const entryOut = { id: z.string(), dayId: z.string(), questionId: z.string().nullable(), question: z.string(), answer: z.string(), createdAt: isoDateTime };

function entryJson(entry: JournalEntry) {
  return { id: entry.id, dayId: entry.dayId, questionId: entry.questionId ?? null, question: entry.question, answer: entry.answer, createdAt: entry.createdAt.toISOString() };
}


export const journalTools: ConnectorTool[] = [
  defineTool({
    name: 'journal_today',
    title: "A day's journal",
    description:
      "The journal questions (the global ones, then the user's own) with the answers given on a day (today by default) and which are still unanswered; answers to since-deleted questions are listed apart.",
    inputSchema: { dayId: dayIdArg },
    outputSchema: {
      dayId: z.string(),
      date: isoDate,
      questions: z.array(
        z.object({
          questionId: z.string(),
          question: z.string(),
          isGlobal: z.boolean(),
          answered: z.boolean(),
          answers: z.array(z.object({ entryId: z.string(), answer: z.string(), createdAt: isoDateTime })),
        }),
      ),
      answeredCount: z.number(),
      unansweredCount: z.number(),
      otherAnswers: z.array(z.object({ entryId: z.string(), question: z.string(), answer: z.string(), createdAt: isoDateTime })).describe('Answers whose question was deleted.'),
    },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const day = await dayOrToday(ctx, args.dayId);
      const [questions, entries] = await Promise.all([visibleQuestions(ctx), dayEntries(ctx, day.id)]);
      const byQuestion = new Map<string, JournalEntry[]>();
      for (const entry of entries) if (entry.questionId) byQuestion.set(entry.questionId, [...(byQuestion.get(entry.questionId) ?? []), entry]);
      const listed = questions.map((q) => {
        const answers = (byQuestion.get(q.id) ?? []).map((e) => ({ entryId: e.id, answer: e.answer, createdAt: e.createdAt.toISOString() }));
        return { questionId: q.id, question: q.question, isGlobal: q.isGlobal, answered: answers.length > 0, answers };
      });
      const shown = new Set(questions.map((q) => q.id));
      const answeredCount = listed.filter((q) => q.answered).length;
      return {
        dayId: day.id,
        date: day.date,
        questions: listed,
        answeredCount,
        unansweredCount: listed.length - answeredCount,
        otherAnswers: entries
          .filter((e) => !e.questionId || !shown.has(e.questionId))
          .map((e) => ({ entryId: e.id, question: e.question, answer: e.answer, createdAt: e.createdAt.toISOString() })),
      };
    },
  }),
  defineTool({
    name: 'journal_answer',
    mirrors: 'Mutation.createJournalEntry',
    title: 'Answer a journal question',
    description:
      "Adds an answer to one journal question (by `questionId`, or by its text as `question`) on a day (today by default). Answering the same question again adds another answer, as in the app (use journal_change_answer to reword one). The day's first answer ticks its JOURNAL checklist item (records checklist_completed); each answer earns 5 XP.",
    inputSchema: {
      questionId: z.string().uuid().optional().describe('The question; or give its text as `question`.'),
      question: z.string().min(1).max(QUESTION_MAX).optional().describe("The question's text (or a unique part of it), when no questionId is given."),
      answer: requiredText('answer', ANSWER_MAX),
      dayId: dayIdArg,
    },
    outputSchema: { ...entryOut, unansweredCount: z.number().describe("The day's questions still without an answer.") },
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const day = await dayOrToday(ctx, args.dayId);
      let questions: JournalQuestion[] | undefined;
      const loadQuestions = async () => (questions ??= await visibleQuestions(ctx));
      const questionId = await idOrName('JournalQuestion', { id: args.questionId, name: args.question }, loadQuestions, (q) => q.question, (q) => q.id);
      const entry = await ctx.service(JournalEntryService).create(ctx.userId, { dayId: day.id, questionId, answer: args.answer });
      const [all, entries] = await Promise.all([loadQuestions(), dayEntries(ctx, day.id)]);
      const answered = new Set(entries.map((e) => e.questionId));
      return { ...entryJson(entry), unansweredCount: all.filter((q) => !answered.has(q.id)).length };
    },
  }),
  defineTool({
    name: 'journal_change_answer',
    mirrors: 'Mutation.updateJournalEntry',
    title: 'Change a journal answer',
    description: 'Replaces the text of one answer (its `entryId`, from journal_today). Records no event and no XP.',
    inputSchema: { entryId: z.string().uuid(), answer: requiredText('answer', ANSWER_MAX) },
    outputSchema: entryOut,
    area: 'journal',
    annotations: SETS_STATE,
    async run(args, ctx) {
      return entryJson(await ctx.service(JournalEntryService).update(ctx.userId, args.entryId, { answer: args.answer }));
    },
  }),
  defineTool({
    name: 'journal_add_question',
    mirrors: 'Mutation.createJournalQuestion',
    title: 'Add a journal question',
    description: `Adds a question of the user's own, asked every day after the global ones; \`order\` (0-${QUESTION_ORDER_MAX}) places it among their own, after the last one by default. Records no event.`,
    inputSchema: {
      question: requiredText('question', QUESTION_MAX),
      order: wholeNumber('order', 0, QUESTION_ORDER_MAX, ORDER_MESSAGES).optional(),
    },
    outputSchema: { id: z.string(), question: z.string(), order: z.number(), isGlobal: z.boolean() },
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const question = await ctx.service(JournalQuestionService).create(ctx.userId, args);
      return { id: question.id, question: question.question, order: question.order, isGlobal: question.isGlobal };
    },
  }),
];
