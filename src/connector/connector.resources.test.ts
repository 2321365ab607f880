import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 25: resources a client can attach and prompts it can fetch, through the same reads as the tools. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;

beforeAll(async () => {
  app = await startConnectorApp();
  alice = await connectedUser(app);
});
afterAll(async () => {
  await alice?.client.close();
  await app?.close();
});

const json = (result: { contents: { text?: unknown; mimeType?: string }[] }) => {
  expect(result.contents[0]!.mimeType).toBe('application/json');
  return JSON.parse(String(result.contents[0]!.text));
};

describe('the day and week tools the resources read through', () => {
  it('answer a day and its week by date, refuse a bad date, and never reach another user’s days', async () => {
    const today = await callOk(alice.client, 'planning_get_today');
    expect(await callOk(alice.client, 'planning_get_day', { date: today.date })).toEqual(today);
    expect(await callOk(alice.client, 'planning_get_day')).toEqual(today);
    await callOk(alice.client, 'checklist_toggle', { key: 'MAKE_BED' });
    const week = await callOk(alice.client, 'planning_get_week', { date: today.date });
    expect(week.days).toHaveLength(7);
    expect(week.days.find((d: { id: string }) => d.id === today.id)).toMatchObject({ date: today.date, checklistDone: 1, checklistRequired: 10, completed: false });
    expect(week.daysCompleted).toBe(0);

    expect(await callError(alice.client, 'planning_get_day', { date: '24/11/2026' })).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await callError(alice.client, 'planning_get_week', { date: '1999-01-04' })).toMatchObject({ code: 'NOT_FOUND' });
    const bob = await connectedUser(app);
    try {
      // Before Bob's today exists, Alice's day is not his; after, his own day record answers.
      expect(await callError(bob.client, 'planning_get_day', { date: today.date })).toMatchObject({ code: 'NOT_FOUND' });
      await callOk(bob.client, 'planning_get_today');
      expect((await callOk(bob.client, 'planning_get_day', { date: today.date })).id).not.toBe(today.id);
      expect((await callOk(bob.client, 'planning_get_week', { date: today.date })).id).not.toBe(week.id);
      expect(await callError(bob.client, 'planning_get_day', { date: '1999-01-04' })).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await bob.client.close();
    }
  });
});

