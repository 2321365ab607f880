import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { createPerimeterTasks, generateWeek } from './planning.test-helpers.js';

/**
 * Reading a week costs a fixed number of SQL statements however much it holds: every relation is
 * loaded by one batched query (dataloaders), never one query per day, task or category.
 */
let app: TestApp;
let client: HttpClient;

const SMALL = '2033-01-03';
const LARGE = '2033-01-10';
const TASKS_IN_LARGE = 200;

const WEEK_QUERY = `query($s: LocalDate!) {
  week(startDate: $s) {
    id startDate isStressWeek
    days {
      id date notes minimumMode completed requiredChecklist
      checklist { key completed value required }
      perimeterTasks { id title }
      tasks { id title status category { id name color } }
      bedtimeTargets { wakeTime inBedTime lightsOutTime stressWeek }
    }
  }
}`;

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  ({ client } = await signUp(app.url));

  await client.patch('/api/v1/settings', { wakeTime: '06:30' });
  const perimeter = (await createPerimeterTasks(client, 5)).map((t) => t.id);
  const categories: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await client.post('/api/v1/task-categories', { name: `Category ${i}`, color: '#00AA0' + i });
    expect(res.status, res.text).toBe(201);
    categories.push(res.body.data.id);
  }

  for (const [start, taskCount] of [[SMALL, 1], [LARGE, TASKS_IN_LARGE]] as const) {
    const week = await generateWeek(client, start);
    for (const day of week.days) {
      const set = await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: perimeter.slice(0, 3) });
      expect(set.status, set.text).toBe(200);
      await client.post(`/api/v1/checklist/${day.id}/toggle/WATER`, { value: 500 });
    }
    await addReflection(week.days, taskCount === 1 ? 1 : 3);
    for (let batch = 0; batch < taskCount; batch += 20) {
      const created = await Promise.all(
        Array.from({ length: Math.min(20, taskCount - batch) }, (_, j) => {
          const i = batch + j;
          return client.post('/api/v1/tasks', {
            title: `Task ${i}`,
            timebox: 30,
            dayId: week.days[i % 7].id,
            categoryId: categories[i % categories.length],
          });
        }),
      );
      for (const res of created) expect(res.status, res.text).toBe(201);
    }
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/** Journal entries and reading sessions (each of its own book) on the week's days: `perDay` of each on every day, or one in all when 1. */
async function addReflection(days: { id: string }[], perDay: number): Promise<void> {
  const questions = (await client.get('/api/v1/journal/questions')).body.data;
  const targets = perDay === 1 ? days.slice(0, 1) : days;
  for (const day of targets) {
    for (let i = 0; i < perDay; i++) {
      const entry = await client.post('/api/v1/journal/entries', { dayId: day.id, questionId: questions[i].id, answer: `Answer ${i}` });
      expect(entry.status, entry.text).toBe(201);
      const book = await client.post('/api/v1/books', { title: `Book ${i}`, author: 'Author', totalPages: 300 });
      const session = await client.post('/api/v1/reading-sessions', { dayId: day.id, bookId: book.body.data.id, pagesRead: 10, duration: 15 });
      expect(session.status, session.text).toBe(201);
    }
  }
}

/** The statements the server runs for one request (the fewest of 3 runs, so a stray background query cannot count). */
async function measure(send: () => Promise<{ status: number; text: string; body: any }>): Promise<{ count: number; roundTrips: number; sql: string[]; body: any }> {
  let best: { count: number; roundTrips: number; sql: string[]; body: any } | undefined;
  for (let run = 0; run < 3; run++) {
    const recorder = recordStatements();
    const res = await send().finally(() => recorder.stop());
    const sql = recorder.statements;
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    if (!best || sql.length < best.count) best = { count: sql.length, roundTrips: recorder.roundTrips.length, sql, body: res.body };
  }
  return best!;
}

function taskCount(days: any[]): number {
  return days.reduce((n, d) => n + d.tasks.length, 0);
}

