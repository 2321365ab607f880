import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, expectStatus, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { setPlan } from '../../test/support/db.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { createHabit, xpOf } from '../habits/habits.test-helpers.js';
import { snapshotWithin } from './kept-snapshot.queries.js';

/**
 * Undo of the deletes that do not go to the trash (docs/undo.md, src/undo/kinds/kept-deletes.ts): each one
 * deleted and undone, and the REST reads of the record and of what its delete took with it (cascaded rows,
 * nulled references, a tag's places, a book's page, the XP) are back as they were.
 */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let monday: string;

async function made(res: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const answer = await res;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body.data;
}

/** A read without the `version` a set-back reference moves on (the database counts every update). */
async function read(path: string): Promise<unknown> {
  const answer = await alice.get(`/api/v1${path}`);
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return JSON.parse(JSON.stringify(answer.body.data), (key, value) => (key === 'version' ? undefined : value));
}

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  await setPlan(app.databaseUrl, aliceId, 'pro', new Date(Date.now() + 86_400_000)); // webhooks are a paid feature
  [monday] = await weekDayIds(alice, '2026-11-16');
});

/** Each case: makes its record (and what the delete takes with it); answers the delete's path and the reads to compare. */
const CASES: Record<string, () => Promise<{ remove: string; reads: string[] }>> = {
  deleteBook: async () => {
    const book = await made(alice.post('/api/v1/books', { title: 'Dune', author: 'Frank Herbert', totalPages: 600 }));
    const session = await made(alice.post('/api/v1/reading-sessions', { dayId: monday, bookId: book.id, pagesRead: 30, duration: 25 }));
    return { remove: `/books/${book.id}`, reads: [`/books/${book.id}`, `/reading-sessions/${session.id}`] };
  },
  deleteReadingSession: async () => {
    const book = await made(alice.post('/api/v1/books', { title: 'Piranesi', author: 'Susanna Clarke', totalPages: 272 }));
    const session = await made(alice.post('/api/v1/reading-sessions', { dayId: monday, bookId: book.id, pagesRead: 40, duration: 30 }));
    return { remove: `/reading-sessions/${session.id}`, reads: [`/reading-sessions/${session.id}`, `/books/${book.id}`] };
  },
  deleteTrainingSession: async () => {
    const exercise = await made(alice.post('/api/v1/exercises', { name: 'Landmine Press', category: 'strength' }));
    const session = await made(
      alice.post('/api/v1/training/sessions', { dayId: monday, split: 'Push', startTime: '2026-11-16T17:00:00Z', exercises: [{ exerciseId: exercise.id, sets: [{ reps: 5, load: 40 }] }] }),
    );
    return { remove: `/training/sessions/${session.id}`, reads: [`/training/sessions/${session.id}`] };
  },
  deleteExercise: async () => {
    const exercise = await made(alice.post('/api/v1/exercises', { name: 'Mystery', category: 'other' }));
    return { remove: `/exercises/${exercise.id}`, reads: [`/exercises/${exercise.id}`] };
  },
  deleteJournalQuestion: async () => {
    const question = await made(alice.post('/api/v1/journal/questions', { question: 'What made me laugh?', order: 1 }));
    return { remove: `/journal/questions/${question.id}`, reads: [`/journal/questions/${question.id}`] };
  },
  deleteJournalEntry: async () => {
    const question = await made(alice.post('/api/v1/journal/questions', { question: 'What went well?', order: 2 }));
    const entry = await made(alice.post('/api/v1/journal/entries', { dayId: monday, questionId: question.id, answer: 'The cat' }));
    return { remove: `/journal/entries/${entry.id}`, reads: [`/journal/entries/${entry.id}`] };
  },
  deleteMealTemplate: async () => {
    const meal = await made(alice.post('/api/v1/meal-templates', { name: 'Chili', ingredients: [{ name: 'Beans', quantity: 400, unit: 'g' }] }));
    return { remove: `/meal-templates/${meal.id}`, reads: [`/meal-templates/${meal.id}`] };
  },
  deletePerimeterTask: async () => {
    const task = await made(alice.post('/api/v1/perimeter/tasks', { title: 'Inbox zero' }));
    return { remove: `/perimeter/tasks/${task.id}`, reads: ['/perimeter/tasks'] };
  },
  deleteTaskCategory: async () => {
    const category = await made(alice.post('/api/v1/task-categories', { name: 'Health', color: '#00ff7F' }));
    const task = await made(alice.post('/api/v1/tasks', { title: 'Run', timebox: 30, dayId: monday, categoryId: category.id }));
    return { remove: `/task-categories/${category.id}`, reads: ['/task-categories', `/tasks/${task.id}`] };
  },
  deleteProject: async () => {
    const project = await made(alice.post('/api/v1/projects', { title: 'House' }));
    const card = await made(alice.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Paint' }));
    const deadline = await made(alice.post('/api/v1/deadlines', { title: 'Ship', dueDate: '2027-02-01T00:00:00.000Z', projectId: project.id }));
    return { remove: `/projects/${project.id}`, reads: [`/projects/${project.id}`, `/projects/${project.id}/tasks/${card.id}`, `/deadlines/${deadline.id}`] };
  },
  deleteDeadline: async () => {
    const deadline = await made(alice.post('/api/v1/deadlines', { title: 'Taxes', dueDate: '2027-07-01T10:00:00Z' }));
    return { remove: `/deadlines/${deadline.id}`, reads: [`/deadlines/${deadline.id}`] };
  },
  deleteTag: async () => {
    const tag = await made(alice.post('/api/v1/tags', { name: 'red', color: '#FF0000' }));
    const other = await made(alice.post('/api/v1/tags', { name: 'blue', color: '#0000FF' }));
    const project = await made(alice.post('/api/v1/projects', { title: 'Garden' }));
    const card = await made(alice.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Dig', tagIds: [tag.id, other.id] }));
    return { remove: `/tags/${tag.id}`, reads: [`/tags/${tag.id}`, `/projects/${project.id}/tasks/${card.id}`] };
  },
  deleteSocialHappening: async () => {
    const happening = await made(alice.post('/api/v1/social-happenings', { dayId: monday, title: 'Lunch', startTime: '2026-11-16T11:00:00Z', endTime: '2026-11-16T12:00:00Z' }));
    return { remove: `/social-happenings/${happening.id}`, reads: [`/social-happenings/${happening.id}`] };
  },
  deleteBrainFolder: async () => {
    const folder = await made(alice.post('/api/v1/brain/folders', { name: 'Empty' }));
    return { remove: `/brain/folders/${folder.id}`, reads: [`/brain/folders/${folder.id}`] };
  },
  deleteBrainTag: async () => {
    const tag = await made(alice.post('/api/v1/brain/tags', { name: 'urgent' }));
    const other = await made(alice.post('/api/v1/brain/tags', { name: 'later' }));
    const note = await made(alice.post('/api/v1/brain/notes', { title: 'Plan', content: 'x', tagIds: [tag.id, other.id] }));
    return { remove: `/brain/tags/${tag.id}`, reads: [`/brain/tags/${tag.id}`, `/brain/notes/${note.id}`] };
  },
  deleteBrainCanvas: async () => {
    const note = await made(alice.post('/api/v1/brain/notes', { title: 'On a board' }));
    const canvas = await made(alice.post('/api/v1/brain/canvases', { name: 'Board', cards: [{ entityType: 'note', entityId: note.id, x: 1, y: 2 }] }));
    return { remove: `/brain/canvases/${canvas.id}`, reads: [`/brain/canvases/${canvas.id}`] };
  },
  deleteBrainDatabase: async () => {
    const db = await made(alice.post('/api/v1/brain/databases', { name: 'Reading', properties: [{ key: 'title', name: 'Title', type: 'text' }] }));
    const record = await made(alice.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'Dune' } }));
    return { remove: `/brain/databases/${db.id}`, reads: [`/brain/databases/${db.id}`, `/brain/databases/${db.id}/records/${record.id}`] };
  },
  deleteBrainForm: async () => {
    const form = await made(
      alice.post('/api/v1/brain/forms', { name: 'Poll', createDatabase: { name: 'Poll answers' }, config: { fields: [{ key: 'name', label: 'Name', type: 'text' }], oneResponsePerPerson: true } }),
    );
    return { remove: `/brain/forms/${form.id}`, reads: [`/brain/forms/${form.id}`] };
  },
  deleteReminder: async () => {
    const habit = await createHabit(alice, { name: 'Floss' });
    const reminder = await made(alice.post('/api/v1/reminders', { kind: 'habit', targetId: habit.id, channel: 'email', localTime: '08:00' }));
    return { remove: `/reminders/${reminder.id}`, reads: [`/reminders/${reminder.id}`] };
  },
  deleteWebhook: async () => {
    const hook = await made(alice.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hooks/life', events: ['task_created'] }));
    return { remove: `/webhooks/${hook.id}`, reads: ['/webhooks'] };
  },
};

