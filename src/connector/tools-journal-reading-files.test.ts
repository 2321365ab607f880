import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import type { HttpClient } from '../../test/support/http-client.js';
import { fetchHandedOut, makeImage, makePdf, upload } from '../files/files.test-helpers.js';
import { GLOBAL_JOURNAL_QUESTIONS } from '../journal/journal-questions.seed.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/**
 * Issue 25: the journal, reading and files tools, through the SDK client connected over OAuth (every
 * answer checked against its outputSchema). Lazy image variants: nothing renders unless asked for.
 */
type Connected = Awaited<ReturnType<typeof connectedUser>>;
let app: TestApp;
let alice: Connected;
let bob: Connected;
let aliceToday: { id: string; date: string };

beforeAll(async () => {
  app = await startConnectorApp({ IMAGE_PROCESSING_MODE: 'lazy' });
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
  aliceToday = (await alice.user.client.get('/api/v1/days/today')).body.data;
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close()]);
  await app?.close();
});

async function xp(client: HttpClient): Promise<number> {
  const res = await client.get('/api/v1/gamification/stats');
  expect(res.status, res.text).toBe(200);
  return res.body.data.xp;
}

async function outbox(userId: string): Promise<{ event: string; data: any }[]> {
  return sql(app.databaseUrl, 'select event, data from event_outbox where user_id = $1 order by occurred_at, id', [userId]);
}

async function entryCount(userId: string): Promise<number> {
  return (await sql(app.databaseUrl, 'select count(*)::int as n from journal_entries where user_id = $1', [userId]))[0]!.n;
}

const GLOBALS = GLOBAL_JOURNAL_QUESTIONS.length;

