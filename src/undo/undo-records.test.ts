import type { EntityName } from '@mikro-orm/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { setPlan } from '../../test/support/db.js';
import { BrainDatabase } from '../brain/databases/brain-database.entity.js';
import { BrainRecord } from '../brain/databases/brain-record.entity.js';
import { BrainForm } from '../brain/forms/brain-form.entity.js';
import { BrainCanvas } from '../brain/notes/brain-canvas.entity.js';
import { BrainFolder } from '../brain/notes/brain-folder.entity.js';
import { BrainNote } from '../brain/notes/brain-note.entity.js';
import { BrainTag } from '../brain/notes/brain-tag.entity.js';
import { FinanceTransaction } from '../finance/finance-transaction.entity.js';
import { Habit } from '../habits/habit.entity.js';
import { xpOf } from '../habits/habits.test-helpers.js';
import { JournalEntry } from '../journal/journal-entry.entity.js';
import { JournalQuestion } from '../journal/journal-question.entity.js';
import { MealTemplate } from '../nutrition/meal-template.entity.js';
import { PerimeterTask } from '../planning/perimeter-task.entity.js';
import { Deadline } from '../projects/deadline.entity.js';
import { ProjectTask } from '../projects/project-task.entity.js';
import { Project } from '../projects/project.entity.js';
import { Tag } from '../projects/tag.entity.js';
import { Book } from '../reading/book.entity.js';
import { ReadingSession } from '../reading/reading-session.entity.js';
import { Reminder } from '../reminders/reminder.entity.js';
import { Person } from '../social/person.entity.js';
import { SocialHappening } from '../social/social-happening.entity.js';
import { TaskCategory } from '../tasks/task-category.entity.js';
import { Task } from '../tasks/task.entity.js';
import { Exercise } from '../training/exercise.entity.js';
import { TrainingSession } from '../training/training-session.entity.js';
import { TrashItem } from '../trash/trash-item.entity.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';

/** Undo of the creates and field edits of every record kind (docs/undo.md), through GraphQL: table-driven. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
const ctx: Record<string, string> = {};

/** A GraphQL enum value in the literal arguments (not quoted). */
class Enum {
  constructor(readonly value: string) {}
}
const literal = (value: unknown): string =>
  value instanceof Enum ? value.value
  : Array.isArray(value) ? `[${value.map(literal).join(', ')}]`
  : value !== null && typeof value === 'object' ? `{ ${Object.entries(value).map(([k, v]) => `${k}: ${literal(v)}`).join(', ')} }`
  : JSON.stringify(value);
const argsOf = (args: Record<string, unknown>): string => Object.entries(args).map(([k, v]) => `${k}: ${literal(v)}`).join(', ');

async function write(client: HttpClient, mutation: string, args: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const res = await client.post('/graphql', { query: `mutation { ${mutation}(${argsOf(args)}) { id } }` });
  expect(res.body.errors, `${mutation}: ${res.text}`).toBeUndefined();
  return { id: res.body.data[mutation].id, token: res.body.extensions?.undoToken };
}

async function undo(client: HttpClient, token: string): Promise<{ status: number; body: any; text: string }> {
  expect(token).toMatch(UNDO_TOKEN_SHAPE); // a signed token (docs/undo.md)
  return client.post('/api/v1/undo', { token });
}

const row = (entity: EntityName<object>, id: string): Promise<Record<string, any> | null> => app.server.orm.em.fork().findOne(entity, { id } as never) as never;
const inTrash = (recordId: string): Promise<number> => app.server.orm.em.fork().count(TrashItem, { recordId });

interface Case {
  kind: string;
  entity: EntityName<object>;
  create: [string, () => Record<string, unknown>];
  /** The update's mutation and arguments (the id argument added); `then` is what the row held before, read back after the undo. */
  update: [string, string, () => Record<string, unknown>];
  then: Record<string, unknown>;
  trash?: boolean;
  extra?: () => Record<string, unknown>;
}

