import { createHash, randomBytes } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { readResult, signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectStatus } from '../../test/support/expectations.js';
import { seedAgenda, type SeededAgenda } from './agenda.test-helpers.js';

/** The secret iCalendar feed: parsed back with ical.js and compared with the range answer; rotation; isolation. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let seeded: SeededAgenda;

const ZONE = 'Europe/Berlin';
const DAY_MS = 86_400_000;
const URL_SHAPE = /^\/agenda\/feed\/[A-Za-z0-9_-]{43}\.ics$/;

/** The Monday of the current week (UTC), so the seeded week is well inside the feed's ±90 days. */
function thisMonday(): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

async function newFeed(client: HttpClient): Promise<string> {
  const res = await client.post('/api/v1/agenda/feed');
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body.data)).toEqual(['url']);
  const url: string = res.body.data.url;
  expect(url.startsWith(`${app.server.deps.config.baseUrl}/agenda/feed/`)).toBe(true);
  const path = new URL(url).pathname;
  expect(path).toMatch(URL_SHAPE);
  return path;
}

/** GET of a feed path with no cookie, as a calendar app would. */
async function fetchFeed(path: string) {
  return readResult(await fetch(app.url + path));
}

interface FeedEvent {
  uid: string;
  summary: string;
  category: string;
  start: ICAL.Time;
  end: ICAL.Time | null;
}

function parseFeed(text: string): FeedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(String(calendar.getFirstPropertyValue('prodid'))).toContain('life-planner');
  return calendar.getAllSubcomponents('vevent').map((event) => {
    expect(event.getFirstPropertyValue('dtstamp')).toBeTruthy();
    return {
      uid: String(event.getFirstPropertyValue('uid')),
      summary: String(event.getFirstPropertyValue('summary')),
      category: String(event.getFirstPropertyValue('categories')),
      start: event.getFirstPropertyValue('dtstart') as ICAL.Time,
      end: (event.getFirstPropertyValue('dtend') as ICAL.Time | null) ?? null,
    };
  });
}

