import { recordFact } from '../core/events/fact-dispatcher.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { completeChecklistItem } from '../planning/checklist.service.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { lockDay, requireDay } from '../planning/day-scope.js';
import { JournalEntry } from './journal-entry.entity.js';
import { JournalQuestionService } from './journal-question.service.js';

export interface NewJournalEntry {
  dayId: string;
  questionId: string;
  answer: string;
}

export interface JournalEntryFilter extends PageArgs {
  dayId?: string | null;
  questionId?: string | null;
}

/** Journal entries of one user: answers to a global question or one of their own, on their days. */
export class JournalEntryService {
  private readonly questions: JournalQuestionService;

  constructor(private readonly em: EntityManager) {
    this.questions = new JournalQuestionService(em);
  }

  /** The day's first entry completes its JOURNAL checklist item (checklist_completed, day completion). */
  async create(userId: string, input: NewJournalEntry): Promise<JournalEntry> {
    return this.em.transactional(async (em) => {
      // The day's row lock serialises entries of one day, so exactly one of them is the first.
      const day = await lockDay(em, userId, input.dayId);
      const question = await new JournalQuestionService(em).visible(userId, input.questionId, 'questionId');
      const first = (await em.count(JournalEntry, { dayId: day.id })) === 0;
      const entry = em.create(JournalEntry, { userId, dayId: day.id, questionId: question.id, question: question.question, answer: input.answer.trim() });
      recordFact(em, userId, 'journal_entry_created', { entryId: entry.id });
      await em.flush();
      if (first) await completeChecklistItem(em, day, ChecklistKey.JOURNAL);
      return entry;
    });
  }

  /** Oldest first; a dayId or questionId that is not the caller's answers NOT_FOUND. */
  async list(userId: string, filter: JournalEntryFilter): Promise<Page<JournalEntry>> {
    const where: FilterQuery<JournalEntry> & Record<string, unknown> = { userId };
    if (filter.dayId) {
      await requireDay(this.em, userId, filter.dayId);
      where.dayId = filter.dayId;
    }
    if (filter.questionId) {
      await this.questions.visible(userId, filter.questionId, 'questionId');
      where.questionId = filter.questionId;
    }
    return findPage(this.em, JournalEntry, where, { createdAt: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, entryId: string): Promise<JournalEntry> {
    const entry = await this.em.findOne(JournalEntry, { id: entryId, userId });
    if (!entry) throw new NotFoundError('JournalEntry');
    return entry;
  }

  async update(userId: string, entryId: string, changes: { answer?: string }): Promise<JournalEntry> {
    const entry = await this.get(userId, entryId);
    if (changes.answer !== undefined) entry.answer = changes.answer.trim();
    await this.em.flush();
    return entry;
  }

  /** The day's JOURNAL item stays as it is (the checklist is the user's to untick). */
  async delete(userId: string, entryId: string): Promise<Deleted> {
    const entry = await this.get(userId, entryId);
    recordFact(this.em, userId, 'journal_entry_deleted', { entryId });
    await this.em.remove(entry).flush();
    return deleted(entryId, 'Journal entry');
  }
}