const day = (): string => ctx.monday;
const CASES: Case[] = [
  { kind: 'task', entity: Task, trash: true, create: ['createTask', () => ({ title: 'Call mum', timebox: 15, dayId: day() })], update: ['updateTask', 'taskId', () => ({ title: 'Call dad', timebox: 60, dayId: ctx.tuesday, startTime: '10:00', status: new Enum('done') })], get then() { return { title: 'Call mum', timebox: 15, dayId: day(), startTime: null, status: 'todo' }; } },
  { kind: 'task_category', entity: TaskCategory, create: ['createTaskCategory', () => ({ name: 'Work', color: '#112233' })], update: ['updateTaskCategory', 'categoryId', () => ({ name: 'Home', color: null })], then: { name: 'Work', color: '#112233' } },
  { kind: 'perimeter_task', entity: PerimeterTask, create: ['createPerimeterTask', () => ({ title: 'Fix the fence' })], update: ['updatePerimeterTask', 'taskId', () => ({ title: 'Paint the fence', personId: ctx.person })], then: { title: 'Fix the fence', personId: null } },
  { kind: 'project', entity: Project, create: ['createProject', () => ({ title: 'Garden', status: 'active' })], update: ['updateProject', 'projectId', () => ({ title: 'Yard', status: 'completed', description: 'Big' })], then: { title: 'Garden', status: 'active', description: null } },
  { kind: 'project_task', entity: ProjectTask, trash: true, create: ['createProjectTask', () => ({ projectId: ctx.project, title: 'Dig' })], update: ['updateProjectTask', 'taskId', () => ({ projectId: ctx.project, title: 'Dig deep', dueDate: '2026-12-01T10:00:00.000Z', tagIds: [ctx.tag] })], then: { title: 'Dig', dueDate: null, tagIds: [] } },
  { kind: 'tag', entity: Tag, create: ['createTag', () => ({ name: 'urgent' })], update: ['updateTag', 'tagId', () => ({ name: 'later', color: '#abcdef' })], then: { name: 'urgent', color: null } },
  { kind: 'deadline', entity: Deadline, create: ['createDeadline', () => ({ title: 'Taxes', dueDate: '2026-12-31T12:00:00.000Z' })], update: ['updateDeadline', 'deadlineId', () => ({ dueDate: '2027-01-15T12:00:00.000Z', priority: 'high' })], then: { dueDate: new Date('2026-12-31T12:00:00.000Z'), priority: 'medium' } },
  { kind: 'exercise', entity: Exercise, create: ['createExercise', () => ({ name: 'Zercher squat', category: 'strength', muscleGroups: ['legs'] })], update: ['updateExercise', 'exerciseId', () => ({ name: 'Zercher', muscleGroups: ['legs', 'core'] })], then: { name: 'Zercher squat', muscleGroups: ['legs'] } },
  { kind: 'training_session', entity: TrainingSession, create: ['createTrainingSession', () => ({ dayId: day(), split: 'push', startTime: '2026-11-16T07:00:00.000Z' })], update: ['updateTrainingSession', 'sessionId', () => ({ split: 'pull', startTime: '2026-11-16T08:00:00.000Z', notes: 'heavy' })], then: { split: 'push', startTime: new Date('2026-11-16T07:00:00.000Z'), notes: null } },
  { kind: 'webhook', entity: WebhookEndpoint, create: ['createWebhook', () => ({ url: 'https://93.184.216.34/hooks/undo', events: ['task_created'] })], update: ['updateWebhook', 'webhookId', () => ({ events: ['task_completed'], active: false })], then: { events: ['task_created'], active: true } },
  { kind: 'meal_template', entity: MealTemplate, create: ['createMealTemplate', () => ({ name: 'Soup', servings: 2, ingredients: [{ name: 'leek', quantity: 2, unit: 'pcs' }] })], update: ['updateMealTemplate', 'mealTemplateId', () => ({ name: 'Stew', servings: null, ingredients: [] })], then: { name: 'Soup', servings: 2, ingredients: [expect.objectContaining({ name: 'leek', quantity: 2, unit: 'pcs' })] } },
  { kind: 'journal_question', entity: JournalQuestion, create: ['createJournalQuestion', () => ({ question: 'What went well?', order: 5 })], update: ['updateJournalQuestion', 'questionId', () => ({ question: 'What went badly?', order: 6 })], then: { question: 'What went well?', order: 5 } },
  { kind: 'journal_entry', entity: JournalEntry, create: ['createJournalEntry', () => ({ dayId: day(), questionId: ctx.question, answer: 'Fine' })], update: ['updateJournalEntry', 'entryId', () => ({ answer: 'Great' })], then: { answer: 'Fine' } },
  { kind: 'book', entity: Book, create: ['createBook', () => ({ title: 'Dune', author: 'Herbert', totalPages: 600 })], update: ['updateBook', 'bookId', () => ({ currentPage: 100, title: 'Dune I' })], then: { currentPage: 0, title: 'Dune' } },
  { kind: 'reading_session', entity: ReadingSession, create: ['createReadingSession', () => ({ dayId: day(), bookId: ctx.book, pagesRead: 10, duration: 20 })], update: ['updateReadingSession', 'sessionId', () => ({ pagesRead: 30, duration: 45 })], then: { pagesRead: 10, duration: 20 } },
  { kind: 'habit', entity: Habit, trash: true, create: ['createHabit', () => ({ name: 'Stretch' })], update: ['updateHabit', 'habitId', () => ({ name: 'Yoga', colour: '#00ff00', startDate: '2026-11-01' })], then: { name: 'Stretch', colour: null } },
  { kind: 'person', entity: Person, trash: true, create: ['createPerson', () => ({ name: 'Ada', birthday: '1990-05-01' })], update: ['updatePerson', 'personId', () => ({ name: 'Ada L.', birthday: '1991-06-02', notes: 'friend' })], then: { name: 'Ada', birthday: '1990-05-01', notes: null } },
  { kind: 'social_happening', entity: SocialHappening, create: ['createSocialHappening', () => ({ dayId: day(), title: 'Dinner', startTime: '2026-11-16T18:00:00.000Z', endTime: '2026-11-16T20:00:00.000Z' })], update: ['updateSocialHappening', 'happeningId', () => ({ title: 'Lunch', startTime: '2026-11-16T11:00:00.000Z', endTime: '2026-11-16T12:00:00.000Z', guestIds: [ctx.person] })], then: { title: 'Dinner', startTime: new Date('2026-11-16T18:00:00.000Z'), guestIds: [] } },
  { kind: 'transaction', entity: FinanceTransaction, trash: true, create: ['createTransaction', () => ({ accountId: ctx.account, amount: -12.5, date: '2026-11-16', description: 'Lunch' })], update: ['updateTransaction', 'transactionId', () => ({ amount: -20, date: '2026-11-17', description: null })], then: { amount: '-12.50', date: '2026-11-16', description: 'Lunch' } },
  { kind: 'note', entity: BrainNote, trash: true, create: ['createBrainNote', () => ({ title: 'Idea', content: 'first' })], update: ['updateBrainNote', 'noteId', () => ({ title: 'Plan', content: 'second', tagIds: [ctx.brainTag] })], then: { title: 'Idea', content: 'first', tagIds: [] } },
  { kind: 'brain_folder', entity: BrainFolder, create: ['createBrainFolder', () => ({ name: 'Inbox' })], update: ['updateBrainFolder', 'folderId', () => ({ name: 'Archive' })], then: { name: 'Inbox' } },
  { kind: 'brain_tag', entity: BrainTag, create: ['createBrainTag', () => ({ name: 'idea' })], update: ['updateBrainTag', 'tagId', () => ({ name: 'plan', color: '#123456' })], then: { name: 'idea', color: null } },
  { kind: 'brain_canvas', entity: BrainCanvas, create: ['createBrainCanvas', () => ({ name: 'Board' })], update: ['updateBrainCanvas', 'canvasId', () => ({ name: 'Wall', cards: [{ entityType: 'note', entityId: ctx.note, x: 1, y: 2 }] })], then: { name: 'Board', cards: [] } },
  { kind: 'brain_database', entity: BrainDatabase, create: ['createBrainDatabase', () => ({ name: 'Films', properties: [{ key: 'title', name: 'Title', type: 'text' }] })], update: ['updateBrainDatabase', 'databaseId', () => ({ name: 'Movies', properties: [] })], then: { name: 'Films', properties: [expect.objectContaining({ key: 'title', name: 'Title', type: 'text' })] } },
  { kind: 'record', entity: BrainRecord, trash: true, create: ['createBrainRecord', () => ({ databaseId: ctx.database, values: { title: 'Heat' } })], update: ['updateBrainRecord', 'recordId', () => ({ databaseId: ctx.database, values: { title: 'Ronin', year: 1998 } })], then: { values: { title: 'Heat' } } },
  { kind: 'brain_form', entity: BrainForm, create: ['createBrainForm', () => ({ name: 'Signup', databaseId: ctx.database })], update: ['updateBrainForm', 'formId', () => ({ name: 'Join', syncFields: true })], then: { name: 'Signup', syncFields: false } },
  { kind: 'reminder', entity: Reminder, create: ['createReminder', () => ({ kind: new Enum('evening_review'), channel: new Enum('email'), localTime: '21:00' })], update: ['updateReminder', 'reminderId', () => ({ localTime: '20:30', active: false })], then: { localTime: '21:00', active: true } },
];