/** The local date of an instant in ZONE. */
function localDate(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  const signed = await signUp(app.url);
  alice = signed.client;
  aliceId = signed.id;
  expect((await alice.patch('/api/v1/settings', { timezone: ZONE })).status).toBe(200);
  seeded = await seedAgenda(alice, thisMonday());
  // Outside the last and next 90 days: not in the feed.
  const far = new Date(Date.now() + 100 * DAY_MS).toISOString();
  expect((await alice.post('/api/v1/deadlines', { title: 'Far away', dueDate: far })).status).toBe(201);
  ({ client: bob } = await signUp(app.url));
  await seedAgenda(bob, thisMonday(), 'Bob: ');
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe('POST /api/v1/agenda/feed and GET /agenda/feed/<token>.ics', () => {
  it("answers valid iCalendar holding exactly the agenda's entries of the last and next 90 days", async () => {
    const path = await newFeed(alice);
    const res = await fetchFeed(path);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar; charset=utf-8$/i);
    const events = parseFeed(res.text);

    const now = Date.now();
    const start = new Date(now - 90 * DAY_MS).toISOString();
    const end = new Date(now + 90 * DAY_MS).toISOString();
    const range = await alice.get(`/api/v1/agenda/range?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`);
    expect(range.status, range.text).toBe(200);
    const entries: any[] = range.body.data;
    expect(entries.map((e) => e.type).sort()).toEqual(
      ['cardio', 'deadline', 'meditation', 'mobility', 'project_task', 'reading', 'social_happening', 'task', 'training', 'transaction', 'transaction', 'transaction', 'transaction'].sort(),
    );
    expect(entries.some((e) => e.title === 'Far away')).toBe(false);
    expect(events).toHaveLength(entries.length);

    const byUid = new Map(events.map((e) => [e.uid, e]));
    expect(byUid.size).toBe(events.length);
    for (const entry of entries) {
      const event = byUid.get(`${entry.id}@life-planner`);
      expect(event, entry.id).toBeDefined();
      expect(event!.summary).toBe(entry.title);
      expect(event!.category).toBe(entry.type);
      if (entry.allDay) {
        // An all-day event: DATE values, the entry's day in the user's zone, ending (exclusive) the next day.
        expect(event!.start.isDate, entry.id).toBe(true);
        expect(event!.start.toString()).toBe(localDate(entry.start));
        expect(event!.end!.isDate).toBe(true);
        expect(event!.end!.toString()).toBe(entry.end ? localDate(entry.end) : nextDate(localDate(entry.start)));
      } else {
        expect(event!.start.isDate, entry.id).toBe(false);
        expect(event!.start.toJSDate().toISOString()).toBe(entry.start);
        if (entry.end === null) expect(event!.end).toBeNull();
        else expect(event!.end!.toJSDate().toISOString()).toBe(entry.end);
      }
    }
    // The task is on the week's Monday, the reading session on its Saturday: as dates in the feed.
    expect(byUid.get(`task:${seeded.ids.task}@life-planner`)!.start.toString()).toBe(thisMonday());
  });

  it('keeps every UID across fetches and rotations; rotating makes the old URL answer 404', async () => {
    const first = await newFeed(alice);
    const uids = async (path: string) => {
      const res = await fetchFeed(path);
      expect(res.status, res.text).toBe(200);
      return parseFeed(res.text).map((e) => e.uid).sort();
    };
    const once = await uids(first);
    expect(once.length).toBeGreaterThan(0);
    expect(await uids(first)).toEqual(once);

    const second = await newFeed(alice);
    expect(second).not.toBe(first);
    expectStatus(await fetchFeed(first), 404, 'NOT_FOUND');
    expect(await uids(second)).toEqual(once);

    // The GraphQL mutation rotates too.
    const gql = await alice.graphql('mutation { createAgendaFeed { url } }');
    expect(gql.body.errors, gql.text).toBeUndefined();
    const third = new URL(gql.body.data!.createAgendaFeed.url).pathname;
    expectStatus(await fetchFeed(second), 404, 'NOT_FOUND');
    expect(await uids(third)).toEqual(once);
  });

  it('stores only the SHA-256 of the token', async () => {
    const path = await newFeed(alice);
    const token = path.slice('/agenda/feed/'.length, -'.ics'.length);
    const rows = await app.server.orm.em.fork().getConnection().execute('select * from agenda_feeds where user_id = ?', [aliceId]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("shows only the token owner's entries; unknown tokens and other paths answer 404; creating a feed needs the session", async () => {
    const alicePath = await newFeed(alice);
    const bobPath = await newFeed(bob);
    const aliceEvents = parseFeed((await fetchFeed(alicePath)).text);
    const bobEvents = parseFeed((await fetchFeed(bobPath)).text);
    expect(bobEvents.length).toBeGreaterThan(0);
    const aliceUids = new Set(aliceEvents.map((e) => e.uid));
    for (const event of bobEvents) expect(aliceUids.has(event.uid)).toBe(false);
    expect(aliceEvents.some((e) => e.summary.startsWith('Bob: '))).toBe(false);
    expect(bobEvents.filter((e) => ['task', 'deadline', 'project_task', 'social_happening'].includes(e.category)).every((e) => e.summary.startsWith('Bob: '))).toBe(true);

    expectStatus(await fetchFeed(`/agenda/feed/${randomBytes(32).toString('base64url')}.ics`), 404, 'NOT_FOUND');
    expectStatus(await fetchFeed(alicePath.slice(0, -'.ics'.length)), 404, 'NOT_FOUND');
    expectStatus(await fetchFeed('/agenda/feed/short.ics'), 404, 'NOT_FOUND');
    expectStatus(await fetchFeed(`/agenda/feed/${'%27'.repeat(20)}.ics`), 404, 'NOT_FOUND');
    // A path that is not even valid percent-encoding is bad input (400), never a 500.
    expectStatus(await fetchFeed('/agenda/feed/%E0%A4%A.ics'), 400, 'VALIDATION_ERROR');
    // The feed is outside /api/v1: the session API does not serve it.
    expectStatus(await alice.get(`/api/v1${alicePath}`), 404);
    expectStatus(await alice.withoutCookie().post('/api/v1/agenda/feed'), 401, 'UNAUTHORIZED');
    // Bob's rotation leaves Alice's feed working.
    await newFeed(bob);
    expect((await fetchFeed(alicePath)).status).toBe(200);
  });
});
