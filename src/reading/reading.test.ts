import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectNotFound, expectRule, expectValidation, outboxEvents } from '../../test/support/expectations.js';
import { dbRows, makeImage, makePdf, upload } from '../files/files.test-helpers.js';
import { weekDays } from '../training/activity.test-helpers.js';

/** Books (own image covers, currentPage within 0..totalPages) and reading sessions that move them on and tick READING. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let bobId: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
});

async function createBook(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 100, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function read(client: HttpClient, dayId: string, bookId: string, pagesRead: number, duration = 30): Promise<any> {
  const res = await client.post('/api/v1/reading-sessions', { dayId, bookId, pagesRead, duration });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function image(client: HttpClient): Promise<string> {
  const res = await upload(client, await makeImage('jpeg', 300, 450), 'image', 'cover.jpg');
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

const page = async (client: HttpClient, bookId: string) => (await client.get(`/api/v1/books/${bookId}`)).body.data.currentPage;
const readingItem = async (client: HttpClient, dayId: string) =>
  (await client.get(`/api/v1/checklist/${dayId}`)).body.data.find((i: any) => i.key === 'READING');

describe('books', () => {
  it('creates a book (201) with an own image as cover, shows the cover with its URL, and lists, gets, patches, deletes', async () => {
    const { client } = await signUp(app.url);
    const cover = await image(client);
    const book = await createBook(client, { title: '  Dune ', coverUrl: cover });
    expect(book).toMatchObject({ title: 'Dune', author: 'Frank Herbert', totalPages: 100, currentPage: 0, coverUrl: cover });
    expect(book.cover).toMatchObject({ id: cover, fileType: 'image', mimeType: 'image/jpeg', url: expect.stringContaining(cover) });
    const second = await createBook(client, { title: 'Emma', author: 'Jane Austen', totalPages: 400, currentPage: 120 });
    expect(second).toMatchObject({ currentPage: 120, coverUrl: null, cover: null });

    const list = await client.get('/api/v1/books');
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: any) => b.title)).toEqual(['Dune', 'Emma']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 2 });
    const gql = await client.graphql(`{ books { items { title cover { url variants { variant } } } } }`);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.books.items[0].cover.url).toContain(cover);

    const patched = await client.patch(`/api/v1/books/${book.id}`, { currentPage: 42, title: 'Dune Messiah', coverUrl: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ currentPage: 42, title: 'Dune Messiah', author: 'Frank Herbert', coverUrl: null, cover: null });
    expect((await client.get(`/api/v1/books/${book.id}`)).body.data.currentPage).toBe(42);

    const gone = await client.delete(`/api/v1/books/${second.id}`);
    expect(gone.body.data).toEqual({ id: second.id, message: 'Book deleted' });
    expectNotFound(await client.get(`/api/v1/books/${second.id}`));
  });

  it('keeps currentPage within 0..totalPages: 400 outside, nothing changed', async () => {
    const book = await createBook(alice, { totalPages: 50 });
    await alice.patch(`/api/v1/books/${book.id}`, { currentPage: 10 });
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { currentPage: 51 }), 'currentPage');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { currentPage: -1 }), 'currentPage');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { currentPage: 2.5 }), 'currentPage');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { currentPage: '5' }), 'currentPage');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { currentPage: null }), 'currentPage');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { totalPages: 9 }), 'totalPages');
    expectValidation(await alice.patch(`/api/v1/books/${book.id}`, { title: 'New', currentPage: 60, totalPages: 55 }), 'currentPage');
    expect((await alice.get(`/api/v1/books/${book.id}`)).body.data).toMatchObject({ title: 'Dune', currentPage: 10, totalPages: 50 });
    const ok = await alice.patch(`/api/v1/books/${book.id}`, { currentPage: 60, totalPages: 60 });
    expect(ok.body.data).toMatchObject({ currentPage: 60, totalPages: 60 });
    expect((await alice.patch(`/api/v1/books/${book.id}`, { currentPage: 0 })).body.data.currentPage).toBe(0);
  });

  it('refuses bad input with 400 and stores nothing; a document as cover is refused by rule', async () => {
    const { client, id } = await signUp(app.url);
    const good = { title: 'Dune', author: 'Frank Herbert', totalPages: 100 };
    for (const body of [
      {},
      { ...good, title: '' },
      { ...good, title: '  ' },
      { ...good, author: undefined },
      { ...good, totalPages: 0 },
      { ...good, totalPages: '100' },
      { ...good, totalPages: 1.5 },
      { ...good, currentPage: 101 },
      { ...good, currentPage: -1 },
      { ...good, coverUrl: 'not-a-uuid' },
      { ...good, coverUrl: 42 },
    ]) {
      expectValidation(await client.post('/api/v1/books', body));
    }
    const pdf = await upload(client, makePdf(), 'document', 'doc.pdf', 'application/pdf');
    expect(pdf.status, pdf.text).toBe(201);
    expectRule(await client.post('/api/v1/books', { ...good, coverUrl: pdf.body.data.id }), 'file_type');
    expect(await dbRows(app, 'select id from books where user_id = ?', [id])).toEqual([]);
    expectValidation(await client.get('/api/v1/books/not-a-uuid'));
  });

  it("another user's book or file answers 404 (path and coverUrl); nothing is stored or changed", async () => {
    const aliceBook = await createBook(alice, { title: 'Private' });
    const aliceFile = await image(alice);
    for (const id of [aliceBook.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/books/${id}`));
      expectNotFound(await bob.patch(`/api/v1/books/${id}`, { currentPage: 1 }));
      expectNotFound(await bob.delete(`/api/v1/books/${id}`));
    }
    expectNotFound(await bob.post('/api/v1/books', { title: 'Mine', author: 'Me', totalPages: 10, coverUrl: aliceFile }), 'coverUrl');
    expectNotFound(await bob.post('/api/v1/books', { title: 'Mine', author: 'Me', totalPages: 10, coverUrl: MISSING_ID }), 'coverUrl');
    const bobBook = await createBook(bob);
    expectNotFound(await bob.patch(`/api/v1/books/${bobBook.id}`, { coverUrl: aliceFile, currentPage: 3 }), 'coverUrl');
    expect((await bob.get(`/api/v1/books/${bobBook.id}`)).body.data).toMatchObject({ coverUrl: null, currentPage: 0 });
    expect((await bob.get('/api/v1/books')).body.data.map((b: any) => b.id)).toEqual([bobBook.id]);
    expect((await alice.get(`/api/v1/books/${aliceBook.id}`)).body.data).toMatchObject({ title: 'Private', currentPage: 0 });
  });

  it('deleting the cover file leaves the book without a cover', async () => {
    const { client } = await signUp(app.url);
    const cover = await image(client);
    const book = await createBook(client, { coverUrl: cover });
    expect((await client.delete(`/api/v1/files/${cover}`)).status).toBe(200);
    expect((await client.get(`/api/v1/books/${book.id}`)).body.data).toMatchObject({ coverUrl: null, cover: null });
  });
});

describe('reading sessions', () => {
  it("raises currentPage by pagesRead, capped at totalPages, and ticks the day's READING with the book id (checklist_completed)", async () => {
    const { client, id } = await signUp(app.url);
    const [day, day2] = await weekDays(client);
    const book = await createBook(client, { totalPages: 100 });
    const first = await read(client, day!, book.id, 30, 25);
    expect(first).toMatchObject({ dayId: day, bookId: book.id, pagesRead: 30, duration: 25, book: { id: book.id, currentPage: 30 } });
    expect(Object.keys(first).sort()).toEqual(['book', 'bookId', 'dayId', 'duration', 'id', 'pagesRead']);
    expect(await page(client, book.id)).toBe(30);
    expect(await readingItem(client, day!)).toMatchObject({ completed: true, value: book.id, bookId: book.id });
    expect((await client.get(`/api/v1/checklist/${day}`)).body.data.find((i: any) => i.key === 'WATER').bookId).toBeNull();
    expect((await outboxEvents(app, id, 'checklist_completed')).map((e) => e.data)).toEqual([{ dayId: day, itemKey: 'READING', completedAt: expect.any(String) }]);

    // The same day again: the item is already ticked, no second event.
    const other = await createBook(client, { title: 'Other' });
    await read(client, day!, other.id, 5);
    expect(await readingItem(client, day!)).toMatchObject({ completed: true, value: book.id });
    expect(await outboxEvents(app, id, 'checklist_completed')).toHaveLength(1);

    // Capped: 30 + 90 stops at 100; reading a finished book leaves it there.
    await read(client, day2!, book.id, 90);
    expect(await page(client, book.id)).toBe(100);
    await read(client, day2!, book.id, 10);
    expect(await page(client, book.id)).toBe(100);
    expect(await readingItem(client, day2!)).toMatchObject({ completed: true, value: book.id });
  });

  it('deleting a session takes back the pages it added (capped ones included, never below 0); PATCH pagesRead moves by the difference', async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const book = await createBook(client, { totalPages: 100, currentPage: 80 });
    const capped = await read(client, day!, book.id, 50); // adds 20
    expect(await page(client, book.id)).toBe(100);
    expect((await client.delete(`/api/v1/reading-sessions/${capped.id}`)).body.data).toEqual({ id: capped.id, message: 'Reading session deleted' });
    expect(await page(client, book.id)).toBe(80);
    expectNotFound(await client.get(`/api/v1/reading-sessions/${capped.id}`));
    // The day's READING item stays ticked.
    expect((await readingItem(client, day!)).completed).toBe(true);

    const s = await read(client, day!, book.id, 10);
    expect(await page(client, book.id)).toBe(90);
    const patched = await client.patch(`/api/v1/reading-sessions/${s.id}`, { pagesRead: 4, duration: 12 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ pagesRead: 4, duration: 12 });
    expect(await page(client, book.id)).toBe(84);
    await client.patch(`/api/v1/reading-sessions/${s.id}`, { pagesRead: 40 });
    expect(await page(client, book.id)).toBe(100);

    // Changed by hand below what the session added: deleting stops at 0.
    await client.patch(`/api/v1/books/${book.id}`, { currentPage: 5 });
    await client.delete(`/api/v1/reading-sessions/${s.id}`);
    expect(await page(client, book.id)).toBe(0);
  });

  it('filters by dayId, startDate and endDate (and bookId), oldest first, with page meta', async () => {
    const { client } = await signUp(app.url);
    const week = await weekDays(client, '2031-03-03');
    const book = await createBook(client, { totalPages: 1000 });
    const other = await createBook(client, { totalPages: 1000 });
    const a = await read(client, week[0]!, book.id, 1);
    const b = await read(client, week[2]!, other.id, 1);
    const c = await read(client, week[6]!, book.id, 1);
    const ids = async (query: string) => {
      const res = await client.get(`/api/v1/reading-sessions${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((s: any) => s.id);
    };
    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids(`?dayId=${week[2]}`)).toEqual([b.id]);
    expect(await ids('?startDate=2031-03-04')).toEqual([b.id, c.id]);
    expect(await ids('?endDate=2031-03-05')).toEqual([a.id, b.id]);
    expect(await ids('?startDate=2031-03-04&endDate=2031-03-08')).toEqual([b.id]);
    expect(await ids('?startDate=2031-04-01')).toEqual([]);
    expect(await ids(`?bookId=${book.id}`)).toEqual([a.id, c.id]);
    const paged = await client.get('/api/v1/reading-sessions?limit=2');
    expect(paged.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expectValidation(await client.get('/api/v1/reading-sessions?startDate=2031-03-09&endDate=2031-03-03'), 'startDate');
    expectValidation(await client.get('/api/v1/reading-sessions?startDate=03/03/2031'), 'startDate');
    expectValidation(await client.get('/api/v1/reading-sessions?dayId=nope'), 'dayId');
  });

  it("another user's day, book or session answers 404 (body, query, path); nothing is stored, no page moves", async () => {
    const [aliceDay] = await weekDays(alice);
    const [bobDay] = await weekDays(bob);
    const aliceBook = await createBook(alice);
    const bobBook = await createBook(bob);
    const aliceSession = await read(alice, aliceDay!, aliceBook.id, 10);

    expectNotFound(await bob.post('/api/v1/reading-sessions', { dayId: aliceDay, bookId: bobBook.id, pagesRead: 5, duration: 10 }), 'dayId');
    expectNotFound(await bob.post('/api/v1/reading-sessions', { dayId: bobDay, bookId: aliceBook.id, pagesRead: 5, duration: 10 }), 'bookId');
    expectNotFound(await bob.post('/api/v1/reading-sessions', { dayId: bobDay, bookId: MISSING_ID, pagesRead: 5, duration: 10 }), 'bookId');
    expectNotFound(await bob.get(`/api/v1/reading-sessions?dayId=${aliceDay}`), 'dayId');
    expectNotFound(await bob.get(`/api/v1/reading-sessions?bookId=${aliceBook.id}`), 'bookId');
    for (const id of [aliceSession.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/reading-sessions/${id}`));
      expectNotFound(await bob.patch(`/api/v1/reading-sessions/${id}`, { pagesRead: 50 }));
      expectNotFound(await bob.delete(`/api/v1/reading-sessions/${id}`));
    }
    expect(await dbRows(app, 'select id from reading_sessions where user_id = ?', [bobId])).toEqual([]);
    expect(await page(bob, bobBook.id)).toBe(0);
    expect(await page(alice, aliceBook.id)).toBe(10);
    expect((await readingItem(bob, bobDay!)).completed).toBe(false);
    expect(await outboxEvents(app, bobId, 'checklist_completed')).toEqual([]);
    expect((await alice.get(`/api/v1/reading-sessions/${aliceSession.id}`)).body.data.pagesRead).toBe(10);
  });

  it('refuses bad input with 400: no session, no page moved, no tick', async () => {
    const { client, id } = await signUp(app.url);
    const [day] = await weekDays(client);
    const book = await createBook(client);
    const good = { dayId: day, bookId: book.id, pagesRead: 5, duration: 10 };
    for (const body of [
      { ...good, pagesRead: 0 },
      { ...good, pagesRead: -3 },
      { ...good, pagesRead: 2.5 },
      { ...good, pagesRead: '5' },
      { ...good, duration: 0 },
      { ...good, duration: 1441 },
      { ...good, bookId: 'nope' },
      { ...good, dayId: undefined },
      { dayId: day, bookId: book.id, duration: 10 },
    ]) {
      expectValidation(await client.post('/api/v1/reading-sessions', body));
    }
    expect(await dbRows(app, 'select id from reading_sessions where user_id = ?', [id])).toEqual([]);
    expect(await page(client, book.id)).toBe(0);
    expect(await outboxEvents(app, id)).toEqual([]);
    const s = await read(client, day!, book.id, 5);
    expectValidation(await client.patch(`/api/v1/reading-sessions/${s.id}`, { pagesRead: 0 }), 'pagesRead');
    expectValidation(await client.patch(`/api/v1/reading-sessions/${s.id}`, { pagesRead: null }), 'pagesRead');
    expect(await page(client, book.id)).toBe(5);
  });

  it('concurrent sessions of one book add up (the book row is locked)', async () => {
    const { client } = await signUp(app.url);
    const week = await weekDays(client);
    const book = await createBook(client, { totalPages: 1000 });
    const results = await Promise.all(week.map((d) => client.post('/api/v1/reading-sessions', { dayId: d, bookId: book.id, pagesRead: 7, duration: 5 })));
    for (const r of results) expect(r.status, r.text).toBe(201);
    expect(await page(client, book.id)).toBe(49);
  });

  it('deleting a book deletes its sessions', async () => {
    const { client, id } = await signUp(app.url);
    const [day] = await weekDays(client);
    const book = await createBook(client);
    await read(client, day!, book.id, 3);
    await client.delete(`/api/v1/books/${book.id}`);
    expect(await dbRows(app, 'select id from reading_sessions where user_id = ?', [id])).toEqual([]);
  });

  it("shows a day's sessions on Day: GraphQL and GET /days/:dayId", async () => {
    const { client } = await signUp(app.url);
    const [day] = await weekDays(client);
    const book = await createBook(client);
    const s = await read(client, day!, book.id, 12, 20);
    const gql = await client.graphql(`query($d: UUID!) { day(dayId: $d) { readingSessions { id pagesRead book { title currentPage } } } }`, { d: day });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.day.readingSessions).toEqual([{ id: s.id, pagesRead: 12, book: { title: 'Dune', currentPage: 12 } }]);
    const rest = await client.get(`/api/v1/days/${day}`);
    expect(rest.body.data.readingSessions).toMatchObject([{ id: s.id, pagesRead: 12, duration: 20, bookId: book.id }]);
  });
});
