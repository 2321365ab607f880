import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { readResult, signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectValidation } from '../../test/support/expectations.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { addDays } from '../core/dates.js';
import { bookDueTransactions } from '../finance/recurring-bookings.js';
import { AgendaFeedService } from './agenda-feed.service.js';
import { MAX_AGENDA_ENTRIES } from './agenda.service.js';

/**
 * Series in the agenda and the feed: recurring tasks on the dates of their rule with no task made for
 * them, the dates to come of recurring transactions, birthdays. `agenda/range` lists each date; the
 * iCalendar feed writes each series once (DTSTART, RRULE, EXDATE), and two independent parsers (ical.js,
 * Mozilla's; node-ical, on rrule-temporal) expand it back to exactly the dates the range answers.
 *
 * The fixed dates are in 2030 (the feed's window is asked for at a `now` in 2030), so neither the
 * running app's booking job nor the tasks made ahead from today reach them while the test runs.
 */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;

const ZONE = 'Europe/Berlin';

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  const signed = await signUp(app.url);
  alice = signed.client;
  aliceId = signed.id;
  expect((await alice.patch('/api/v1/settings', { timezone: ZONE })).status).toBe(200);
  ({ client: bob } = await signUp(app.url));
}, 60_000);
afterAll(async () => {
  await app?.close();
});

