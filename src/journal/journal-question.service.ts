import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { JournalQuestion } from './journal-question.entity.js';

export interface NewJournalQuestion {
  question: string;
  /** Defaults to one after the user's last question. */
  order?: number | null;
}

export interface JournalQuestionChanges {
  question?: string;
  order?: number;
}

/**
 * The journal questions a user sees: the global ones, then their own, each group by `order`. Only
 * their own can be changed or deleted; a global question, like another user's, answers NOT_FOUND there.
 */
export class JournalQuestionService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: PageArgs): Promise<Page<JournalQuestion>> {
    const where: FilterQuery<JournalQuestion> = { $or: [{ isGlobal: true }, { userId }] };
    return findPage(this.em, JournalQuestion, where, { isGlobal: 'desc', order: 'asc', createdAt: 'asc', id: 'asc' }, args);
  }

  /** A global question or one of the user's; anything else → NotFoundError (naming `field` when given). */
  async visible(userId: string, questionId: string, field?: string): Promise<JournalQuestion> {
    const question = await this.em.findOne(JournalQuestion, { id: questionId, $or: [{ isGlobal: true }, { userId }] });
    if (!question) throw new NotFoundError('JournalQuestion', field ? { field } : undefined);
    return question;
  }

  async create(userId: string, input: NewJournalQuestion): Promise<JournalQuestion> {
    let order = input.order;
    if (order === undefined || order === null) {
      const [last] = await this.em.find(JournalQuestion, { userId, isGlobal: false }, { orderBy: { order: 'desc' }, limit: 1, fields: ['order'] });
      order = last ? last.order + 1 : 0;
    }
    const question = this.em.create(JournalQuestion, { userId, question: input.question.trim(), order, isGlobal: false });
    await this.em.flush();
    return question;
  }

  async update(userId: string, questionId: string, changes: JournalQuestionChanges): Promise<JournalQuestion> {
    const question = await this.own(userId, questionId);
    if (changes.question !== undefined) question.question = changes.question.trim();
    if (changes.order !== undefined) question.order = changes.order;
    await this.em.flush();
    return question;
  }

  /** Entries that answered it stay, with the question's text as answered and no questionId. */
  async delete(userId: string, questionId: string): Promise<Deleted> {
    const question = await this.own(userId, questionId);
    await this.em.remove(question).flush();
    return deleted(questionId, 'Journal question');
  }

  private async own(userId: string, questionId: string): Promise<JournalQuestion> {
    const question = await this.em.findOne(JournalQuestion, { id: questionId, userId, isGlobal: false });
    if (!question) throw new NotFoundError('JournalQuestion');
    return question;
  }
}
