import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, mondayOf, todayIn } from '../core/dates.js';
import { sql } from '../../test/support/db.js';
import { expectNotFound, expectValidation } from '../../test/support/expectations.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { generateWeeks, runNight, seeded, setDays } from './insights.test-helpers.js';
import { REBUILD_DAYS } from './nightly-insights.js';
import { unzip } from '../../test/support/zip.js';
import { getBytes, pathOf, runExport } from '../portability/export/export.test-helpers.js';

/**
 * Insights through HTTP on the real database: the aggregates read what the domains hold, the nightly
 * job (run with a clock passed in) finds a planted relation and stores it with its numbers and days,
 * runs once per local date in committed batches, and every read is the person's own.
 */
let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

const today = todayIn('UTC');
/** The night after today: every person in UTC is due (04:00 is past the nightly 03:00). */
const tomorrowNight = new Date(`${addDays(today, 1)}T04:00:00.000Z`);

async function ok(res: Promise<{ status: number; text?: string; body: any }>, status = 201): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body.data;
}

/** A person with 70 days where sleep drives mood (planted) and energy is noise; answers their id and client. */
async function plantedPerson(): Promise<{ client: HttpClient; id: string; password: string }> {
  const person = await signUp(app.url);
  const from = addDays(today, -70);
  await generateWeeks(person.client, from, today);
  const next = seeded(7);
  await setDays(app, person.id, from, 70, () => {
    const sleep = 5.5 + Math.floor(next() * 7) * 0.5; // 5.5 … 8.5 h
    return { sleep, mood: Math.max(1, Math.min(10, Math.round(sleep - 1 + next() * 2))), energy: 1 + Math.floor(next() * 10) };
  });
  return person;
}

describe('daily aggregates', () => {
  it("read what the day holds in every domain, in the person's time zone", async () => {
    const { client, id } = await signUp(app.url);
    await ok(client.patch('/api/v1/settings', { timezone: 'Europe/Berlin' }), 200);
    const berlinToday = todayIn('Europe/Berlin');
    await generateWeeks(client, berlinToday, berlinToday);
    const { days } = await ok(client.get(`/api/v1/weeks/${mondayOf(berlinToday)}`), 200);
    const day = days.find((d: any) => d.date === berlinToday);
    const date: string = day.date;
    const logged = await client.graphql(
      `mutation($d: UUID!, $bed: DateTimeISO!) {
        a: logWater(dayId: $d, volume: 500) { id } b: logWater(dayId: $d, volume: 750) { id }
        c: logSteps(dayId: $d, steps: 3000) { steps } e: logSteps(dayId: $d, steps: 5000) { steps }
        logMood(dayId: $d, mood: 7, energy: 6) { mood }
        logSleep(dayId: $d, duration: 7.5, bedtime: $bed) { duration }
      }`,
      { d: day.id, bed: `${addDays(date, -1)}T22:10:00.000Z` }, // 23:10 in Berlin (winter) or 00:10 (summer)
    );
    expect(logged.body.errors).toBeUndefined();
    const book = await ok(client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 600 }));
    await ok(client.post('/api/v1/reading-sessions', { dayId: day.id, bookId: book.id, pagesRead: 20, duration: 35 }));
    await ok(client.post('/api/v1/cardio/sessions', { dayId: day.id, type: 'run', duration: 30, intensity: 5 }));
    const account = await ok(client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 100, currency: 'EUR' }));
    await ok(client.post('/api/v1/transactions', { accountId: account.id, amount: -12.5, date, category: 'Food' }));
    await ok(client.post('/api/v1/transactions', { accountId: account.id, amount: -7.5, date, category: 'food' }));
    await ok(client.post('/api/v1/transactions', { accountId: account.id, amount: -30, date }));
    await ok(client.post('/api/v1/transactions', { accountId: account.id, amount: 1000, date, category: 'salary' }));
    await ok(client.post('/api/v1/social-happenings', { dayId: day.id, title: 'Lunch', startTime: `${date}T11:00:00.000Z`, endTime: `${date}T12:00:00.000Z` }));
    // Habits: one reached its target that day (flossed), one did not (one glass of three).
    const floss = await ok(client.post('/api/v1/habits', { name: 'Floss' }));
    await ok(client.post(`/api/v1/habits/${floss.id}/entries`, { dayId: day.id }));
    const glasses = await ok(client.post('/api/v1/habits', { name: 'Glasses', kind: 'COUNT', target: 3 }));
    await ok(client.post(`/api/v1/habits/${glasses.id}/entries`, { dayId: day.id, value: 1 }));
    const task = await ok(client.post('/api/v1/tasks', { title: 'Report', timebox: 30, dayId: day.id }));
    await ok(client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }), 200);

    const run = await runNight(app, new Date(`${addDays(date, 1)}T04:00:00.000Z`), [id]);
    expect(run).toMatchObject({ people: 1, batches: 1, more: false });
    const [row] = await sql(app.databaseUrl, 'select * from insight_days where user_id = $1 and date = $2', [id, date]);
    expect(row).toMatchObject({
      sleep_hours: 7.5,
      mood: 7,
      energy: 6,
      steps: 8000,
      water_ml: 1250,
      reading_minutes: 35,
      training_sessions: 1,
      social_happenings: 1,
      spending: '50.00',
      spending_by_category: { food: 20, '': 30 },
      tasks_done: 1,
      tasks_deferred: 0,
      habits_done: 1,
    });
    // 23:10 (winter) or 00:10 (summer) in Berlin, as minutes after noon.
    expect([670, 730]).toContain(row!.bedtime_minutes);

    // The summaries read the same live: this day a year later looks back at it; the week shows it.
    const lastYear = await ok(client.get(`/api/v1/insights/this-day-last-year?date=${addDays(date, 365 + (isLeapSpan(date) ? 1 : 0))}`), 200);
    expect(lastYear.lastYearDate).toBe(date);
    expect(lastYear.values.map((v: any) => [v.metric, v.text])).toEqual(
      expect.arrayContaining([['sleepHours', '7.5 h'], ['steps', '8,000 steps'], ['water', '1,250 ml'], ['readingMinutes', '35 min'], ['mood', '7/10']]),
    );
    expect(lastYear.spending).toEqual([{ category: '', amount: 30 }, { category: 'food', amount: 20 }]);
    expect(lastYear.sentence).toMatch(new RegExp(`^A year ago \\(${date}\\): sleep 7.5 h, bedtime \\d\\d:10, steps 8,000 steps`));
  });
});

