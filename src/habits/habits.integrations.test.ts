import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { expectNotFound, expectValidation } from '../../test/support/expectations.js';
import { addDays, mondayOf, todayIn } from '../core/dates.js';
import { kindContext } from '../reminders/reminder-kind.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from '../reminders/kinds/index.js';
import { localInstant } from '../reminders/kinds/local-time.js';
import { createHabit, dayIdOn, logEntry, MISSING_ID, setTimezone } from './habits.test-helpers.js';

/** Habits seen by the cross-cutting features: reminders (kind `habit`) and the calendar feed. */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const BERLIN = 'Europe/Berlin';
// The reminder engine reads the real clock: these dates are from it, a week or more from the edge of a day.
const daysFromToday = (n: number, zone: string) => addDays(todayIn(zone), n);
const habitKind = REMINDER_KIND_IMPLEMENTATIONS.habit!;
const ctx = () => kindContext({ deps: app.server.deps, em: app.server.orm.em.fork() }, BERLIN);

describe('reminders about a habit', () => {
  it('rings at localTime on the next due day; a done, skipped or resting day is not sent; isolation and rules answer 404/400', async () => {
    const { client, id } = await signUp(app.url);
    await setTimezone(client, BERLIN);
    // Due on Wednesdays only, from a week on: the next due day is known to the minute.
    const start = addDays(mondayOf(daysFromToday(7, BERLIN)), 2);
    const habit = await createHabit(client, { name: 'Swim', schedule: 'WEEKDAYS', weekdays: [3], startDate: start });
    const res = await client.post('/api/v1/reminders', { kind: 'habit', targetId: habit.id, channel: 'email', localTime: '07:30' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'habit', targetId: habit.id, localTime: '07:30', nextDueAt: localInstant(start, '07:30', BERLIN).toISOString() });
    expectValidation(await client.post('/api/v1/reminders', { kind: 'habit', targetId: habit.id, channel: 'email' }), 'localTime');
    expectValidation(await client.post('/api/v1/reminders', { kind: 'habit', channel: 'email', localTime: '07:30' }), 'targetId');
    expectNotFound(await client.post('/api/v1/reminders', { kind: 'habit', targetId: MISSING_ID, channel: 'email', localTime: '07:30' }), 'targetId');
    const other = await signUp(app.url);
    expectNotFound(await other.client.post('/api/v1/reminders', { kind: 'habit', targetId: habit.id, channel: 'email', localTime: '07:30' }), 'targetId');

    const spec = { id: res.body.data.id, userId: id, kind: 'habit' as const, targetId: habit.id, offsetMinutes: 0, localTime: '07:30' };
    const next = await habitKind.nextOccurrence(ctx(), spec, localInstant(start, '07:30', BERLIN));
    expect(next).toEqual({ dueAt: localInstant(addDays(start, 7), '07:30', BERLIN), key: `${habit.id}@${addDays(start, 7)}` });
    const occurrence = { dueAt: localInstant(start, '07:30', BERLIN), key: `${habit.id}@${start}` };
    expect(await habitKind.stillDue(ctx(), spec, occurrence)).toBe(true);
    expect((await habitKind.message(ctx(), spec, occurrence))).toMatchObject({ title: 'Swim', url: `/api/v1/habits/${habit.id}` });
    const day = await dayIdOn(client, start);
    await client.post(`/api/v1/habits/${habit.id}/days/${day}/mark`, { mark: 'SKIP' });
    expect(await habitKind.stillDue(ctx(), spec, occurrence)).toBe(false);
    await client.post(`/api/v1/habits/${habit.id}/days/${day}/mark`, { mark: null });
    await logEntry(client, habit.id, { dayId: day });
    expect(await habitKind.stillDue(ctx(), spec, occurrence)).toBe(false);
    // A minimum-mode day is a rest day: not sent either.
    const later = await dayIdOn(client, addDays(start, 7));
    expect((await client.patch(`/api/v1/days/${later}`, { minimumMode: true })).status).toBe(200);
    expect(await habitKind.stillDue(ctx(), spec, { dueAt: next!.dueAt, key: next!.key })).toBe(false);
    // Archived: no occurrence at all.
    await client.post(`/api/v1/habits/${habit.id}/archive`, {});
    expect(await habitKind.nextOccurrence(ctx(), spec, new Date())).toBeNull();
  });
});

describe('the calendar feed', () => {
  it('shows the active habits as all-day series only when the URL asks for them (?include=habits)', async () => {
    const { client } = await signUp(app.url);
    await setTimezone(client, BERLIN);
    const floss = await createHabit(client, { name: 'Floss', startDate: daysFromToday(-3, BERLIN) });
    await createHabit(client, { name: 'Gym', schedule: 'TIMES_PER_WEEK', timesPerPeriod: 3 });
    await createHabit(client, { name: 'Yoga', schedule: 'WEEKDAYS', weekdays: [2, 4] });
    const archived = await createHabit(client, { name: 'Old habit' });
    await client.post(`/api/v1/habits/${archived.id}/archive`, {});
    const plain = await client.post('/api/v1/agenda/feed', {});
    expect(plain.status, plain.text).toBe(200);
    const withHabits = await client.post('/api/v1/agenda/feed', { includeHabits: true });
    const url = new URL(withHabits.body.data.url);
    expect(url.search).toBe('?include=habits');
    const feed = await fetch(`${app.url}${url.pathname}${url.search}`);
    expect(feed.status).toBe(200);
    const text = await feed.text();
    expect(text).toContain(`UID:habit-${floss.id}@life-planner`);
    expect(text).toContain('SUMMARY:Floss');
    expect(text).toContain('RRULE:FREQ=DAILY');
    expect(text).toContain('SUMMARY:Gym (3× this week)');
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU,TH');
    expect(text).not.toContain('Old habit');
    const without = await (await fetch(`${app.url}${url.pathname}`)).text();
    expect(without).not.toContain('Floss');
    expect(feed.headers.get('etag')).not.toBe((await fetch(`${app.url}${url.pathname}`)).headers.get('etag'));
  });
});