beforeAll(async () => {
  app = await sharedTestApp();
  const signedUp = await signUp(app.url);
  alice = signedUp.client;
  await setPlan(app.databaseUrl, signedUp.id, 'pro'); // webhooks are a plan's feature
  ({ client: bob } = await signUp(app.url));
  [ctx.monday, ctx.tuesday, ctx.wednesday] = await weekDayIds(alice, '2026-11-16');
  ctx.person = (await write(alice, 'createPerson', { name: 'Grace' })).id;
  ctx.project = (await write(alice, 'createProject', { title: 'Home' })).id;
  ctx.tag = (await write(alice, 'createTag', { name: 'green' })).id;
  ctx.question = (await write(alice, 'createJournalQuestion', { question: 'How was it?' })).id;
  ctx.book = (await write(alice, 'createBook', { title: 'Emma', author: 'Austen', totalPages: 400 })).id;
  ctx.account = (await write(alice, 'createAccount', { name: 'Cash', type: 'cash', currency: 'EUR' })).id;
  ctx.brainTag = (await write(alice, 'createBrainTag', { name: 'green' })).id;
  ctx.note = (await write(alice, 'createBrainNote', { title: 'Anchor' })).id;
  ctx.database = (await write(alice, 'createBrainDatabase', { name: 'Lists', properties: [{ key: 'title', name: 'Title', type: 'text' }, { key: 'year', name: 'Year', type: 'number' }] })).id;
});