async function created(res: { status: number; text: string; body: any }): Promise<any> {
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** The local date (ZONE) of an instant. */
function localDate(iso: string | Date, zone = ZONE): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

async function range(client: HttpClient, start: string, end: string, all = false): Promise<any[]> {
  const res = await client.get(`/api/v1/agenda/range?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}${all ? '&showAllTransactions=true' : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** `<date>` of each entry of a series (`<type>:<sourceId>:<date>`), in order. */
const datesOf = (entries: any[], type: string, sourceId: string) =>
  entries.filter((e) => e.type === type && e.id.startsWith(`${type}:${sourceId}:`)).map((e) => e.id.slice(`${type}:${sourceId}:`.length));

async function taskSeries(client: HttpClient, dayId: string, title: string, recurrence: string): Promise<any> {
  return created(await client.post('/api/v1/tasks', { title, timebox: 30, dayId, recurrence }));
}

/** The tasks made for a series (its first included), by occurrence date. */
async function occurrences(client: HttpClient, seriesId: string): Promise<Map<string, any>> {
  const res = await client.get(`/api/v1/tasks?seriesId=${seriesId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return new Map(res.body.data.map((t: any) => [t.occurrenceDate, t]));
}

describe('agenda/range expands series', () => {
  it('shows a recurring task on the dates of its rule; made occurrences as the tasks they are (where they were moved), exceptions never', async () => {
    const { client } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: ZONE })).status).toBe(200);
    const march = await weekDayIds(client, '2030-03-04'); // only this week exists: its dates are made, the later ones are not
    const gym = await taskSeries(client, march[0]!, 'Gym', 'FREQ=WEEKLY;BYDAY=MO,WE');
    const made = await occurrences(client, gym.id);
    expect([...made.keys()].sort()).toEqual(['2030-03-04', '2030-03-06']);

    // Wednesday's task moved to Friday (this one only), next week generated and its Wednesday deleted (an exception).
    const moved = await client.patch(`/api/v1/tasks/${made.get('2030-03-06').id}`, { dayId: march[4], title: 'Gym (moved)' });
    expect(moved.status, moved.text).toBe(200);
    await weekDayIds(client, '2030-03-11');
    const next = await occurrences(client, gym.id);
    expect((await client.delete(`/api/v1/tasks/${next.get('2030-03-13').id}`)).status).toBe(200);

    const entries = await range(client, '2030-03-01', '2030-04-01');
    const gymEntries = entries.filter((e) => e.sourceId === gym.id || e.title.startsWith('Gym'));
    expect(gymEntries.map((e) => [localDate(e.start), e.id, e.title])).toEqual([
      ['2030-03-04', `task:${gym.id}`, 'Gym'],
      ['2030-03-08', `task:${made.get('2030-03-06').id}`, 'Gym (moved)'],
      ['2030-03-11', `task:${next.get('2030-03-11').id}`, 'Gym'],
      ['2030-03-18', `task:${gym.id}:2030-03-18`, 'Gym'],
      ['2030-03-20', `task:${gym.id}:2030-03-20`, 'Gym'],
      ['2030-03-25', `task:${gym.id}:2030-03-25`, 'Gym'],
      ['2030-03-27', `task:${gym.id}:2030-03-27`, 'Gym'],
    ]);
    for (const e of gymEntries) {
      expect(e).toMatchObject({ type: 'task', allDay: true });
      // A day in Berlin: its midnight to the next (March 2030: UTC+1, until the 31st).
      expect(new Date(e.end).getTime() - new Date(e.start).getTime()).toBe(86_400_000);
      expect(localDate(e.start)).toBe(localDate(new Date(new Date(e.end).getTime() - 1)));
    }
    // The range's end is excluded, its start's day included.
    expect(datesOf(await range(client, '2030-03-18T12:00:00+01:00', '2030-03-25T00:00:00+01:00'), 'task', gym.id)).toEqual(['2030-03-18', '2030-03-20']);
    // An ended series (COUNT) shows only its dates.
    const course = await taskSeries(client, march[1]!, 'Course', 'FREQ=WEEKLY;COUNT=3');
    expect(datesOf(await range(client, '2030-03-01', '2030-05-01'), 'task', course.id)).toEqual(['2030-03-19']);
  });

  it('shows the dates to come of a recurring transaction, and each booked one as the transaction it is, never both', async () => {
    const { client } = await signUp(app.url);
    const account = await created(await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
    const rent = await created(await client.post('/api/v1/transactions', { accountId: account.id, amount: -950, description: 'Rent', date: '2030-03-15', recurrence: 'FREQ=MONTHLY' }));
    // Small and not flagged by hand: shown all the same (a recurring transaction, as the default filter says).
    const tea = await created(await client.post('/api/v1/transactions', { accountId: account.id, amount: -2, category: 'Tea', date: '2030-03-20', recurrence: 'FREQ=WEEKLY;COUNT=3' }));
    const shown = async () => (await range(client, '2030-03-01', '2030-06-01')).filter((e) => e.type === 'transaction').map((e) => [localDate(e.start), e.id, e.title, e.end]);
    expect(await shown()).toEqual([
      ['2030-03-15', `transaction:${rent.id}`, 'Rent -950.00 EUR', null],
      ['2030-03-20', `transaction:${tea.id}`, 'tea -2.00 EUR', null],
      ['2030-03-27', `transaction:${tea.id}:2030-03-27`, 'tea -2.00 EUR', null],
      ['2030-04-03', `transaction:${tea.id}:2030-04-03`, 'tea -2.00 EUR', null],
      ['2030-04-15', `transaction:${rent.id}:2030-04-15`, 'Rent -950.00 EUR', null],
      ['2030-05-15', `transaction:${rent.id}:2030-05-15`, 'Rent -950.00 EUR', null],
    ]);
    await bookDueTransactions(app.server.orm.em.fork(), { now: new Date('2030-04-16T12:00:00Z') });
    const booked = (await client.get(`/api/v1/transactions?accountId=${account.id}&startDate=2030-03-21&limit=100`)).body.data;
    const idOn = (date: string) => booked.find((t: any) => t.date === date).id;
    expect(await shown()).toEqual([
      ['2030-03-15', `transaction:${rent.id}`, 'Rent -950.00 EUR', null],
      ['2030-03-20', `transaction:${tea.id}`, 'tea -2.00 EUR', null],
      ['2030-03-27', `transaction:${idOn('2030-03-27')}`, 'tea -2.00 EUR', null],
      ['2030-04-03', `transaction:${idOn('2030-04-03')}`, 'tea -2.00 EUR', null],
      ['2030-04-15', `transaction:${idOn('2030-04-15')}`, 'Rent -950.00 EUR', null],
      ['2030-05-15', `transaction:${rent.id}:2030-05-15`, 'Rent -950.00 EUR', null],
    ]);
    // A stopped series has no dates to come.
    await client.patch(`/api/v1/transactions/${rent.id}`, { recurrence: null });
    expect((await shown()).map((e) => e[1])).not.toContain(`transaction:${rent.id}:2030-05-15`);
  });

  it('shows each birthday every year from the birth date, all-day; 29 February on the 28th in common years', async () => {
    const { client } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: 'America/New_York' })).status).toBe(200);
    const sam = await created(await client.post('/api/v1/people', { name: 'Sam', birthday: '1990-03-10' }));
    const leap = await created(await client.post('/api/v1/people', { name: 'Leap', birthday: '2000-02-29' }));
    const baby = await created(await client.post('/api/v1/people', { name: 'Baby', birthday: '2030-06-01' }));
    await created(await client.post('/api/v1/people', { name: 'No birthday' }));
    const birthdays = async (start: string, end: string) => (await range(client, start, end)).filter((e) => e.type === 'birthday');
    const in2030 = await birthdays('2030-01-01', '2031-01-01');
    expect(in2030.map((e) => [e.id, e.title, e.sourceId, e.allDay])).toEqual([
      [`birthday:${leap.id}:2030-02-28`, 'Birthday: Leap', leap.id, true],
      [`birthday:${sam.id}:2030-03-10`, 'Birthday: Sam', sam.id, true],
      [`birthday:${baby.id}:2030-06-01`, 'Birthday: Baby', baby.id, true],
    ]);
    // Midnight to midnight in New York (10 March 2030 is a DST day: 23 hours).
    const samDay = in2030[1];
    expect([samDay.start, samDay.end]).toEqual(['2030-03-10T05:00:00.000Z', '2030-03-11T04:00:00.000Z']);
    expect((await birthdays('2028-02-01', '2028-03-01')).map((e) => e.id)).toEqual([`birthday:${leap.id}:2028-02-29`]);
    expect((await birthdays('2029-12-01', '2030-04-01')).map((e) => e.id)).toEqual([`birthday:${leap.id}:2030-02-28`, `birthday:${sam.id}:2030-03-10`]);
    expect(await birthdays('2029-06-01', '2029-06-02')).toEqual([]); // before Baby was born
    // Bob sees none of them.
    expect((await range(bob, '2030-01-01', '2031-01-01')).filter((e) => e.type === 'birthday')).toEqual([]);
  });

  it(`keeps the entry cap: a range with more than ${MAX_AGENDA_ENTRIES} dates of series is a 400 asking for a shorter one`, async () => {
    const { client } = await signUp(app.url);
    const days = await weekDayIds(client, '2030-01-07');
    const count = Math.ceil(MAX_AGENDA_ENTRIES / 365) + 1;
    for (let i = 0; i < count; i++) await taskSeries(client, days[0]!, `Daily ${i}`, 'FREQ=DAILY');
    const started = performance.now();
    expectValidation(await client.get('/api/v1/agenda/range?start=2030-01-07&end=2031-01-07'), 'end');
    const ms = performance.now() - started;
    const half = await range(client, '2030-01-07', '2030-03-01');
    expect(half).toHaveLength(count * 53);
    console.info(`agenda range of ${count} daily series over a year (over the cap): ${ms.toFixed(0)} ms`);
  });
});