describe('journal', () => {
  it("answers today's journal questions with the user (scripted conversation)", async () => {
    // "Let's do today's journal together."
    const today = await callOk(alice.client, 'journal_today');
    expect(today).toMatchObject({ dayId: aliceToday.id, date: aliceToday.date, answeredCount: 0, unansweredCount: GLOBALS, otherAnswers: [] });
    expect(today.questions.map((q: any) => q.question)).toEqual(GLOBAL_JOURNAL_QUESTIONS.map((q) => q.question));
    expect(today.questions.every((q: any) => q.isGlobal && !q.answered && q.answers.length === 0)).toBe(true);

    // One answer per question; "what did you learn" is named the way a person says it.
    for (const [i, q] of today.questions.entries()) {
      const args = q.question === 'What did you learn today?' ? { question: 'what did you learn', answer: `Answer ${i}` } : { questionId: q.questionId, answer: `  Answer ${i}  ` };
      const answered = await callOk(alice.client, 'journal_answer', args);
      expect(answered).toMatchObject({ dayId: aliceToday.id, questionId: q.questionId, question: q.question, answer: `Answer ${i}`, unansweredCount: GLOBALS - 1 - i });
    }

    const after = await callOk(alice.client, 'journal_today');
    expect(after).toMatchObject({ dayId: aliceToday.id, answeredCount: GLOBALS, unansweredCount: 0 });
    expect(after.questions.map((q: any) => [q.answered, q.answers.map((a: any) => a.answer)])).toEqual(today.questions.map((_: any, i: number) => [true, [`Answer ${i}`]]));

    // The app shows the same: the day's entries and its JOURNAL item.
    const rest = await alice.user.client.get(`/api/v1/journal/entries?dayId=${aliceToday.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((e: any) => [e.id, e.questionId, e.answer])).toEqual(after.questions.map((q: any) => [q.answers[0].entryId, q.questionId, q.answers[0].answer]));
    const checklist = (await alice.user.client.get(`/api/v1/checklist/${aliceToday.id}`)).body.data;
    expect(checklist.find((i: any) => i.key === 'JOURNAL')).toMatchObject({ completed: true });

    // The day's first answer ticked JOURNAL (once); each answer earned 5 XP, the item 5 more.
    const events = await outbox(alice.user.id);
    expect(events.filter((e) => e.event === 'checklist_completed').map((e) => e.data)).toEqual([expect.objectContaining({ dayId: aliceToday.id, itemKey: 'JOURNAL' })]);
    expect(events.filter((e) => e.event === 'achievement_unlocked').map((e) => e.data.achievementKey)).toContain('first_journal_entry');
    expect(await xp(alice.user.client)).toBe(GLOBALS * 5 + 5);
  });

  it('journal_answer refuses bad arguments, unknown and ambiguous names, and another user’s question or day', async () => {
    const before = await entryCount(alice.user.id);
    expect(await callError(alice.client, 'journal_answer', { questionId: MISSING_ID, answer: '   ' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['answer'], message: 'answer must not be blank' }] },
    });
    expect((await callError(alice.client, 'journal_answer', { answer: 'x' })).code).toBe('VALIDATION_ERROR');
    const unknown = await callError(alice.client, 'journal_answer', { question: 'Never asked', answer: 'x' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates).toHaveLength(GLOBALS);
    const ambiguous = await callError(alice.client, 'journal_answer', { question: 'today', answer: 'x' });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates.length).toBeGreaterThan(1);
    expect(await callError(alice.client, 'journal_answer', { questionId: MISSING_ID, answer: 'x' })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'questionId' } });

    const own = await callOk(alice.client, 'journal_add_question', { question: 'Which song was stuck in my head?' });
    expect(await callError(bob.client, 'journal_answer', { questionId: own.id, answer: 'x' })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'questionId' } });
    expect((await callError(bob.client, 'journal_answer', { question: 'song was stuck', answer: 'x' })).code).toBe('NOT_FOUND');
    const globalId = (await callOk(bob.client, 'journal_today')).questions[0].questionId;
    expect(await callError(bob.client, 'journal_answer', { questionId: globalId, dayId: aliceToday.id, answer: 'x' })).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('Day') });
    expect((await callError(bob.client, 'journal_today', { dayId: aliceToday.id })).code).toBe('NOT_FOUND');
    expect((await callError(alice.client, 'journal_today', { dayId: 'today' })).code).toBe('VALIDATION_ERROR');
    expect(await entryCount(alice.user.id)).toBe(before);
    expect(await entryCount(bob.user.id)).toBe(0);
  });

  it('journal_add_question adds a question of the user’s own, asked after the global ones (no event); answering it earns 5 XP', async () => {
    const events = (await outbox(alice.user.id)).length;
    // After the user's last question by default (the song question of the test above has order 0).
    const added = await callOk(alice.client, 'journal_add_question', { question: '  What made me laugh?  ' });
    expect(added).toEqual({ id: expect.any(String), question: 'What made me laugh?', order: 1, isGlobal: false });
    expect((await outbox(alice.user.id)).length).toBe(events);
    const rest = await alice.user.client.get(`/api/v1/journal/questions/${added.id}`);
    expect(rest.body.data).toMatchObject({ question: 'What made me laugh?', order: 1, isGlobal: false });

    const today = await callOk(alice.client, 'journal_today');
    expect(today.questions.slice(GLOBALS).map((q: any) => [q.question, q.isGlobal, q.answered])).toEqual([
      ['Which song was stuck in my head?', false, false],
      ['What made me laugh?', false, false],
    ]);
    expect((await callOk(bob.client, 'journal_today')).questions.map((q: any) => q.questionId)).not.toContain(added.id);

    const xpBefore = await xp(alice.user.client);
    const answered = await callOk(alice.client, 'journal_answer', { question: 'made me laugh', answer: 'The cat' });
    expect(answered).toMatchObject({ questionId: added.id, answer: 'The cat', unansweredCount: 1 }); // the song question
    expect(await xp(alice.user.client)).toBe(xpBefore + 5);
    expect((await outbox(alice.user.id)).filter((e) => e.event === 'checklist_completed')).toHaveLength(1);

    // The same words as GraphQL for the same rule.
    expect(await callError(alice.client, 'journal_add_question', { question: 'Q', order: -1 })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['order'], message: 'order must not be negative' }] },
    });
    const graphql = await alice.user.client.graphql('mutation { createJournalQuestion(question: "Q", order: -1) { id } }');
    expect(JSON.stringify(graphql.body.errors)).toContain('order must not be negative');
    expect((await callError(alice.client, 'journal_add_question', { question: 'Q', order: 10_001 })).details.errors[0].message).toBe('order must be at most 10000');
    expect((await callError(alice.client, 'journal_add_question', { question: 'x'.repeat(501) })).details.errors[0].message).toBe('question must be at most 500 characters');
  });

  it('journal_change_answer rewords an answer (no event, no XP); another user’s entry is NOT_FOUND', async () => {
    const today = await callOk(alice.client, 'journal_today');
    const entryId = today.questions[0].answers[0].entryId;
    const [xpBefore, eventsBefore] = [await xp(alice.user.client), (await outbox(alice.user.id)).length];
    const changed = await callOk(alice.client, 'journal_change_answer', { entryId, answer: ' Sun, tea and friends ' });
    expect(changed).toMatchObject({ id: entryId, dayId: aliceToday.id, questionId: today.questions[0].questionId, answer: 'Sun, tea and friends' });
    expect((await alice.user.client.get(`/api/v1/journal/entries/${entryId}`)).body.data.answer).toBe('Sun, tea and friends');
    expect((await callOk(alice.client, 'journal_today')).questions[0].answers).toEqual([expect.objectContaining({ entryId, answer: 'Sun, tea and friends' })]);
    expect(await xp(alice.user.client)).toBe(xpBefore);
    expect((await outbox(alice.user.id)).length).toBe(eventsBefore);

    expect((await callError(alice.client, 'journal_change_answer', { entryId, answer: '' })).details.errors[0]).toEqual({ path: ['answer'], message: 'answer must not be empty' });
    expect((await callError(bob.client, 'journal_change_answer', { entryId, answer: 'mine now' })).code).toBe('NOT_FOUND');
    expect((await callError(alice.client, 'journal_change_answer', { entryId: MISSING_ID, answer: 'x' })).code).toBe('NOT_FOUND');
    expect((await alice.user.client.get(`/api/v1/journal/entries/${entryId}`)).body.data.answer).toBe('Sun, tea and friends');
  });
});

describe('reading', () => {
  let dune: any;

  it('reading_add_book adds a book (no event); bounds and the page rule refuse, nothing stored', async () => {
    const events = (await outbox(alice.user.id)).length;
    dune = await callOk(alice.client, 'reading_add_book', { title: ' Dune ', author: 'Frank Herbert', totalPages: 400 });
    expect(dune).toEqual({ id: expect.any(String), title: 'Dune', author: 'Frank Herbert', currentPage: 0, totalPages: 400, percent: 0, finished: false, coverFileId: null, createdAt: expect.any(String) });
    expect((await alice.user.client.get(`/api/v1/books/${dune.id}`)).body.data).toMatchObject({ title: 'Dune', totalPages: 400, currentPage: 0 });
    expect((await outbox(alice.user.id)).length).toBe(events);

    expect(await callError(alice.client, 'reading_add_book', { title: 'Zero', author: 'A', totalPages: 0 })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['totalPages'], message: 'totalPages must be at least 1' }] },
    });
    expect(await callError(alice.client, 'reading_add_book', { title: 'Over', author: 'A', totalPages: 10, currentPage: 11 })).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ path: ['currentPage'] }] },
    });
    expect(await callError(alice.client, 'reading_add_book', { title: 'Covered', author: 'A', totalPages: 10, coverUrl: MISSING_ID })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'coverUrl' } });
    expect((await alice.user.client.get('/api/v1/books')).body.data.map((b: any) => b.title)).toEqual(['Dune']);
  });

  it('reading_log_session by title moves the book on, ticks READING (checklist_completed) and earns XP; by id it caps at the last page', async () => {
    const xpBefore = await xp(alice.user.client);
    const logged = await callOk(alice.client, 'reading_log_session', { book: 'dune', pagesRead: 100, duration: 45 });
    expect(logged).toMatchObject({ dayId: aliceToday.id, pagesRead: 100, duration: 45, book: { id: dune.id, currentPage: 100, totalPages: 400, percent: 25, finished: false } });
    const reading = (await outbox(alice.user.id)).filter((e) => e.event === 'checklist_completed' && e.data.itemKey === 'READING');
    expect(reading.map((e) => e.data.dayId)).toEqual([aliceToday.id]);
    expect(await xp(alice.user.client)).toBe(xpBefore + 10 + 5);
    const checklist = (await alice.user.client.get(`/api/v1/checklist/${aliceToday.id}`)).body.data;
    expect(checklist.find((i: any) => i.key === 'READING')).toMatchObject({ completed: true, bookId: dune.id });
    expect((await alice.user.client.get(`/api/v1/reading-sessions?bookId=${dune.id}`)).body.data.map((s: any) => [s.id, s.pagesRead, s.duration])).toEqual([[logged.id, 100, 45]]);

    const rest = await callOk(alice.client, 'reading_log_session', { bookId: dune.id, pagesRead: 1000, duration: 60 });
    expect(rest.book).toMatchObject({ currentPage: 400, percent: 100, finished: true });
    expect(await xp(alice.user.client)).toBe(xpBefore + 10 + 5 + 10);
    expect((await outbox(alice.user.id)).filter((e) => e.event === 'checklist_completed' && e.data.itemKey === 'READING')).toHaveLength(1);
  });

  it('reading_log_session refuses bounds, ambiguous titles and another user’s book or day', async () => {
    await callOk(alice.client, 'reading_add_book', { title: 'The Hobbit', author: 'J. R. R. Tolkien', totalPages: 310 });
    await callOk(alice.client, 'reading_add_book', { title: 'The Road', author: 'Cormac McCarthy', totalPages: 287 });
    const sessions = async () => (await sql(app.databaseUrl, 'select count(*)::int as n from reading_sessions')).at(0)!.n;
    const before = await sessions();
    expect((await callError(alice.client, 'reading_log_session', { bookId: dune.id, pagesRead: 0, duration: 10 })).details.errors).toEqual([{ path: ['pagesRead'], message: 'pagesRead must be at least 1' }]);
    expect((await callError(alice.client, 'reading_log_session', { bookId: dune.id, pagesRead: 5, duration: 1441 })).details.errors).toEqual([{ path: ['duration'], message: 'duration must be at most 1440 minutes' }]);
    const ambiguous = await callError(alice.client, 'reading_log_session', { book: 'the', pagesRead: 5, duration: 10 });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates.map((c: any) => c.name).sort()).toEqual(['The Hobbit', 'The Road']);
    expect(await callError(bob.client, 'reading_log_session', { bookId: dune.id, pagesRead: 5, duration: 10 })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'bookId' } });
    expect(await callError(bob.client, 'reading_log_session', { book: 'Dune', pagesRead: 5, duration: 10 })).toMatchObject({ code: 'NOT_FOUND', details: { candidates: [] } });
    const bobBook = await callOk(bob.client, 'reading_add_book', { title: 'Emma', author: 'Jane Austen', totalPages: 474 });
    expect((await callError(bob.client, 'reading_log_session', { bookId: bobBook.id, dayId: aliceToday.id, pagesRead: 5, duration: 10 })).code).toBe('NOT_FOUND');
    expect(await sessions()).toBe(before);
    expect((await alice.user.client.get(`/api/v1/books/${dune.id}`)).body.data.currentPage).toBe(400);
  });

  it('reading_books lists the user’s books with progress, paginated; another user sees only theirs', async () => {
    const all = await callOk(alice.client, 'reading_books');
    expect(all.books.map((b: any) => [b.title, b.currentPage, b.percent, b.finished])).toEqual([
      ['Dune', 400, 100, true],
      ['The Hobbit', 0, 0, false],
      ['The Road', 0, 0, false],
    ]);
    expect(all.meta).toEqual({ page: 1, limit: 50, total: 3 });
    const second = await callOk(alice.client, 'reading_books', { page: 2, limit: 1 });
    expect(second).toMatchObject({ books: [{ title: 'The Hobbit' }], meta: { page: 2, limit: 1, total: 3 } });
    expect((await callOk(bob.client, 'reading_books')).books.map((b: any) => b.title)).toEqual(['Emma']);
    expect((await callError(alice.client, 'reading_books', { limit: 0 })).details.errors).toEqual([{ path: ['limit'], message: 'limit must not be less than 1' }]);
  });
});

describe('files', () => {
  it('files_list answers the user’s files with signed URLs that download the same bytes, and variant URLs once made', async () => {
    const png = await makeImage('png', 64, 48);
    const pdf = makePdf('Receipt');
    const image = await upload(alice.user.client, png, 'image', 'holiday photo.png', 'image/png');
    expect(image.status, image.text).toBe(201);
    const doc = await upload(alice.user.client, pdf, 'document', 'receipt.pdf', 'application/pdf');
    expect(doc.status, doc.text).toBe(201);

    const listed = await callOk(alice.client, 'files_list');
    expect(listed.meta).toEqual({ page: 1, limit: 50, total: 2 });
    expect(listed.files.map((f: any) => [f.id, f.fileName, f.fileType, f.mimeType, f.size, f.width, f.height, f.variants])).toEqual([
      [doc.body.data.id, 'receipt.pdf', 'document', 'application/pdf', pdf.length, null, null, []],
      [image.body.data.id, 'holiday photo.png', 'image', 'image/png', png.length, 64, 48, []],
    ]);
    for (const [file, bytes] of [[listed.files[0], pdf], [listed.files[1], png]] as const) {
      expect(new Date(file.urlExpiresAt).getTime()).toBeGreaterThan(Date.now());
      const fetched = await fetchHandedOut(app, file.url);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe(file.mimeType);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    }

    // A thumbnail made by the app (GraphQL fileUrl) shows up with its own URL.
    const made = await alice.user.client.graphql('query($id: UUID!) { fileUrl(fileId: $id, variant: thumbnail) { url width height } }', { id: image.body.data.id });
    expect(made.body.errors, made.text).toBeUndefined();
    const one = await callOk(alice.client, 'files_list', { fileId: image.body.data.id });
    expect(one.meta).toEqual({ page: 1, limit: 1, total: 1 });
    expect(one.files[0].variants).toEqual([{ variant: 'thumbnail', width: made.body.data.fileUrl.width, height: made.body.data.fileUrl.height, url: expect.any(String) }]);
    const [thumb, viaApp] = await Promise.all([fetchHandedOut(app, one.files[0].variants[0].url), fetchHandedOut(app, made.body.data.fileUrl.url)]);
    expect(thumb.status).toBe(200);
    expect(Buffer.from(await thumb.arrayBuffer()).equals(Buffer.from(await viaApp.arrayBuffer()))).toBe(true);

    expect((await callOk(alice.client, 'files_list', { fileType: 'document' })).files.map((f: any) => f.id)).toEqual([doc.body.data.id]);
    expect((await callOk(alice.client, 'files_list', { search: 'HOLIDAY' })).files.map((f: any) => f.id)).toEqual([image.body.data.id]);

    // The image as a book cover, by the id files_list gave.
    const covered = await callOk(alice.client, 'reading_add_book', { title: 'Photo book', author: 'Me', totalPages: 20, coverUrl: image.body.data.id });
    expect(covered.coverFileId).toBe(image.body.data.id);
    expect(await callError(bob.client, 'reading_add_book', { title: 'Stolen cover', author: 'B', totalPages: 20, coverUrl: image.body.data.id })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'coverUrl' } });
    expect(await callError(alice.client, 'reading_add_book', { title: 'PDF cover', author: 'B', totalPages: 20, coverUrl: doc.body.data.id })).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'file_type' } });

    // Refusals: a bad kind; another user's file is NOT_FOUND like a missing one, and their list is empty.
    expect((await callError(alice.client, 'files_list', { fileType: 'video' })).details.errors[0].path).toEqual(['fileType']);
    expect((await callError(bob.client, 'files_list', { fileId: image.body.data.id })).code).toBe('NOT_FOUND');
    expect((await callError(alice.client, 'files_list', { fileId: MISSING_ID })).code).toBe('NOT_FOUND');
    expect(await callOk(bob.client, 'files_list')).toEqual({ files: [], meta: { page: 1, limit: 50, total: 0 } });
  });
});