describe('SQL statements per week read', () => {
  it('GET /api/v1/weeks/:startDate runs the same small number of statements for 1 task and for 200', async () => {
    const small = await measure(() => client.get(`/api/v1/weeks/${SMALL}`));
    const large = await measure(() => client.get(`/api/v1/weeks/${LARGE}`));
    expect(small.body.data.days).toHaveLength(7);
    expect(small.body.data.days[0].perimeterTasks).toHaveLength(3);
    expect(taskCount(small.body.data.days)).toBe(1);
    expect(taskCount(large.body.data.days)).toBe(TASKS_IN_LARGE);
    console.info(`REST GET /weeks/:startDate: ${small.count} statements in ${small.roundTrips} round trips (1 task), ${large.count} in ${large.roundTrips} (${TASKS_IN_LARGE} tasks)\n  ${large.sql.map((s) => s.slice(0, 120)).join('\n  ')}`);
    expect(large.count, large.sql.join('\n')).toBe(small.count);
    for (const table of ['journal_entries', 'reading_sessions']) expect(large.sql.filter((q) => q.includes(`from "${table}"`))).toHaveLength(1);
    // REST selects every field of a day, so each domain that hangs a relation on Day adds one statement.
    expect(small.count).toBeLessThanOrEqual(30);
    expect(new Set(large.sql).size).toBe(large.sql.length);
    // The relations of the days start together and share one round trip (src/core/database/read-batch.ts):
    // session, week, days, every Day relation, task categories.
    expect(large.roundTrips).toBe(small.roundTrips);
    expect(small.roundTrips).toBeLessThanOrEqual(5);
  });

  it('the GraphQL week query with days { checklist perimeterTasks tasks { category } bedtimeTargets } does too', async () => {
    const small = await measure(() => client.graphql(WEEK_QUERY, { s: SMALL }));
    const large = await measure(() => client.graphql(WEEK_QUERY, { s: LARGE }));
    expect(small.body.errors).toBeUndefined();
    expect(taskCount(small.body.data.week.days)).toBe(1);
    expect(taskCount(large.body.data.week.days)).toBe(TASKS_IN_LARGE);
    const categories = new Set(large.body.data.week.days.flatMap((d: any) => d.tasks.map((t: any) => t.category.name)));
    expect(categories.size).toBe(5);
    expect(large.body.data.week.days[0].bedtimeTargets.wakeTime).toBe('06:30');
    console.info(`GraphQL week query: ${small.count} statements in ${small.roundTrips} round trips (1 task), ${large.count} in ${large.roundTrips} (${TASKS_IN_LARGE} tasks)\n  ${large.sql.map((s) => s.slice(0, 120)).join('\n  ')}`);
    expect(large.count, large.sql.join('\n')).toBe(small.count);
    // session lookup, week, days, settings, checklist, perimeter links, perimeter tasks, tasks, categories
    expect(small.count).toBeLessThanOrEqual(9);
    expect(small.roundTrips).toBeLessThanOrEqual(5);
  });

  it('GraphQL days with journalEntries and readingSessions { book } add one statement per relation', async () => {
    const query = `query($s: LocalDate!) { week(startDate: $s) { days { id journalEntries { id answer } readingSessions { id pagesRead book { title currentPage } } } } }`;
    const small = await measure(() => client.graphql(query, { s: SMALL }));
    const large = await measure(() => client.graphql(query, { s: LARGE }));
    expect(large.body.errors).toBeUndefined();
    const count = (body: any, field: string) => body.data.week.days.reduce((n: number, d: any) => n + d[field].length, 0);
    expect([count(small.body, 'journalEntries'), count(large.body, 'journalEntries'), count(large.body, 'readingSessions')]).toEqual([1, 21, 21]);
    console.info(`GraphQL week with journal and reading: ${small.count} statements (1 entry, 1 session), ${large.count} (21 entries, 21 sessions of 21 books)`);
    expect(large.count, large.sql.join('\n')).toBe(small.count);
    // session lookup, week, days, journal entries, reading sessions, books
    expect(small.count).toBeLessThanOrEqual(6);
  });

  it('GET /api/v1/days/:dayId stays bounded too', async () => {
    const week = await client.get(`/api/v1/weeks/${LARGE}`);
    const small = await measure(() => client.get(`/api/v1/days/${week.body.data.days[6].id}`));
    const large = await measure(() => client.get(`/api/v1/days/${week.body.data.days[0].id}`));
    console.info(`REST GET /days/:dayId: ${small.count} / ${large.count} statements`);
    expect(large.count).toBe(small.count);
  });
});
