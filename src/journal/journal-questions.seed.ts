import type { EntityManager } from '@mikro-orm/postgresql';
import { stableId } from '../core/database/stable-id.js';
import { JournalQuestion } from './journal-question.entity.js';

/**
 * The global questions every user's journal starts with (an evening review). Each has a stable key, so
 * its id survives a rewording of the text.
 */
export const GLOBAL_JOURNAL_QUESTIONS: ReadonlyArray<{ key: string; question: string }> = [
  { key: 'grateful', question: 'What are three things you are grateful for today?' },
  { key: 'went-well', question: 'What went well today?' },
  { key: 'proud', question: 'What is one thing you are proud of today?' },
  { key: 'learned', question: 'What did you learn today?' },
  { key: 'do-differently', question: 'What did not go as planned, and what would you do differently?' },
  { key: 'energy', question: 'What gave you energy today, and what drained it?' },
  { key: 'connection', question: 'Who did you connect with today, and how?' },
  { key: 'self-care', question: 'How did you take care of your body and mind today?' },
  { key: 'tomorrow', question: 'What is the most important thing to do tomorrow?' },
  { key: 'on-your-mind', question: 'What is on your mind right now?' },
];

export function globalJournalQuestionId(key: string): string {
  return stableId(`global-journal-question:${key}`);
}

/** Inserts the missing global questions; existing rows (by id) are left as they are. */
export async function seedGlobalJournalQuestions(em: EntityManager): Promise<void> {
  const now = new Date();
  const rows = GLOBAL_JOURNAL_QUESTIONS.map((q, i) => ({
    id: globalJournalQuestionId(q.key),
    createdAt: now,
    updatedAt: now,
    userId: null,
    question: q.question,
    order: i + 1,
    isGlobal: true,
  }));
  await em.createQueryBuilder(JournalQuestion).insert(rows).onConflict('id').ignore().execute();
}
