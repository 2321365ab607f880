import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectNotFound, expectValidation, outboxEvents } from '../../test/support/expectations.js';
import { dbRows } from '../files/files.test-helpers.js';
import { weekDays } from '../training/activity.test-helpers.js';
import { GLOBAL_JOURNAL_QUESTIONS, globalJournalQuestionId, seedGlobalJournalQuestions } from './journal-questions.seed.js';

/** Journal questions (global and own) and entries, over REST and GraphQL; JOURNAL ticks with a day's first entry. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let bobId: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
});

const GLOBAL_COUNT = GLOBAL_JOURNAL_QUESTIONS.length;
const firstGlobal = () => globalJournalQuestionId(GLOBAL_JOURNAL_QUESTIONS[0]!.key);

async function ownQuestion(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/journal/questions', { question: 'What made me laugh?', order: 1, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function entry(client: HttpClient, dayId: string, questionId: string, answer = 'A walk in the park'): Promise<any> {
  const res = await client.post('/api/v1/journal/entries', { dayId, questionId, answer });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function journalItem(client: HttpClient, dayId: string): Promise<any> {
  return (await client.get(`/api/v1/checklist/${dayId}`)).body.data.find((i: any) => i.key === 'JOURNAL');
}

describe('journal questions', () => {
  it('seeds the global questions once: seeding again adds nothing and keeps their ids', async () => {
    const before = await dbRows(app, 'select id, question, "order" from journal_questions where is_global order by "order"');
    expect(before).toHaveLength(GLOBAL_COUNT);
    expect(GLOBAL_COUNT).toBeGreaterThanOrEqual(8);
    await seedGlobalJournalQuestions(app.server.orm.em.fork());
    expect(await dbRows(app, 'select id, question, "order" from journal_questions where is_global order by "order"')).toEqual(before);
    expect(before[0].id).toBe(firstGlobal());
  });

  it('lists the global questions then your own by order, with page meta; others never see yours', async () => {
    const { client } = await signUp(app.url);
    const later = await ownQuestion(client, { question: 'Later one', order: 5 });
    const earlier = await ownQuestion(client, { question: '  Earlier one  ', order: 0 });
    expect(earlier).toMatchObject({ question: 'Earlier one', order: 0, isGlobal: false });
    const res = await client.get('/api/v1/journal/questions');
    expect(res.status).toBe(200);
    const list = res.body.data;
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: GLOBAL_COUNT + 2 });
    expect(list.slice(0, GLOBAL_COUNT).every((q: any) => q.isGlobal)).toBe(true);
    expect(list.slice(0, GLOBAL_COUNT).map((q: any) => q.order)).toEqual([...Array(GLOBAL_COUNT).keys()].map((i) => i + 1));
    expect(list.slice(GLOBAL_COUNT).map((q: any) => q.id)).toEqual([earlier.id, later.id]);
    // The spec's fields; createdAt and updatedAt are GraphQL's (issue 36, item 6).
    expect(Object.keys(list[0]).sort()).toEqual(['id', 'isGlobal', 'order', 'question']);

    const page2 = await client.get('/api/v1/journal/questions?page=2&limit=5');
    expect(page2.body.meta).toEqual({ page: 2, limit: 5, total: GLOBAL_COUNT + 2 });
    expect(page2.body.data).toHaveLength(5);

    const other = await bob.get('/api/v1/journal/questions');
    expect(other.body.data.map((q: any) => q.id)).not.toContain(later.id);
  });

  it('a question without order goes after your last one', async () => {
    const { client } = await signUp(app.url);
    expect((await ownQuestion(client, { order: undefined })).order).toBe(0);
    await ownQuestion(client, { order: 7 });
    expect((await ownQuestion(client, { order: undefined, question: 'Third' })).order).toBe(8);
  });

  it('GET, PATCH and DELETE your own question; a global one reads but answers 404 to PATCH and DELETE', async () => {
    const q = await ownQuestion(alice, { question: 'Original?' });
    expect((await alice.get(`/api/v1/journal/questions/${q.id}`)).body.data).toMatchObject({ id: q.id, question: 'Original?' });
    const patched = await alice.patch(`/api/v1/journal/questions/${q.id}`, { question: 'Reworded?', order: 3 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ question: 'Reworded?', order: 3 });

    const global = await alice.get(`/api/v1/journal/questions/${firstGlobal()}`);
    expect(global.body.data).toMatchObject({ isGlobal: true, order: 1 });
    expectNotFound(await alice.patch(`/api/v1/journal/questions/${firstGlobal()}`, { question: 'Mine now' }));
    expectNotFound(await alice.delete(`/api/v1/journal/questions/${firstGlobal()}`));
    expect((await alice.get(`/api/v1/journal/questions/${firstGlobal()}`)).body.data.question).toBe(GLOBAL_JOURNAL_QUESTIONS[0]!.question);

    const gone = await alice.delete(`/api/v1/journal/questions/${q.id}`);
    expect(gone.body.data).toEqual({ id: q.id, message: 'Journal question deleted' });
    expectNotFound(await alice.get(`/api/v1/journal/questions/${q.id}`));
    expectNotFound(await alice.delete(`/api/v1/journal/questions/${q.id}`));
  });

  it("another user's question answers 404 everywhere, exactly like a missing one", async () => {
    const q = await ownQuestion(alice);
    for (const id of [q.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/journal/questions/${id}`));
      expectNotFound(await bob.patch(`/api/v1/journal/questions/${id}`, { question: 'Hijack' }));
      expectNotFound(await bob.delete(`/api/v1/journal/questions/${id}`));
    }
    expect((await alice.get(`/api/v1/journal/questions/${q.id}`)).body.data.question).toBe('What made me laugh?');
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { client, id } = await signUp(app.url);
    for (const body of [{}, { question: '' }, { question: '   ' }, { question: 'x'.repeat(501) }, { question: 42 }, { question: 'ok', order: -1 }, { question: 'ok', order: 1.5 }, { question: 'ok', order: '2' }]) {
      expectValidation(await client.post('/api/v1/journal/questions', body));
    }
    expect(await dbRows(app, 'select id from journal_questions where user_id = ?', [id])).toEqual([]);
    const q = await ownQuestion(client);
    expectValidation(await client.patch(`/api/v1/journal/questions/${q.id}`, { question: null }), 'question');
    expectValidation(await client.patch(`/api/v1/journal/questions/${q.id}`, { order: -3 }), 'order');
    expectValidation(await client.get('/api/v1/journal/questions/not-a-uuid'));
    expect((await client.get(`/api/v1/journal/questions/${q.id}`)).body.data).toMatchObject({ question: 'What made me laugh?', order: 1 });
  });
});

describe('journal entries', () => {
  it('creates entries on a global or own question; the first of a day ticks JOURNAL once, with checklist_completed', async () => {
    const { client, id } = await signUp(app.url);
    const [day, otherDay] = await weekDays(client);
    const own = await ownQuestion(client);
    const first = await entry(client, day!, firstGlobal(), '  Coffee with Sam  ');
    expect(first).toMatchObject({ dayId: day, questionId: firstGlobal(), question: GLOBAL_JOURNAL_QUESTIONS[0]!.question, answer: 'Coffee with Sam' });
    expect(Object.keys(first).sort()).toEqual(['answer', 'dayId', 'id', 'question', 'questionId']);
    expect(await journalItem(client, day!)).toMatchObject({ completed: true, value: null });
    const ticks = await outboxEvents(app, id, 'checklist_completed');
    expect(ticks.map((e) => e.data)).toEqual([{ dayId: day, itemKey: 'JOURNAL', completedAt: expect.any(String) }]);

    // A second entry the same day does not tick again, even after the user unticked the item.
    await client.post(`/api/v1/checklist/${day}/toggle/JOURNAL`);
    expect((await journalItem(client, day!)).completed).toBe(false);
    await entry(client, day!, own.id, 'Second');
    expect((await journalItem(client, day!)).completed).toBe(false);
    expect(await outboxEvents(app, id, 'checklist_completed')).toHaveLength(1);

    // Another day's first entry ticks that day.
    await entry(client, otherDay!, own.id);
    expect((await journalItem(client, otherDay!)).completed).toBe(true);
    expect((await outboxEvents(app, id, 'checklist_completed')).map((e) => e.data.dayId)).toEqual([day, otherDay]);
  });

  it("completes the day when JOURNAL was the last item missing (day_completed, as with a toggle)", async () => {
    const { client, id } = await signUp(app.url);
    const [day] = await weekDays(client);
    const values: Record<string, unknown> = { WATER: 500, MEDITATION: 10, READING: MISSING_ID };
    for (const key of ['MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING', 'MEDITATION', 'PERIMETER']) {
      const res = await client.post(`/api/v1/checklist/${day}/toggle/${key}`, key in values ? { value: values[key] } : undefined);
      expect(res.status, res.text).toBe(200);
    }
    expect(await outboxEvents(app, id, 'day_completed')).toEqual([]);
    await entry(client, day!, firstGlobal());
    expect((await outboxEvents(app, id, 'day_completed')).map((e) => e.data)).toEqual([{ dayId: day, completedAt: expect.any(String) }]);
    expect((await client.get(`/api/v1/days/${day}`)).body.data.completed).toBe(true);
  });

  it('filters by dayId and questionId, oldest first, with page meta', async () => {
    const { client } = await signUp(app.url);
    const [d1, d2] = await weekDays(client);
    const own = await ownQuestion(client);
    const a = await entry(client, d1!, firstGlobal(), 'a');
    const b = await entry(client, d1!, own.id, 'b');
    const c = await entry(client, d2!, own.id, 'c');
    const ids = async (query: string) => {
      const res = await client.get(`/api/v1/journal/entries${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((e: any) => e.id);
    };
    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids(`?dayId=${d1}`)).toEqual([a.id, b.id]);
    expect(await ids(`?questionId=${own.id}`)).toEqual([b.id, c.id]);
    expect(await ids(`?dayId=${d2}&questionId=${own.id}`)).toEqual([c.id]);
    expect(await ids(`?dayId=${d2}&questionId=${firstGlobal()}`)).toEqual([]);
    const page = await client.get('/api/v1/journal/entries?limit=2&page=2');
    expect(page.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    expect(page.body.data.map((e: any) => e.id)).toEqual([c.id]);
  });

  it('GET, PATCH and DELETE an entry; deleting its question keeps the entry with the text as answered', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const own = await ownQuestion(client, { question: 'Best moment?' });
    const e = await entry(client, day!, own.id, 'Sunrise');
    expect((await client.get(`/api/v1/journal/entries/${e.id}`)).body.data).toMatchObject({ answer: 'Sunrise' });
    const patched = await client.patch(`/api/v1/journal/entries/${e.id}`, { answer: 'Sunset' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ id: e.id, answer: 'Sunset', question: 'Best moment?' });

    await client.delete(`/api/v1/journal/questions/${own.id}`);
    expect((await client.get(`/api/v1/journal/entries/${e.id}`)).body.data).toMatchObject({ questionId: null, question: 'Best moment?', answer: 'Sunset' });

    const gone = await client.delete(`/api/v1/journal/entries/${e.id}`);
    expect(gone.body.data).toEqual({ id: e.id, message: 'Journal entry deleted' });
    expectNotFound(await client.get(`/api/v1/journal/entries/${e.id}`));
    // The checklist item stays ticked: deleting an entry does not untick it.
    expect((await journalItem(client, day!)).completed).toBe(true);
  });

  it("another user's day, question or entry answers 404, in the path, the query and the body; nothing is stored", async () => {
    const [aliceDay] = await weekDays(alice);
    const [bobDay] = await weekDays(bob);
    const aliceQuestion = await ownQuestion(alice);
    const aliceEntry = await entry(alice, aliceDay!, aliceQuestion.id);

    expectNotFound(await bob.post('/api/v1/journal/entries', { dayId: aliceDay, questionId: firstGlobal(), answer: 'x' }), 'dayId');
    expectNotFound(await bob.post('/api/v1/journal/entries', { dayId: bobDay, questionId: aliceQuestion.id, answer: 'x' }), 'questionId');
    expectNotFound(await bob.post('/api/v1/journal/entries', { dayId: bobDay, questionId: MISSING_ID, answer: 'x' }), 'questionId');
    expectNotFound(await bob.get(`/api/v1/journal/entries?dayId=${aliceDay}`), 'dayId');
    expectNotFound(await bob.get(`/api/v1/journal/entries?questionId=${aliceQuestion.id}`), 'questionId');
    for (const id of [aliceEntry.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/journal/entries/${id}`));
      expectNotFound(await bob.patch(`/api/v1/journal/entries/${id}`, { answer: 'mine' }));
      expectNotFound(await bob.delete(`/api/v1/journal/entries/${id}`));
    }
    expect((await bob.get('/api/v1/journal/entries')).body.data).toEqual([]);
    expect(await dbRows(app, 'select id from journal_entries where user_id = ?', [bobId])).toEqual([]);
    expect((await journalItem(bob, bobDay!)).completed).toBe(false);
    expect(await outboxEvents(app, bobId, 'checklist_completed')).toEqual([]);
    expect((await alice.get(`/api/v1/journal/entries/${aliceEntry.id}`)).body.data.answer).toBe('A walk in the park');
    expect(aliceId).toBeTruthy();
  });

  it('refuses bad input with 400 and stores nothing (no entry, no tick)', async () => {
    const { client, id } = await signUp(app.url);
    const [day] = await weekDays(client);
    const good = { dayId: day, questionId: firstGlobal(), answer: 'fine' };
    for (const body of [
      { ...good, answer: '' },
      { ...good, answer: '  ' },
      { ...good, answer: 'x'.repeat(10_001) },
      { ...good, answer: 5 },
      { ...good, dayId: 'nope' },
      { ...good, questionId: 'nope' },
      { dayId: day, questionId: firstGlobal() },
      { dayId: day, answer: 'fine' },
    ]) {
      expectValidation(await client.post('/api/v1/journal/entries', body));
    }
    expectValidation(await client.get('/api/v1/journal/entries?dayId=nope'), 'dayId');
    expectValidation(await client.get('/api/v1/journal/entries/nope'));
    expect(await dbRows(app, 'select id from journal_entries where user_id = ?', [id])).toEqual([]);
    expect(await outboxEvents(app, id)).toEqual([]);
    const e = await entry(client, day!, firstGlobal());
    expectValidation(await client.patch(`/api/v1/journal/entries/${e.id}`, { answer: null }), 'answer');
    expectValidation(await client.patch(`/api/v1/journal/entries/${e.id}`, { answer: ' ' }), 'answer');
    expect((await client.get(`/api/v1/journal/entries/${e.id}`)).body.data.answer).toBe('A walk in the park');
  });

  it("shows a day's entries on Day: GraphQL and GET /days/:dayId", async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const e = await entry(client, day!, firstGlobal(), 'Read on the train');
    const gql = await client.graphql(`query($d: UUID!) { day(dayId: $d) { journalEntries { id answer question } } }`, { d: day });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.day.journalEntries).toEqual([{ id: e.id, answer: 'Read on the train', question: GLOBAL_JOURNAL_QUESTIONS[0]!.question }]);
    const rest = await client.get(`/api/v1/days/${day}`);
    expect(rest.body.data.journalEntries).toMatchObject([{ id: e.id, answer: 'Read on the train' }]);
    const mutation = await client.graphql(
      `mutation($d: UUID!, $q: UUID!) { createJournalEntry(dayId: $d, questionId: $q, answer: "via graphql") { id answer } }`,
      { d: day, q: firstGlobal() },
    );
    expect(mutation.body.data.createJournalEntry.answer).toBe('via graphql');
  });
});
