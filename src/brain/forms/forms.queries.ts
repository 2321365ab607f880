import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../../core/database/read-rows.js';

/** The Brain forms' hand-written SQL. */

/**
 * A deleted account leaves other users' form answers, but not as theirs: the answers they gave
 * signed in lose the respondent's user id, in the one-response column and in the stored values.
 * Runs inside the deletion's transaction.
 */
export async function forgetRespondent(em: EntityManager, userId: string): Promise<void> {
  await queryRows(
    em,
    `update brain_record
        set respondent_user_id = case when respondent_user_id = $1 then null else respondent_user_id end,
            "values" = "values" - '__respondentUserId'
      where user_id <> $1 and (respondent_user_id = $1 or "values"->>'__respondentUserId' = $1::text)`,
    [userId],
  );
}