describe('undo of creates and field edits of the record kinds', () => {
  it.each(CASES)('$kind: an undone create leaves nothing (nor a trash entry); an undone update restores the previous values', async (c) => {
    const created = await write(alice, c.create[0], c.create[1]());
    const undone = await undo(alice, created.token);
    expect(undone.body.data, undone.text).toEqual({ kind: `${c.kind}_create`, recordId: created.id });
    expect(await row(c.entity, created.id)).toBeNull();
    if (c.trash) expect(await inTrash(created.id)).toBe(0);

    const kept = await write(alice, c.create[0], c.create[1]());
    const [mutation, idArg, changes] = c.update;
    const updated = await write(alice, mutation, { [idArg]: kept.id, ...changes() });
    const reverted = await undo(alice, updated.token);
    expect(reverted.body.data, reverted.text).toEqual({ kind: `${c.kind}_update`, recordId: kept.id });
    expect(await row(c.entity, kept.id)).toMatchObject(c.then);
  });

  it('answers 404 for another person\'s token and 409 UNDO_CONFLICT for a record changed since, writing nothing', async () => {
    const book = await write(alice, 'createBook', { title: 'Ulysses', author: 'Joyce', totalPages: 700 });
    expectNotFound(await undo(bob, book.token));
    const renamed = await write(alice, 'updateBook', { bookId: book.id, title: 'Ulysses (2nd)' });
    const refused = await undo(alice, book.token); // the create's undo: the book was edited since (its updatedAt moved)
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('UNDO_CONFLICT');
    await write(alice, 'updateBook', { bookId: book.id, currentPage: 5 });
    expect((await undo(alice, renamed.token)).status).toBe(409);
    expect(await row(Book, book.id)).toMatchObject({ title: 'Ulysses (2nd)', currentPage: 5 });

    const note = await write(alice, 'createBrainNote', { title: 'Versioned' });
    const edited = await write(alice, 'updateBrainNote', { noteId: note.id, title: 'Versioned 2' });
    await write(alice, 'updateBrainNote', { noteId: note.id, content: 'more' });
    const conflict = await undo(alice, edited.token);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body.error.details).toEqual({ version: 3 });
  });

  it('takes back the XP a create earned (a reading session), exactly', async () => {
    // The day's first session ticks its READING item, which a delete leaves ticked: this one is the second.
    await write(alice, 'createReadingSession', { dayId: ctx.wednesday, bookId: ctx.book, pagesRead: 1, duration: 5 });
    const xp = await xpOf(alice);
    const session = await write(alice, 'createReadingSession', { dayId: ctx.wednesday, bookId: ctx.book, pagesRead: 5, duration: 10 });
    expect(await xpOf(alice)).toBeGreaterThan(xp);
    expect((await undo(alice, session.token)).status).toBe(200);
    expect(await xpOf(alice)).toBe(xp);
  });

  it('offers no token for a write with no plain inverse (a recurring create, a form config, a habit schedule)', async () => {
    const recurring = await write(alice, 'createTask', { title: 'Gym', timebox: 60, dayId: ctx.monday, recurrence: 'FREQ=WEEKLY;COUNT=3' });
    expect(recurring.token).toBeUndefined();
    const habit = await write(alice, 'createHabit', { name: 'Read' });
    expect((await write(alice, 'updateHabit', { habitId: habit.id, schedule: new Enum('TIMES_PER_WEEK'), timesPerPeriod: 2 })).token).toBeUndefined();
  });
});