/** Whether the year after `date` holds a 29 February (then "a year later" is 366 days on). */
function isLeapSpan(date: string): boolean {
  const year = Number(date.slice(0, 4));
  const feb29 = (y: number) => new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1;
  return (date.slice(5) <= '02-28' && feb29(year)) || (date.slice(5) > '02-28' && feb29(year + 1));
}

describe('the nightly job', () => {
  it('finds the planted relation and answers it through REST and GraphQL with its sentence, numbers and days', async () => {
    const { client, id } = await plantedPerson();
    const run = await runNight(app, tomorrowNight, [id]);
    expect(run.people).toBe(1);
    expect(run.tests).toBeGreaterThan(0);

    const list = await client.get('/api/v1/insights');
    expect(list.status, list.text).toBe(200);
    const found = list.body.data.find((i: any) => i.condition === 'sleepHours' && i.outcome === 'mood');
    expect(found).toMatchObject({ lag: 0 });
    expect(found.q).toBeLessThanOrEqual(0.05);
    expect(found.rho).toBeGreaterThan(0.5);
    expect(found.n).toBe(70);
    expect(found.days).toHaveLength(70);
    expect(found.days[0]).toBe(addDays(today, -70));
    expect(found.effect).toBeGreaterThan(0);
    expect(found.meanWith - found.meanWithout).toBeCloseTo(found.effect, 10);
    expect(found.sentence).toMatch(/^On days after you sleep [\d.]+ h or more, your mood is [\d.]+ points? higher \(70 days, q [<=] [\d.]+\)$/);
    // Energy is noise: nothing surfaces about it.
    expect(list.body.data.filter((i: any) => i.condition === 'energy' || i.outcome === 'energy')).toEqual([]);
    expect(list.body.meta).toMatchObject({ page: 1, total: list.body.data.length });

    expect(await ok(client.get(`/api/v1/insights/${found.id}`), 200)).toEqual(found);
    const gql = await client.graphql(`{ insights(metric: mood, limit: 5) { items { id sentence rho n p q effect lag condition outcome days } meta { total } } }`);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.insights.items.map((i: any) => i.id)).toContain(found.id);
    const filtered = await client.get('/api/v1/insights?metric=energy');
    expect(filtered.body.data).toEqual([]);
    expectValidation(await client.get('/api/v1/insights?metric=happiness'));
  });

  it('runs once per local date: a second run the same night does nothing, the next night rebuilds only the last weeks', async () => {
    const { id, client } = await plantedPerson();
    // The next night aggregates tomorrow too: its day exists even when today ends a week (a Sunday).
    await generateWeeks(client, addDays(today, 1), addDays(today, 1));
    expect((await runNight(app, tomorrowNight, [id])).people).toBe(1);
    const first = await sql(app.databaseUrl, 'select id, date::text from insight_days where user_id = $1 order by date', [id]);
    const insights = await sql(app.databaseUrl, 'select id from insights where user_id = $1 order by id', [id]);
    // Every day of the generated weeks up to today (the day before the night): those before the
    // planted 70 hold zeros and nulls.
    expect(first[0]!.date).toBe(mondayOf(addDays(today, -70)));
    expect(first.at(-1)!.date).toBe(today);
    // A restart the same night: the person's run is committed, nothing is due.
    expect(await runNight(app, new Date(tomorrowNight.getTime() + 3_600_000), [id])).toMatchObject({ people: 0, days: 0 });
    expect(await sql(app.databaseUrl, 'select id from insights where user_id = $1 order by id', [id])).toEqual(insights);
    // Before 03:00 of the next local date: not yet.
    expect((await runNight(app, new Date(`${addDays(today, 2)}T02:59:00.000Z`), [id])).people).toBe(0);
    const next = await runNight(app, new Date(`${addDays(today, 2)}T03:00:00.000Z`), [id]);
    expect(next).toMatchObject({ people: 1 });
    // The last REBUILD_DAYS before the previous run's last day, and the day since.
    expect(next.days).toBeLessThanOrEqual(REBUILD_DAYS + 1);
    const second = await sql(app.databaseUrl, 'select id, date::text from insight_days where user_id = $1 order by date', [id]);
    // Days older than the rebuilt weeks kept their rows; the rebuilt ones are new rows.
    const rebuiltFrom = addDays(today, 1 - REBUILD_DAYS);
    const kept = second.filter((r) => r.date < rebuiltFrom);
    expect(kept.length).toBeGreaterThan(30);
    expect(kept.map((r) => r.id)).toEqual(first.filter((r) => r.date < rebuiltFrom).map((r) => r.id));
    expect(second.filter((r) => r.date >= rebuiltFrom).some((r) => first.some((f) => f.id === r.id))).toBe(false);
    expect(second.at(-1)!.date).toBe(addDays(today, 1));
    expect(await sql(app.databaseUrl, 'select run_date::text, aggregated_through::text from insight_runs where user_id = $1', [id])).toEqual([
      { run_date: addDays(today, 2), aggregated_through: addDays(today, 1) },
    ]);
  });

  it('builds a new person whole once they have days, and rebuilds the whole window every seventh night', async () => {
    const person = await signUp(app.url);
    const runOf = async () => sql(app.databaseUrl, 'select aggregated_through::text, full_built_on::text from insight_runs where user_id = $1', [person.id]);
    const night = (k: number) => new Date(`${addDays(today, 1 + k)}T04:00:00.000Z`);
    // The first night comes before they have a day: nothing built, they stay on their first run.
    expect(await runNight(app, night(0), [person.id])).toMatchObject({ people: 1, days: 0 });
    expect(await runOf()).toEqual([{ aggregated_through: null, full_built_on: null }]);
    // Their history arrives later (an import, a backfill): the next night builds all of it.
    const from = addDays(today, -60);
    await generateWeeks(person.client, from, today);
    await setDays(app, person.id, from, 61, () => ({ sleep: 7, mood: 6, energy: null }));
    await runNight(app, night(1), [person.id]);
    const sleepOn = async (date: string) => (await sql(app.databaseUrl, 'select sleep_hours from insight_days where user_id = $1 and date = $2', [person.id, date]))[0]?.sleep_hours;
    expect(await sql(app.databaseUrl, 'select min(date)::text as first, count(*)::int as n from insight_days where user_id = $1 and sleep_hours is not null', [person.id])).toEqual([{ first: from, n: 61 }]);
    expect(await runOf()).toEqual([{ aggregated_through: addDays(today, 1), full_built_on: addDays(today, 2) }]);
    // An edit 50 days back: the ordinary nights leave it, the seventh night after the full build takes it in.
    const old = addDays(today, -50);
    await sql(app.databaseUrl, 'update days set sleep_hours = 4 where user_id = $1 and date = $2', [person.id, old]);
    for (let k = 2; k < 8; k++) expect((await runNight(app, night(k), [person.id])).days).toBeLessThanOrEqual(REBUILD_DAYS + 1);
    expect(await sleepOn(old)).toBe(7);
    expect((await runNight(app, night(8), [person.id])).days).toBeGreaterThan(60);
    expect(await sleepOn(old)).toBe(4);
    expect(await runOf()).toEqual([{ aggregated_through: addDays(today, 8), full_built_on: addDays(today, 9) }]);
  });

  it('works in committed batches: a run stopped at its batch cap leaves the rest due, and the next run takes them', async () => {
    const people = [await plantedPerson(), await plantedPerson(), await plantedPerson()];
    const ids = people.map((p) => p.id);
    const first = await runNight(app, tomorrowNight, ids, { batchPeople: 2, maxBatches: 1 });
    expect(first).toMatchObject({ people: 2, batches: 1, more: true });
    const done = await sql(app.databaseUrl, 'select user_id from insight_runs where user_id = any($1) and run_date is not null', [ids]);
    expect(done).toHaveLength(2);
    const second = await runNight(app, tomorrowNight, ids, { batchPeople: 2, maxBatches: 1 });
    expect(second).toMatchObject({ people: 1, more: false });
    expect((await runNight(app, tomorrowNight, ids)).people).toBe(0);
    // Stopped before its first batch (a shutdown): nothing done, nothing lost.
    const stopped = new AbortController();
    stopped.abort();
    expect(await runNight(app, new Date(tomorrowNight.getTime() + 86_400_000), ids, { signal: stopped.signal })).toMatchObject({ people: 0, more: true });
  });
});