describe('undo of the deletes kept by snapshot', () => {
  it.each(Object.keys(CASES))('%s: delete, undo, and the record and what it took with it are back as they were', async (mutation) => {
    const { remove, reads } = await CASES[mutation]!();
    const before = await Promise.all(reads.map(read));
    const xp = await xpOf(alice);

    const removed = await alice.delete(`/api/v1${remove}`);
    expect(removed.status, removed.text).toBe(200);
    const token = removed.headers.get('undo-token');
    expect(token, `${mutation} offers an undo token`).toMatch(UNDO_TOKEN_SHAPE);
    if (/[0-9a-f-]{36}$/.test(reads[0]!)) expectNotFound(await alice.get(`/api/v1${reads[0]}`));

    expectNotFound(await bob.post('/api/v1/undo', { token })); // another person's token undoes nothing
    const undone = await alice.post('/api/v1/undo', { token });
    expect(undone.status, undone.text).toBe(200);
    expect(await Promise.all(reads.map(read))).toEqual(before);
    expect(await xpOf(alice)).toBe(xp); // the XP a session or an entry had earned is back
    expectNotFound(await alice.post('/api/v1/undo', { token })); // single use
  });

  it('refuses to bring back a tag whose name was taken since (409 UNDO_CONFLICT), and a session whose book is gone (400 undo_parent_gone); the token stays', async () => {
    const tag = await made(alice.post('/api/v1/brain/tags', { name: 'Work' }));
    const token = (await alice.delete(`/api/v1/brain/tags/${tag.id}`)).headers.get('undo-token');
    const again = await made(alice.post('/api/v1/brain/tags', { name: 'work' }));
    expectStatus(await alice.post('/api/v1/undo', { token }), 409, 'UNDO_CONFLICT');
    await made(alice.delete(`/api/v1/brain/tags/${again.id}`));
    const second = await alice.post('/api/v1/undo', { token });
    expect(second.status, second.text).toBe(200);

    const book = await made(alice.post('/api/v1/books', { title: 'Gone', author: 'Nobody', totalPages: 10 }));
    const session = await made(alice.post('/api/v1/reading-sessions', { dayId: monday, bookId: book.id, pagesRead: 5, duration: 5 }));
    const sessionToken = (await alice.delete(`/api/v1/reading-sessions/${session.id}`)).headers.get('undo-token');
    await made(alice.delete(`/api/v1/books/${book.id}`));
    const refused = await alice.post('/api/v1/undo', { token: sessionToken });
    expectStatus(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.error.details.rule).toBe('undo_parent_gone');
  });

  it('keeps no snapshot past its bound: the read stops one row past the cap and offers nothing', async () => {
    const project = await made(alice.post('/api/v1/projects', { title: 'Big' }));
    for (const title of ['One', 'Two', 'Three']) await made(alice.post(`/api/v1/projects/${project.id}/tasks`, { title }));
    const em = app.server.orm.em.fork();
    const whole = await snapshotWithin(em, 'projects', aliceId, project.id, 100);
    const size = whole!.rows.length + whole!.links.reduce((sum, link) => sum + link.ids.length, 0);
    expect(whole!.rows.filter((r) => r.table === 'project_tasks').length).toBeGreaterThanOrEqual(3);
    expect(await snapshotWithin(em, 'projects', aliceId, project.id, size)).not.toBeNull();
    expect(await snapshotWithin(em, 'projects', aliceId, project.id, size - 1)).toBeNull();
  });
});