// ---------------------------------------------------------------- the feed, parsed back twice

interface Parsed {
  /** Every VEVENT by UID. */
  events: Map<string, { summary: string; category: string; start: string; rrule: string | null }>;
  /** The dates (YYYY-MM-DD) each recurring VEVENT expands to within [from, to], by UID. */
  expanded: Map<string, string[]>;
}

/** ical.js: RecurExpansion through ICAL.Event.iterator (RRULE, EXDATE). */
function withIcalJs(text: string, from: string, to: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const parsed: Parsed = { events: new Map(), expanded: new Map() };
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    const rrule = vevent.getFirstPropertyValue('rrule');
    parsed.events.set(event.uid, {
      summary: event.summary,
      category: String(vevent.getFirstPropertyValue('categories')),
      start: event.startDate.toString(),
      rrule: rrule ? rrule.toString() : null,
    });
    if (!event.isRecurring()) continue;
    expect(event.startDate.isDate, event.uid).toBe(true);
    const dates: string[] = [];
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const date = next.toString();
      if (date > to) break;
      if (date >= from) dates.push(date);
    }
    parsed.expanded.set(event.uid, dates);
  }
  return parsed;
}

/** node-ical: expandRecurringEvent (rrule-temporal underneath; EXDATE). */
function withNodeIcal(text: string, from: string, to: string): Parsed {
  const calendar = nodeIcal.sync.parseICS(text);
  const parsed: Parsed = { events: new Map(), expanded: new Map() };
  // A DATE is a Date at local midnight of this process (node-ical's dateOnly).
  const dateOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  for (const component of Object.values(calendar)) {
    if (!component || component.type !== 'VEVENT') continue;
    const event = component as nodeIcal.VEvent;
    const summary = typeof event.summary === 'string' ? event.summary : String((event.summary as any)?.val ?? '');
    const categories = (event as any).categories;
    parsed.events.set(event.uid, { summary, category: Array.isArray(categories) ? categories.join(',') : String(categories), start: dateOf(event.start), rrule: event.rrule ? event.rrule.toString() : null });
    if (!event.rrule) continue;
    expect((event.start as any).dateOnly, event.uid).toBe(true);
    const instances = nodeIcal.expandRecurringEvent(event, { from: new Date(`${from}T00:00:00`), to: new Date(`${to}T23:59:59`) });
    parsed.expanded.set(event.uid, instances.map((i) => dateOf(i.start)).filter((d) => d >= from && d <= to));
  }
  return parsed;
}

