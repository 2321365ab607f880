import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, rowShape } from '../core/database/read-rows.js';
import { SocialHappening } from './social-happening.entity.js';

/** The social domain's hand-written SQL (guest ids are a JSON array, which the ORM cannot query by element). */

/** The ids of the user's happenings that have `personId` among their guests. */
export async function happeningIdsWithGuest(em: EntityManager, userId: string, personId: string): Promise<string[]> {
  const h = rowShape(em, SocialHappening);
  const sql = `select t.id from ${h.table} as t where t.${h.column('userId')} = $1 and t.${h.column('guestIds')} @> jsonb_build_array($2::text)`;
  return (await queryRows(em, sql, [userId, personId])).map((r) => r.id as string);
}

/** Takes `personId` out of the guests of every happening of the user: one statement. */
export async function removeGuestEverywhere(em: EntityManager, userId: string, personId: string): Promise<void> {
  const h = rowShape(em, SocialHappening);
  const guests = h.column('guestIds');
  await queryRows(
    em,
    `update ${h.table} set ${guests} = ${guests} - $1::text where ${h.column('userId')} = $2 and ${guests} @> jsonb_build_array($1::text)`,
    [personId, userId],
  );
}
