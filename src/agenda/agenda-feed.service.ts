import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { feedRowByTokenHash, saveFeedFingerprint, upsertFeedToken } from './agenda.queries.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { iCalDateRule } from '../core/recurrence/recurrence.js';
import { AgendaService, type AgendaSeries } from './agenda.service.js';
import { AgendaEntryType, type AgendaEntry } from './agenda.types.js';
import { HABITS_MAX } from '../habits/habit-limits.js';
import { calendarRuleOf } from '../habits/habit-schedule.js';
import { HabitService } from '../habits/habit.service.js';

/** The feed covers the last and the next 90 days (operations.md "Agenda"). */
export const FEED_WINDOW_DAYS = 90;
/** Events rendered between two turns of the event loop. */
const FEED_RENDER_BATCH = 250;
/** Part of the ETag: a change to how the feed is written changes every feed's ETag. */
const FEED_FORMAT = 'ics-3';

/**
 * RFC 5545 §3.1 folding, by ical-generator's `foldLines` but only for the lines that need it (over 74
 * octets, as it folds): it encodes each character on its own, 74 µs an event, while most lines of an
 * event are short. The result is the same text.
 */
function foldLongLines(text: string, foldLines: (line: string) => string): string {
  return text
    .split('\r\n')
    .map((line) => (line.length > 18 && Buffer.byteLength(line) > 74 ? foldLines(line) : line))
    .join('\r\n');
}

/** What a feed URL opts into (its query string). */
export interface FeedOptions {
  /** `?include=habits`: each active habit as an all-day series (issue 37). */
  habits?: boolean;
}

/**
 * The person's active habits (at most HABITS_MAX) as all-day series: each written once with its RRULE
 * (habit-schedule.ts `calendarRuleOf`: a quota as a weekly or monthly reminder of it).
 */
async function habitSeries(em: EntityManager, userId: string): Promise<AgendaSeries[]> {
  const habits = await new HabitService(em).list(userId, { limit: HABITS_MAX });
  return habits.items.map((habit) => {
    const { rule, start, title } = calendarRuleOf(habit);
    return { key: `habit-${habit.id}`, type: AgendaEntryType.habit, sourceId: habit.id, title, recurrence: { rule, start } };
  });
}

export interface FeedRecord {
  userId: string;
  etag: string | null;
  changedAt: Date | null;
}

