import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { queryRows } from '../core/database/read-rows.js';
import { AgendaService } from './agenda.service.js';

/** The feed covers the last and the next 90 days (operations.md "Agenda"). */
export const FEED_WINDOW_DAYS = 90;

/** 32 random bytes, base64url: the secret part of the feed URL. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashFeedToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The feed path of a token (outside /api/v1: calendar apps fetch it without a session). */
export function feedPath(token: string): string {
  return `/agenda/feed/${token}.ics`;
}

/** The iCalendar UID of an agenda entry: the same entry keeps it across fetches and token rotations. */
export function feedUid(entryId: string): string {
  return `${entryId}@life-planner`;
}

/**
 * The secret calendar feed of the agenda: `rotate` gives a new token (the only one that works from
 * then on), `userOf` finds the owner of a token, `calendar` writes the user's agenda as iCalendar.
 */
export class AgendaFeedService {
  constructor(private readonly em: EntityManager) {}

  /** A new token for the user's feed; the previous one stops working in the same statement. */
  async rotate(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.em.getConnection().execute(
      `insert into agenda_feeds (id, created_at, updated_at, user_id, token_hash) values (?, now(), now(), ?, ?)
       on conflict (user_id) do update set token_hash = excluded.token_hash, updated_at = now()`,
      [randomUUID(), userId, hashFeedToken(token)],
    );
    return token;
  }

  /** The user whose current token this is, or null (unknown, rotated away, or not a token at all). */
  async userOf(token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const [row] = await queryRows(this.em, 'select f.user_id from agenda_feeds f where f.token_hash = $1', [hashFeedToken(token)]);
    return row ? String(row.user_id) : null;
  }

  /** The user's agenda of the last and next 90 days as an iCalendar document (RFC 5545), made by ical-generator. */
  async calendar(userId: string, now = new Date()): Promise<string> {
    const start = new Date(now.getTime() - FEED_WINDOW_DAYS * 86_400_000);
    const end = new Date(now.getTime() + FEED_WINDOW_DAYS * 86_400_000);
    const { entries, timezone } = await AgendaService.read(this.em, userId, { start, end });
    const { default: ical } = await import('ical-generator'); // loaded by the first feed read, not at start-up (issue 18)
    const calendar = ical({ name: 'Life planner agenda', prodId: { company: 'life-planner', product: 'agenda', language: 'EN' }, ttl: 3600 });
    for (const entry of entries) {
      const common = { id: feedUid(entry.id), summary: entry.title, categories: [{ name: entry.type }], stamp: now };
      if (entry.allDay) {
        // All-day events are DATE values: the entry's day in the user's zone.
        const day = DateTime.fromJSDate(entry.start, { zone: timezone }).startOf('day');
        const last = entry.end ? DateTime.fromJSDate(entry.end, { zone: timezone }).startOf('day') : day.plus({ days: 1 });
        calendar.createEvent({ ...common, start: day, end: last > day ? last : day.plus({ days: 1 }), allDay: true });
      } else {
        calendar.createEvent({ ...common, start: entry.start, ...(entry.end ? { end: entry.end } : {}) });
      }
    }
    return calendar.toString();
  }
}
