import DataLoader from 'dataloader';
import type { DayFieldSources } from '../planning/day-fields.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, readRows, rowShape } from '../core/database/read-rows.js';
import { groupUnder } from '../core/group-under.js';
import { SocialHappening } from './social-happening.entity.js';
import { PERSON_HAPPENINGS_SHOWN } from './social.types.js';

/**
 * Per-request loaders of the social module (plain read-only rows). They key on ids reached through an
 * owner-checked read (a day, a person), so need no user scope of their own.
 */
export function createSocialLoaders(em: EntityManager) {
  return {
    /** A day's happenings, by start time. */
    happeningsByDayId: new DataLoader<string, SocialHappening[]>(async (dayIds) => {
      const rows = await readRows(em, SocialHappening, { where: 'dayId', values: dayIds, orderBy: ['startTime', 'id'] });
      return groupUnder(dayIds, rows, (r) => r.dayId);
    }),

    /** The happenings a person was a guest of, most recent first: one statement for any number of people. */
    happeningsByPersonId: new DataLoader<string, SocialHappening[]>(async (personIds) => {
      const h = rowShape(em, SocialHappening);
      // The most recent PERSON_HAPPENINGS_SHOWN of each person: a bounded answer however long the history.
      const sql =
        `select ${h.columns('t')}, g.person_id as "guestKey" from unnest($1::text[]) as g(person_id)` +
        ` cross join lateral (select * from ${h.table} as s where s.${h.column('guestIds')} @> jsonb_build_array(g.person_id)` +
        ` order by s.${h.column('startTime')} desc, s.id asc limit ${PERSON_HAPPENINGS_SHOWN}) as t` +
        ` order by t.${h.column('startTime')} desc, t.id asc`;
      const rows = await queryRows(em, sql, [personIds.map((id) => id.toLowerCase())]);
      const pairs = rows.map(({ guestKey, ...row }) => ({ key: guestKey as string, happening: h.toEntity(row) }));
      const grouped = groupUnder(personIds.map((id) => id.toLowerCase()), pairs, (p) => p.key);
      return grouped.map((list) => list.map((p) => p.happening));
    }),

    /**
     * Each person's latest happening that has started (when they were last seen), or null: one
     * statement and one row per person, whatever the history.
     */
    lastSeenByPersonId: new DataLoader<string, SocialHappening | null>(async (personIds) => {
      const h = rowShape(em, SocialHappening);
      const sql =
        `select ${h.columns('t')}, g.person_id as "guestKey" from unnest($1::text[]) as g(person_id)` +
        ` cross join lateral (select * from ${h.table} as s where s.${h.column('guestIds')} @> jsonb_build_array(g.person_id)` +
        ` and s.${h.column('startTime')} <= now() order by s.${h.column('startTime')} desc, s.id asc limit 1) as t`;
      const rows = await queryRows(em, sql, [personIds.map((id) => id.toLowerCase())]);
      const byPerson = new Map(rows.map(({ guestKey, ...row }) => [guestKey as string, h.toEntity(row)]));
      return personIds.map((id) => byPerson.get(id.toLowerCase()) ?? null);
    }),
  };
}

export type SocialLoaders = ReturnType<typeof createSocialLoaders>;

/** The Day fields this domain adds and the records they read (followed by the day and week subscriptions). */
export const SOCIAL_DAY_FIELDS = { socialHappenings: ['SocialHappening'] } as const satisfies DayFieldSources;