describe('resources', () => {
  it('lists today and the templates with their instances, and reads each as its tool answers', async () => {
    const today = await callOk(alice.client, 'planning_get_today');
    const { resources } = await alice.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('life-planner://day/today');
    expect(uris).toContain(`life-planner://day/${today.date}`);
    expect(uris.filter((u) => u.startsWith('life-planner://day/2'))).toHaveLength(7);
    const { resourceTemplates } = await alice.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'life-planner://brain/note/{noteId}',
      'life-planner://day/{date}',
      'life-planner://grocery-list/{date}',
      'life-planner://insights/week/{date}',
      'life-planner://week/{date}',
    ]);

    expect(json(await alice.client.readResource({ uri: 'life-planner://day/today' }))).toEqual(today);
    expect(json(await alice.client.readResource({ uri: `life-planner://day/${today.date}` }))).toEqual(today);
    const week = json(await alice.client.readResource({ uri: `life-planner://week/${today.date}` }));
    expect(week.days).toHaveLength(7);
    expect(week.days.map((d: { id: string }) => d.id)).toContain(today.id);
    await expect(alice.client.readResource({ uri: `life-planner://grocery-list/${today.date}` })).rejects.toThrow(/not found/i);
    await callOk(alice.client, 'nutrition_generate_grocery_list', { date: today.date });
    const groceries = json(await alice.client.readResource({ uri: `life-planner://grocery-list/${today.date}` }));
    expect(groceries).toEqual(await callOk(alice.client, 'nutrition_grocery_list', { date: today.date }));

    const note = await callOk(alice.client, 'brain_create_note', { title: 'Trip to Lisbon', content: 'Book the train' });
    const listed = (await alice.client.listResources()).resources.find((r) => r.uri === `life-planner://brain/note/${note.id}`);
    expect(listed?.name).toBe('Trip to Lisbon');
    const read = json(await alice.client.readResource({ uri: `life-planner://brain/note/${note.id}` }));
    expect(read).toEqual(await callOk(alice.client, 'brain_read_note', { noteId: note.id }));
  });

  it('lists only what reads: a new account’s weeks, days and grocery list appear once they exist (issue 34)', async () => {
    const fresh = await connectedUser(app);
    const readsAll = async () => {
      const uris = (await fresh.client.listResources()).resources.map((r) => r.uri);
      for (const uri of uris) await expect(fresh.client.readResource({ uri }), uri).resolves.toBeTruthy();
      return uris;
    };
    try {
      // The insights (empty at first) and the two latest weekly summaries always read.
      const first = await readsAll();
      expect(first.filter((u) => !u.startsWith('life-planner://insights'))).toEqual(['life-planner://day/today']);
      expect(first.filter((u) => u.startsWith('life-planner://insights'))).toHaveLength(3);
      const today = await callOk(fresh.client, 'planning_get_today');
      const monday = (await callOk(fresh.client, 'planning_get_week', { date: today.date })).startDate;
      const listed = await readsAll();
      expect(listed).toContain(`life-planner://week/${monday}`);
      expect(listed.filter((u) => u.startsWith('life-planner://day/2'))).toHaveLength(7);
      expect(listed.filter((u) => u.startsWith('life-planner://week/'))).toHaveLength(1);
      expect(listed.some((u) => u.startsWith('life-planner://grocery-list/'))).toBe(false);
      await callOk(fresh.client, 'nutrition_generate_grocery_list', { date: today.date });
      expect(await readsAll()).toContain(`life-planner://grocery-list/${monday}`);
    } finally {
      await fresh.client.close();
    }
  });

  it('answers a missing, malformed or another user’s resource as an error, never a read', async () => {
    const note = await callOk(alice.client, 'brain_create_note', { title: 'Private', content: 'secret' });
    const bob = await connectedUser(app);
    try {
      await expect(bob.client.readResource({ uri: `life-planner://brain/note/${note.id}` })).rejects.toThrow(/not found/i);
      await expect(bob.client.readResource({ uri: 'life-planner://day/1999-01-01' })).rejects.toThrow(/not found/i);
      // The message once: the client says "MCP error <code>:", the server does not say it too (issue 34).
      await expect(bob.client.readResource({ uri: 'life-planner://grocery-list/1999-01-04' })).rejects.toThrow(/^MCP error -32002: Week not found$/);
      await expect(bob.client.readResource({ uri: 'life-planner://day/yesterday' })).rejects.toThrow(/YYYY-MM-DD/);
    } finally {
      await bob.client.close();
    }
  });

  it('offers only what the grant allows', async () => {
    const planner = await connectedUser(app, { areas: ['planning'], access: 'read' });
    try {
      const { resourceTemplates } = await planner.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['life-planner://day/{date}', 'life-planner://insights/week/{date}', 'life-planner://week/{date}']);
      await expect(planner.client.readResource({ uri: `life-planner://grocery-list/2026-11-23` })).rejects.toThrow();
      const prompts = (await planner.client.listPrompts()).prompts.map((p) => p.name).sort();
      expect(prompts).toEqual(['plan_my_day', 'weekly_review']);
    } finally {
      await planner.client.close();
    }
  });
});

describe('prompts', () => {
  it('lists plan_my_day, weekly_review and log_workout, and fills them with the person’s data', async () => {
    const { prompts } = await alice.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['log_workout', 'plan_my_day', 'weekly_review']);
    expect(prompts.find((p) => p.name === 'plan_my_day')!.arguments).toEqual([expect.objectContaining({ name: 'date', required: false })]);

    const task = await callOk(alice.client, 'tasks_create', { title: 'Write the quarterly report', timebox: 45 });
    const plan = await alice.client.getPrompt({ name: 'plan_my_day', arguments: {} });
    const text = (plan.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Write the quarterly report');
    expect(text).toContain(task.id);
    expect(text).toContain('bedtimeTargets');

    const today = await callOk(alice.client, 'planning_get_today');
    const review = await alice.client.getPrompt({ name: 'weekly_review', arguments: { date: today.date } });
    const reviewText = (review.messages[0]!.content as { text: string }).text;
    expect(reviewText).toContain('## Completion, mood, energy and sleep by day (planning_get_week)');
    expect(reviewText).toContain(today.id);
    expect(reviewText).toContain('## Journal (journal_today)');

    const workout = await alice.client.getPrompt({ name: 'log_workout', arguments: { exercises: 'bench press, squat' } });
    expect((workout.messages[0]!.content as { text: string }).text).toContain('bench press, squat');
    await expect(alice.client.getPrompt({ name: 'plan_my_day', arguments: { date: 'tomorrow' } })).rejects.toThrow(/YYYY-MM-DD/);
  });

  it('leaves out what the grant does not cover, and says so', async () => {
    const planner = await connectedUser(app, { areas: ['planning'], access: 'read' });
    try {
      const review = await planner.client.getPrompt({ name: 'weekly_review', arguments: {} });
      const text = (review.messages[0]!.content as { text: string }).text;
      expect(text).toContain('not shared with this assistant (needs money:read)');
      expect(text).toContain('not shared with this assistant (needs health:read)');
      expect(text).not.toMatch(/"accounts"|"categories"/);
    } finally {
      await planner.client.close();
    }
  });
});