describe('isolation', () => {
  it("never shows another person's insights: their ids answer 404 like missing ones, lists stay empty", async () => {
    const owner = await plantedPerson();
    await runNight(app, tomorrowNight, [owner.id]);
    const [insight] = (await owner.client.get('/api/v1/insights')).body.data;
    expect(insight).toBeDefined();
    const { client: other } = await signUp(app.url);
    expectNotFound(await other.get(`/api/v1/insights/${insight.id}`));
    expectNotFound(await other.get(`/api/v1/insights/${MISSING_ID}`));
    expect((await other.get('/api/v1/insights')).body).toMatchObject({ data: [], meta: { total: 0 } });
    const gql = await other.graphql(`query($id: UUID!) { insight(insightId: $id) { id } }`, { id: insight.id });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // The other person's summaries hold none of the owner's days.
    const summary = await ok(other.get(`/api/v1/insights/weekly-summary?date=${today}`), 200);
    expect(summary.metrics).toEqual([]);
    expect((await ok(other.get(`/api/v1/insights/this-day-last-year?date=${addDays(today, 300)}`), 200)).values).toEqual([]);
    expect((await app.http.get('/api/v1/insights')).status).toBe(401);
  });
});

describe('weekly summary', () => {
  it('names what rose and fell against the same weekdays of the week before, and the streaks', async () => {
    const { client, id } = await signUp(app.url);
    const monday = '2026-03-02';
    await generateWeeks(client, addDays(monday, -14), addDays(monday, 6));
    // Two weeks before: short nights; this week: long nights and low mood; mood logged every day.
    await setDays(app, id, addDays(monday, -14), 21, (i) => ({ sleep: i < 14 ? 6 : 8, mood: i < 14 ? 7 : 5, energy: null }));
    const summary = await ok(client.get(`/api/v1/insights/weekly-summary?date=${addDays(monday, 3)}`), 200);
    expect(summary).toMatchObject({ weekStart: monday, weekEnd: addDays(monday, 6), through: addDays(monday, 6), rose: ['sleepHours'], fell: ['mood'] });
    expect(summary.metrics.find((m: any) => m.metric === 'sleepHours')).toMatchObject({ thisWeek: 8, previousWeek: 6, change: 2, direction: 'rose', daysLogged: 7 });
    expect(summary.sentences).toContain('Sleep rose from 6 h to 8 h a night (against the same days of the week before).');
    expect(summary.streaks).toEqual(expect.arrayContaining([expect.objectContaining({ metric: 'mood', days: 21, through: addDays(monday, 6), sentence: 'You logged your mood 21 days in a row.' })]));
    const gql = await client.graphql(`query($d: LocalDate) { insightsWeeklySummary(date: $d) { rose fell metrics { metric direction } streaks { metric days } } }`, { d: monday });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.insightsWeeklySummary.rose).toEqual(['sleepHours']);
    expectValidation(await client.get('/api/v1/insights/weekly-summary?date=2026-13-01'));
  });
});

describe('the account', () => {
  it("exports the person's insights and days, and takes them when it is deleted", async () => {
    const person = await plantedPerson();
    const { id, client } = person;
    await runNight(app, tomorrowNight, [id]);
    const stored = (await client.get('/api/v1/insights')).body.data;
    expect(stored.length).toBeGreaterThan(0);
    const finished = await runExport(client);
    expect(finished.status).toBe('done');
    const zip = await getBytes(client, pathOf(finished.url!));
    const data = JSON.parse((await unzip(zip.body)).get('data.json')!.toString('utf8'));
    expect(data.insights.insights.map((i: any) => i.id).sort()).toEqual(stored.map((i: any) => i.id).sort());
    expect(data.insights.insights[0]).toMatchObject({ sentence: expect.any(String), days: expect.any(Array) });
    expect(data.insights.days.length).toBeGreaterThanOrEqual(70);

    const res = await client.delete('/api/v1/account', { body: { password: person.password } });
    expect(res.status, res.text).toBe(200);
    for (const table of ['insights', 'insight_days', 'insight_runs']) {
      expect(await sql(app.databaseUrl, `select id from ${table} where user_id = $1`, [id])).toEqual([]);
    }
  }, 120_000);
});
