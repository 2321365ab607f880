import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { levelFor, taskXp, xpForLevel } from './gamification-rules.js';
import { completeDay, completeTask, earn, farDays, logTraining, outboxEvents, stats, toggle, xpOf } from './gamification.test-helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('XP rules (earned through the routes that do the action)', () => {
  it.each([
    [10, 10],
    [30, 10],
    [44, 10],
    [45, 20],
    [60, 20],
    [75, 30],
    [90, 30],
    [105, 40],
    [120, 40],
    [600, 40],
  ])('a task of %i min completed earns %i XP', async (timebox, xp) => {
    const { client } = await signUp(app.url);
    await completeTask(client, timebox);
    expect(await xpOf(client)).toBe(xp);
    expect(taskXp(timebox)).toBe(xp);
  });

  it('a checklist item earns 5, a completed day 25 more', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await xpOf(client)).toBe(5);
    await client.patch(`/api/v1/days/${day.id}`, { minimumMode: true });
    await toggle(client, day.id, 'WATER');
    expect(await xpOf(client)).toBe(10);
    await toggle(client, day.id, 'PERIMETER');
    expect(await xpOf(client)).toBe(15 + 25);
  });

  it('a training session earns 20, cardio 15, mobility 15', async () => {
    const { client } = await signUp(app.url);
    const days = await farDays(client);
    await logTraining(client, days[0].id);
    expect(await xpOf(client)).toBe(20);
    const cardio = await client.post('/api/v1/cardio/sessions', { dayId: days[1].id, type: 'run', duration: 30, distance: 5 });
    expect(cardio.status, cardio.text).toBe(201);
    expect(await xpOf(client)).toBe(35);
    const mobility = await client.post('/api/v1/mobility/sessions', { dayId: days[2].id, focus: 'Hips', duration: 20, intensity: 4 });
    expect(mobility.status, mobility.text).toBe(201);
    expect(await xpOf(client)).toBe(50);
  });

  it('reading earns 10 and meditation 10 (plus 5 for the checklist item each ticks)', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    const book = await client.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 300 });
    const reading = await client.post('/api/v1/reading-sessions', { dayId: day.id, bookId: book.body.data.id, pagesRead: 20, duration: 30 });
    expect(reading.status, reading.text).toBe(201);
    expect(await xpOf(client)).toBe(10 + 5);
    const meditation = await client.graphql('mutation($d: UUID!) { logMeditation(dayId: $d, duration: 10) { id } }', { d: day.id });
    expect(meditation.body.errors, meditation.text).toBeUndefined();
    expect(await xpOf(client)).toBe(15 + 10 + 5);
  });

  it('a journal entry earns 5 (the first of a day also ticks JOURNAL: 5 more)', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    const questions = (await client.get('/api/v1/journal/questions')).body.data;
    const entry = (answer: string) => client.post('/api/v1/journal/entries', { dayId: day.id, questionId: questions[0].id, answer });
    expect((await entry('Sunrise')).status).toBe(201);
    expect(await xpOf(client)).toBe(10);
    expect((await entry('Sunset')).status).toBe(201);
    expect(await xpOf(client)).toBe(15);
  });
});