/**
 * The feed holds the range's answer exactly, read by `parse`: each entry that is no date of a series is
 * an event with its id as UID; each series is one event (UID `<type>-series:<sourceId>`) with a RRULE
 * whose dates in [from, to] are the entries of that series; nothing else.
 */
function expectFeedMatchesRange(parsed: Parsed, entries: any[], timezone: string): void {
  const seriesDates = new Map<string, string[]>();
  const single = new Set<string>();
  for (const entry of entries) {
    const m = /^(task|transaction|birthday):([0-9a-f-]{36}):(\d{4}-\d{2}-\d{2})$/.exec(entry.id);
    if (m) {
      const uid = `${m[1]}-series:${m[2]}@life-planner`;
      seriesDates.set(uid, [...(seriesDates.get(uid) ?? []), m[3]!]);
      expect(localDate(entry.start, timezone)).toBe(m[3]);
    } else {
      single.add(`${entry.id}@life-planner`);
      const event = parsed.events.get(`${entry.id}@life-planner`);
      expect(event, entry.id).toBeDefined();
      expect(event!.summary).toBe(entry.title);
      expect(event!.rrule).toBeNull();
    }
  }
  // A series with no date in the range is there too (its RRULE gives dates outside it: issue 34).
  const elsewhere = [...parsed.events.keys()].filter((uid) => !single.has(uid) && !seriesDates.has(uid));
  for (const uid of elsewhere) {
    expect(uid).toMatch(/^(task|transaction|birthday)-series:/);
    expect(parsed.events.get(uid)!.rrule, uid).toBeTruthy();
    expect(parsed.expanded.get(uid) ?? [], uid).toEqual([]);
  }
  expect(parsed.events.size).toBe(single.size + seriesDates.size + elsewhere.length);
  for (const [uid, dates] of seriesDates) {
    const event = parsed.events.get(uid);
    expect(event, uid).toBeDefined();
    expect(event!.rrule, uid).toBeTruthy();
    expect(parsed.expanded.get(uid), `${uid} ${event!.rrule}`).toEqual(dates);
  }
  // No date of a series written as an event of its own.
  expect([...parsed.expanded].filter(([, dates]) => dates.length).map(([uid]) => uid).sort()).toEqual([...seriesDates.keys()].sort());
}