export interface FeedContents {
  entries: AgendaEntry[];
  /** Every series of the user not ended before the window, whatever its next date: each written once, with its rule. */
  series: AgendaSeries[];
  timezone: string;
  etag: string;
  changedAt: Date;
}

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
    await upsertFeedToken(this.em, randomUUID(), userId, hashFeedToken(token));
    return token;
  }

  /** The feed of this token (its user and what it last answered), or null (unknown, rotated away, or not a token at all). */
  async feedOf(token: string): Promise<FeedRecord | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await feedRowByTokenHash(this.em, hashFeedToken(token));
    if (!row) return null;
    // Plain reads answer timestamps as text.
    return { userId: String(row.user_id), etag: (row.etag as string | null) ?? null, changedAt: row.content_changed_at ? new Date(row.content_changed_at as string) : null };
  }

  /**
   * The user's agenda of the last and next FEED_WINDOW_DAYS days (at most MAX_AGENDA_ENTRIES entries,
   * the earliest) and its fingerprint, made from the entries without rendering them: the same entries
   * give the same ETag, an added, changed or deleted one (or another time zone) a new one. The time the
   * fingerprint last changed is kept with the feed (its Last-Modified): one write when it changes.
   */
  async contents(feed: FeedRecord, now = new Date(), options: FeedOptions = {}): Promise<FeedContents> {
    const start = new Date(now.getTime() - FEED_WINDOW_DAYS * 86_400_000);
    const end = new Date(now.getTime() + FEED_WINDOW_DAYS * 86_400_000);
    const { entries, series, timezone } = await AgendaService.read(this.em, feed.userId, { start, end }, { everySeries: true });
    if (options.habits) series.push(...(await habitSeries(this.em, feed.userId)));
    const hash = createHash('sha256').update(`${FEED_FORMAT}\n${timezone}\n${options.habits ? 'habits\n' : ''}`);
    for (const e of entries) hash.update(`${e.id}\t${e.type}\t${e.title}\t${e.start.getTime()}\t${e.end?.getTime() ?? ''}\t${e.allDay}\n`);
    // A rule's dates past the window change the feed too (its RRULE), not only those in it.
    for (const s of series) hash.update(`${s.key}\t${s.title}\t${s.recurrence.start}\t${s.recurrence.rule}\t${(s.recurrence.exceptions ?? []).join(',')}\n`);
    const etag = hash.digest('base64url');
    let changedAt = feed.changedAt;
    if (etag !== feed.etag || !changedAt) {
      changedAt = new Date(Math.floor(now.getTime() / 1000) * 1000); // HTTP dates have whole seconds
      await saveFeedFingerprint(this.em, feed.userId, etag, changedAt);
    }
    return { entries, series, timezone, etag, changedAt };
  }

  /**
   * Writes the feed as iCalendar (RFC 5545) through `write`, made by ical-generator: the calendar's
   * head, then the events FEED_RENDER_BATCH at a time (each batch folded as the library folds a whole
   * calendar) with a turn of the event loop between batches, then the end with its CRLF (§3.1). So a
   * feed of thousands of entries never holds the event loop, and its text is never in memory whole.
   *
   * A series (a recurring task or transaction, a birthday) is one all-day event in place of its first
   * entry, its UID the series' key: DTSTART its first date of the rule from the window's start on (a
   * birthday: the birth date), the RRULE (UNTIL as a DATE, as DTSTART is one), and EXDATE for the dates
   * in the window shown otherwise (a task made for that date, edited or not, is its own event; an
   * exception). Its other entries are not written: the calendar expands the rule to the same dates. A
   * series with no date in the window (a birthday or a yearly payment months away) is written all the
   * same, after the entries: a subscribed calendar shows it whatever its next date (issue 34).
   */
  async render(contents: FeedContents, write: (text: string) => Promise<void>, now = new Date()): Promise<void> {
    const { default: ical, foldLines } = await import('ical-generator'); // loaded by the first feed read, not at start-up (issue 18)
    const calendar = ical({ name: 'Life planner agenda', prodId: { company: 'life-planner', product: 'agenda', language: 'EN' }, ttl: 3600 });
    await write(calendar.toString().replace(/END:VCALENDAR$/, ''));
    const { entries, timezone } = contents;
    const series = new Map(contents.series.map((s) => [s.key, s]));
    const written = new Set<string>();
    const seriesEvent = (ofSeries: AgendaSeries) => {
      const day = DateTime.fromISO(ofSeries.recurrence.start, { zone: timezone });
      const exceptions = ofSeries.recurrence.exceptions ?? [];
      const repeating = `RRULE:${iCalDateRule(ofSeries.recurrence.rule)}` + (exceptions.length ? `\r\nEXDATE;VALUE=DATE:${exceptions.map((d) => d.replace(/-/g, '')).join(',')}` : '');
      const common = { id: feedUid(ofSeries.key), summary: ofSeries.title, categories: [{ name: ofSeries.type }], stamp: now };
      return calendar.createEvent({ ...common, start: day, end: day.plus({ days: 1 }), allDay: true, repeating });
    };
    for (let at = 0; at < entries.length; at += FEED_RENDER_BATCH) {
      let text = '';
      for (const entry of entries.slice(at, at + FEED_RENDER_BATCH)) {
        const common = { id: feedUid(entry.id), summary: entry.title, categories: [{ name: entry.type }], stamp: now };
        let event;
        const ofSeries = entry.series ? series.get(entry.series) : undefined;
        if (ofSeries) {
          if (written.has(ofSeries.key)) continue;
          written.add(ofSeries.key);
          event = seriesEvent(ofSeries);
        } else if (entry.allDay) {
          // All-day events are DATE values: the entry's day in the user's zone.
          const day = DateTime.fromJSDate(entry.start, { zone: timezone }).startOf('day');
          const last = entry.end ? DateTime.fromJSDate(entry.end, { zone: timezone }).startOf('day') : day.plus({ days: 1 });
          event = calendar.createEvent({ ...common, start: day, end: last > day ? last : day.plus({ days: 1 }), allDay: true });
        } else {
          event = calendar.createEvent({ ...common, start: entry.start, ...(entry.end ? { end: entry.end } : {}) });
        }
        text += event.toString();
        calendar.clear(); // each event written once, then dropped: a calendar holding many makes each new one slower
      }
      await write(foldLongLines(text, foldLines));
      await nextTurn();
    }
    // The series with no date among the entries (their next date outside the window).
    const rest = contents.series.filter((s) => !written.has(s.key));
    for (let at = 0; at < rest.length; at += FEED_RENDER_BATCH) {
      let text = '';
      for (const one of rest.slice(at, at + FEED_RENDER_BATCH)) {
        text += seriesEvent(one).toString();
        calendar.clear();
      }
      await write(foldLongLines(text, foldLines));
      await nextTurn();
    }
    await write('END:VCALENDAR\r\n');
  }
}