describe('undo takes the XP back (the ledger keys each grant by user, action and source)', () => {
  it('a checklist item toggled on, off, on earns 5 once; off again leaves 0', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    await toggle(client, day.id, 'MAKE_BED');
    await toggle(client, day.id, 'MAKE_BED');
    expect(await xpOf(client)).toBe(0);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await xpOf(client)).toBe(5);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await xpOf(client)).toBe(0);
  });

  it('a task leaving done loses its XP; done again earns it once', async () => {
    const { client } = await signUp(app.url);
    const task = await completeTask(client, 60);
    expect(await xpOf(client)).toBe(20);
    await client.patch(`/api/v1/tasks/${task.id}`, { status: 'doing' });
    expect(await xpOf(client)).toBe(0);
    await client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' });
    await client.patch(`/api/v1/tasks/${task.id}`, { title: 'Renamed, still done' });
    expect(await xpOf(client)).toBe(20);
  });

  it('un-ticking an item of a completed day takes back the item and the day', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    await completeDay(client, day.id);
    expect(await xpOf(client)).toBe(40);
    await toggle(client, day.id, 'WATER');
    expect(await xpOf(client)).toBe(10);
    await toggle(client, day.id, 'WATER');
    expect(await xpOf(client)).toBe(40);
  });

  it('deleting a training session, reading session or journal entry takes its XP back', async () => {
    const { client } = await signUp(app.url);
    const [day] = await farDays(client);
    const session = await logTraining(client, day.id);
    expect(await xpOf(client)).toBe(20);
    expect((await client.delete(`/api/v1/training/sessions/${session.id}`)).status).toBe(200);
    expect(await xpOf(client)).toBe(0);

    const book = await client.post('/api/v1/books', { title: 'Emma', author: 'Jane Austen', totalPages: 300 });
    const reading = await client.post('/api/v1/reading-sessions', { dayId: day.id, bookId: book.body.data.id, pagesRead: 20, duration: 30 });
    expect(await xpOf(client)).toBe(15);
    expect((await client.delete(`/api/v1/reading-sessions/${reading.body.data.id}`)).status).toBe(200);
    expect(await xpOf(client)).toBe(5); // the READING item stays ticked (the reading domain's rule)

    const questions = (await client.get('/api/v1/journal/questions')).body.data;
    const entry = await client.post('/api/v1/journal/entries', { dayId: day.id, questionId: questions[0].id, answer: 'x' });
    expect(await xpOf(client)).toBe(15);
    expect((await client.delete(`/api/v1/journal/entries/${entry.body.data.id}`)).status).toBe(200);
    expect(await xpOf(client)).toBe(10);
  });
});

describe('levels', () => {
  it('level L+1 at 100 × L × (L+1) / 2: 1 at 0, 2 at 100, 3 at 300, 4 at 600', () => {
    expect([0, 99, 100, 299, 300, 599, 600, 999, 1000].map(levelFor)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5]);
    expect([1, 2, 3, 4, 5].map(xpForLevel)).toEqual([0, 100, 300, 600, 1000]);
  });

  it('stats follow the boundaries and level_up fires once per level with exactly newLevel, leveledUpAt', async () => {
    const { client, id } = await signUp(app.url);
    expect(await stats(client)).toMatchObject({ xp: 0, level: 1, xpToNextLevel: 100, nextLevelAt: 100, coins: 0 });
    const [day] = await farDays(client);
    await earn(client, 90);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await stats(client)).toMatchObject({ xp: 95, level: 1, xpToNextLevel: 5, coins: 9 });
    expect(await outboxEvents(app, id, 'level_up')).toEqual([]);
    await toggle(client, day.id, 'COOK');
    expect(await stats(client)).toMatchObject({ xp: 100, level: 2, xpToNextLevel: 200, nextLevelAt: 300, coins: 10 });

    // Falling back under 100 and rising again is not a second level 2.
    await toggle(client, day.id, 'COOK');
    expect(await stats(client)).toMatchObject({ xp: 95, level: 1 });
    await toggle(client, day.id, 'COOK');
    await earn(client, 190);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await stats(client)).toMatchObject({ xp: 285, level: 2, xpToNextLevel: 15 });
    await earn(client, 10);
    await toggle(client, day.id, 'MAKE_BED');
    expect(await stats(client)).toMatchObject({ xp: 300, level: 3, xpToNextLevel: 300, nextLevelAt: 600 });
    await earn(client, 290);
    await toggle(client, day.id, 'JOURNAL');
    expect(await stats(client)).toMatchObject({ xp: 595, level: 3, xpToNextLevel: 5 });
    await toggle(client, day.id, 'GYM');
    expect(await stats(client)).toMatchObject({ xp: 600, level: 4, xpToNextLevel: 400, nextLevelAt: 1000, coins: 60 });

    const events = await outboxEvents(app, id, 'level_up');
    expect(events.map((e) => e.data.newLevel)).toEqual([2, 3, 4]);
    for (const e of events) {
      expect(Object.keys(e.data).sort()).toEqual(['leveledUpAt', 'newLevel']);
      expect(e.data.leveledUpAt).toMatch(ISO);
    }
  });
});
