import type { EntityManager } from '@mikro-orm/postgresql';

/** The Brain stats' hand-written SQL. */

/**
 * A word: a run of non-space characters holding at least one character that is not ASCII punctuation,
 * so Markdown marks standing alone (`#`, `-`, `>`, `**`, `---`) are not counted and `don't` is one word.
 */
const WORD = '[^[:space:]]*[^[:space:]\\x21-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7E][^[:space:]]*';

export interface NoteCounts {
  notes: number;
  words: number;
  folders: number;
  tags: number;
  canvases: number;
}

/** The user's notes (and their words), folders, tags and canvases, counted in one statement. */
export async function noteCounts(em: EntityManager, userId: string): Promise<NoteCounts> {
  const [counts] = await em.getConnection().execute<NoteCounts[]>(
    `select (select count(*)::int from brain_note where user_id = ?) as notes,
            (select coalesce(sum(regexp_count(content, ?)), 0)::int from brain_note where user_id = ?) as words,
            (select count(*)::int from brain_folder where user_id = ?) as folders,
            (select count(*)::int from brain_tag where user_id = ?) as tags,
            (select count(*)::int from brain_canvas where user_id = ?) as canvases`,
    [userId, WORD, userId, userId, userId, userId],
  );
  return counts!;
}