describe('the iCalendar feed writes each series once, with its RRULE and EXDATEs', () => {
  /** Alice's series around 15 March 2030; the feed is read at that `now` (window: ±90 days). */
  const NOW = new Date('2030-03-15T10:00:00Z');
  const from = localDate(new Date(NOW.getTime() - 90 * 86_400_000));
  const to = localDate(new Date(NOW.getTime() + 90 * 86_400_000 - 1));
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    const days = await weekDayIds(alice, '2030-03-11');
    await weekDayIds(alice, '2030-03-18');
    const earlier = await weekDayIds(alice, '2029-11-05'); // before the window: these series start outside it
    const lastWeekOfNovember = await weekDayIds(alice, '2029-11-26');
    const gym = await taskSeries(alice, days[0]!, 'Gym', 'FREQ=WEEKLY;BYDAY=MO,WE,FR');
    const made = await occurrences(alice, gym.id);
    // One made occurrence changed alone (its own event), one deleted (an exception).
    expect((await alice.patch(`/api/v1/tasks/${made.get('2030-03-13').id}`, { title: 'Gym, legs' })).status).toBe(200);
    expect((await alice.delete(`/api/v1/tasks/${made.get('2030-03-20').id}`)).status).toBe(200);
    const course = await taskSeries(alice, earlier[1]!, 'Course', 'FREQ=WEEKLY;BYDAY=TU;COUNT=30'); // COUNT lowered where the feed restarts it
    const sprint = await taskSeries(alice, earlier[2]!, 'Sprint review', 'FREQ=DAILY;INTERVAL=3;UNTIL=20300420');
    const payday = await taskSeries(alice, lastWeekOfNovember[4]!, 'Pay bills', 'FREQ=MONTHLY;BYDAY=-1FR'); // Friday 30 November 2029
    const account = await created(await alice.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
    const rent = await created(await alice.post('/api/v1/transactions', { accountId: account.id, amount: -950, description: 'Rent', date: '2030-01-31', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=-1' }));
    const gymFee = await created(await alice.post('/api/v1/transactions', { accountId: account.id, amount: -30, description: 'Gym fee', date: '2030-02-04', recurrence: 'FREQ=WEEKLY;COUNT=12' }));
    // Booked until NOW: the first dates are transactions, the rest are the series' dates to come.
    await bookDueTransactions(app.server.orm.em.fork(), { now: NOW });
    const ada = await created(await alice.post('/api/v1/people', { name: 'Ada', birthday: '1990-04-02' }));
    const leap = await created(await alice.post('/api/v1/people', { name: 'Leap', birthday: '1996-02-29' }));
    ids = { gym: gym.id, course: course.id, sprint: sprint.id, payday: payday.id, rent: rent.id, gymFee: gymFee.id, ada: ada.id, leap: leap.id };
  }, 60_000);

  async function feedAt(now: Date): Promise<{ text: string; entries: any[] }> {
    const feeds = new AgendaFeedService(app.server.orm.em.fork());
    const contents = await feeds.contents({ userId: aliceId, etag: null, changedAt: null }, now);
    let text = '';
    await feeds.render(contents, async (part) => {
      text += part;
    }, now);
    const start = new Date(now.getTime() - 90 * 86_400_000).toISOString();
    const end = new Date(now.getTime() + 90 * 86_400_000).toISOString();
    return { text, entries: await range(alice, start, end) };
  }

  it('expands, with ical.js and with node-ical, to exactly the dates agenda/range answers', async () => {
    const { text, entries } = await feedAt(NOW);
    // Every kind of series is there, with dates to expand.
    for (const key of ['gym', 'course', 'sprint', 'payday']) expect(datesOf(entries, 'task', ids[key]!).length, key).toBeGreaterThan(1);
    for (const key of ['rent', 'gymFee']) expect(datesOf(entries, 'transaction', ids[key]!).length, key).toBeGreaterThan(1);
    expect(datesOf(entries, 'birthday', ids.ada!)).toEqual(['2030-04-02']);
    expect(datesOf(entries, 'birthday', ids.leap!)).toEqual(['2030-02-28']);
    // The changed occurrence is its own entry, the deleted one gone.
    expect(entries.filter((e) => e.title === 'Gym, legs').map((e) => localDate(e.start))).toEqual(['2030-03-13']);
    expect(entries.some((e) => e.title.startsWith('Gym') && localDate(e.start) === '2030-03-20')).toBe(false);

    expectFeedMatchesRange(withIcalJs(text, from, to), entries, ZONE);
    expectFeedMatchesRange(withNodeIcal(text, from, to), entries, ZONE);

    // The text itself: one event per series, RRULE with DATE values, EXDATE for the dates shown otherwise.
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    const gymEvent = unfolded.slice(unfolded.indexOf(`UID:task-series:${ids.gym}@life-planner`));
    const gymText = gymEvent.slice(0, gymEvent.indexOf('END:VEVENT'));
    expect(gymText).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR');
    expect(gymText).toMatch(/EXDATE;VALUE=DATE:[0-9,]*20300313[0-9,]*/); // made, and changed: its own event
    expect(gymText).toMatch(/EXDATE;VALUE=DATE:[0-9,]*20300320/); // deleted: an exception
    expect(unfolded).toMatch(new RegExp(`UID:task-series:${ids.sprint}@life-planner[\\s\\S]*?RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20300420\\r\\n`));
    expect(unfolded).toMatch(new RegExp(`UID:birthday-series:${ids.leap}@life-planner[\\s\\S]*?DTSTART;VALUE=DATE:19960229[\\s\\S]*?RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`));
    expect(unfolded).toMatch(new RegExp(`UID:birthday-series:${ids.ada}@life-planner[\\s\\S]*?RRULE:FREQ=YEARLY\\r\\n`));
    // The gym fee's 12 weeks from 4 February: 6 booked by NOW, so the feed's series has the other 6,
    // its COUNT written as UNTIL its last date (nothing counted from the start: issue 34).
    expect(unfolded).toMatch(new RegExp(`UID:transaction-series:${ids.gymFee}@life-planner[\\s\\S]*?DTSTART;VALUE=DATE:20300318[\\s\\S]*?RRULE:FREQ=WEEKLY;UNTIL=20300422\\r\\n`));
  });

  it('expands the same way at other moments (a window where a series begins, ends, or a leap year)', async () => {
    for (const now of [new Date('2029-12-01T00:00:00Z'), new Date('2030-05-31T23:30:00Z'), new Date('2028-02-20T12:00:00Z')]) {
      const { text, entries } = await feedAt(now);
      const a = localDate(new Date(now.getTime() - 90 * 86_400_000));
      const b = localDate(new Date(now.getTime() + 90 * 86_400_000 - 1));
      expectFeedMatchesRange(withIcalJs(text, a, b), entries, ZONE);
      expectFeedMatchesRange(withNodeIcal(text, a, b), entries, ZONE);
      if (now.getUTCFullYear() === 2028) expect(datesOf(entries, 'birthday', ids.leap!)).toEqual(['2028-02-29']);
    }
  });

  it('is served at the secret URL with the series in it (and the ETag follows a rule change past the window)', async () => {
    // Near today: a transaction series from the day after tomorrow (nothing of it is due while the test runs).
    const soon = addDays(localDate(new Date()), 2);
    const account = await created(await bob.post('/api/v1/accounts', { name: 'Bob', type: 'cash', balance: 0, currency: 'EUR' }));
    const water = await created(await bob.post('/api/v1/transactions', { accountId: account.id, amount: -15, description: 'Water', date: soon, recurrence: 'FREQ=WEEKLY' }));
    const url = new URL((await bob.post('/api/v1/agenda/feed')).body.data.url);
    const res = await readResult(await fetch(app.url + url.pathname));
    expect(res.status, res.text).toBe(200);
    const now = Date.now();
    const entries = await range(bob, new Date(now - 90 * 86_400_000).toISOString(), new Date(now + 90 * 86_400_000).toISOString());
    expect(datesOf(entries, 'transaction', water.id).length).toBeGreaterThan(10);
    const a = localDate(new Date(now - 90 * 86_400_000), 'UTC');
    const b = localDate(new Date(now + 90 * 86_400_000 - 1), 'UTC');
    expectFeedMatchesRange(withIcalJs(res.text, a, b), entries, 'UTC');
    expectFeedMatchesRange(withNodeIcal(res.text, a, b), entries, 'UTC');

    // A rule whose dates in the window stay the same still changes the feed (its RRULE): a new ETag.
    const etag = res.headers.get('etag')!;
    expect((await bob.patch(`/api/v1/transactions/${water.id}`, { recurrence: `FREQ=WEEKLY;UNTIL=${addDays(soon, 400).replace(/-/g, '')}` })).status).toBe(200);
    const again = await fetch(app.url + url.pathname, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).not.toBe(etag);
  });
});

describe('the feed writes a series whatever its next date (issue 34, item 12)', () => {
  it('a 29 February birthday, a yearly task and a yearly payment months from the window are VEVENTs with RRULE', async () => {
    const { client, id } = await signUp(app.url);
    expect((await client.patch('/api/v1/settings', { timezone: ZONE })).status).toBe(200);
    const february = await weekDayIds(client, '2030-02-11');
    const checkup = await taskSeries(client, february[3]!, 'Checkup', 'FREQ=YEARLY'); // Thursday 14 February 2030
    const account = await created(await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
    const insurance = await created(await client.post('/api/v1/transactions', { accountId: account.id, amount: -120, description: 'Insurance', date: '2030-02-20', recurrence: 'FREQ=YEARLY' }));
    const leap = await created(await client.post('/api/v1/people', { name: 'Leap', birthday: '2000-02-29' }));
    // 15 August 2030: the window (17 May to 13 November) holds none of their dates.
    const now = new Date('2030-08-15T10:00:00Z');
    const feeds = new AgendaFeedService(app.server.orm.em.fork());
    const contents = await feeds.contents({ userId: id, etag: null, changedAt: null }, now);
    let text = '';
    await feeds.render(contents, async (part) => {
      text += part;
    }, now);
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toMatch(new RegExp(`UID:birthday-series:${leap.id}@life-planner[\\s\\S]*?DTSTART;VALUE=DATE:20000229[\\s\\S]*?RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1\\r\\n`));
    expect(unfolded).toMatch(new RegExp(`UID:task-series:${checkup.id}@life-planner[\\s\\S]*?DTSTART;VALUE=DATE:20310214[\\s\\S]*?RRULE:FREQ=YEARLY\\r\\n`));
    expect(unfolded).toMatch(new RegExp(`UID:transaction-series:${insurance.id}@life-planner[\\s\\S]*?DTSTART;VALUE=DATE:20310220[\\s\\S]*?RRULE:FREQ=YEARLY\\r\\n`));
    // Two parsers expand them to their dates of the next year.
    for (const parsed of [withIcalJs(text, '2031-01-01', '2032-12-31'), withNodeIcal(text, '2031-01-01', '2032-12-31')]) {
      expect(parsed.expanded.get(`birthday-series:${leap.id}@life-planner`)).toEqual(['2031-02-28', '2032-02-29']);
      expect(parsed.expanded.get(`task-series:${checkup.id}@life-planner`)).toEqual(['2031-02-14', '2032-02-14']);
      expect(parsed.expanded.get(`transaction-series:${insurance.id}@life-planner`)).toEqual(['2031-02-20', '2032-02-20']);
    }
  });
});

describe('a range far from the series it holds (issue 34, item 2)', () => {
  it('answers a range in 2999 without the COUNT series that ended long before, and one inside them with their dates', async () => {
    const { client } = await signUp(app.url);
    const march = await weekDayIds(client, '2030-03-04');
    const daily = await taskSeries(client, march[0]!, 'Pills', 'FREQ=DAILY;COUNT=1000');
    const weekly = await taskSeries(client, march[0]!, 'Course', 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=1000');
    const account = await created(await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
    const loan = await created(await client.post('/api/v1/transactions', { accountId: account.id, amount: -80, description: 'Loan', date: '2030-03-04', recurrence: 'FREQ=MONTHLY;COUNT=600' }));
    expect(await range(client, '2999-01-01', '2999-12-31', true)).toEqual([]);
    // Inside them: the dates of the rules (the 1,000th day is 27 November 2032; the loan's 600th month, February 2080).
    const inside = await range(client, '2032-11-22', '2032-11-29', true);
    expect(datesOf(inside, 'task', daily.id)).toEqual(['2032-11-22', '2032-11-23', '2032-11-24', '2032-11-25', '2032-11-26', '2032-11-27']);
    expect(datesOf(inside, 'task', weekly.id)).toEqual(['2032-11-22', '2032-11-25']);
    expect(datesOf(await range(client, '2080-01-01', '2080-12-31', true), 'transaction', loan.id)).toEqual(['2080-01-04', '2080-02-04']);
  });

  it('refuses a sub-daily rule on a recurring transaction and task alike (400 naming recurrence)', async () => {
    const { client } = await signUp(app.url);
    const march = await weekDayIds(client, '2030-03-04');
    const res = await client.post('/api/v1/tasks', { title: 'Tick', timebox: 1, dayId: march[0], recurrence: 'FREQ=SECONDLY;COUNT=1000;BYMONTH=3;BYHOUR=0;BYMINUTE=0;BYSECOND=0' });
    expectValidation(res, 'recurrence');
    const account = await created(await client.post('/api/v1/accounts', { name: 'Main', type: 'checking', balance: 0, currency: 'EUR' }));
    expectValidation(await client.post('/api/v1/transactions', { accountId: account.id, amount: -1, date: '2030-03-04', recurrence: 'FREQ=MINUTELY;COUNT=10' }), 'recurrence');
  });
});
