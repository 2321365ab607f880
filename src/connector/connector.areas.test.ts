import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { addDays } from '../core/dates.js';
import { callOk, connectedUser, connectWithOAuth, startConnectorApp, TestOAuthClient } from './connector.test-helpers.js';
import { SCOPE_AREAS, type ScopeArea } from './scopes/connector-scopes.js';

/**
 * Issue 34 item 4: a connection granted one area sees no other area's data through any tool, resource
 * or prompt — aggregates (the agenda, the prompts reading through it) included. Derived from what the
 * server lists, so a new tool, resource or prompt is covered without touching this test: one user holds
 * a record carrying a marker in every area; for each area, a connection granted only that area calls
 * every read-only tool it lists, reads every resource it lists and gets every prompt it lists, and no
 * other area's marker may appear. Each area's own marker must appear, so the seeding is proven.
 */
let app: TestApp;
let owner: Awaited<ReturnType<typeof connectedUser>>;
let today: string;
let noteId: string;

const marker = (area: ScopeArea) => `mk${area}zq`;
/** Hours slept, written on the day by health_log_sleep: health's data in a planning record. */
const SLEEP_HOURS = '13.37';
/** What shows an area's data in an answer: its marker, and for health the day's sleep too (no health tool reads it back). */
const signs = (area: ScopeArea) => (area === 'health' ? [marker(area), SLEEP_HOURS] : [marker(area)]);

/** Arguments for the tools that answer nothing useful without them (a tool without an entry is called with none). */
const toolArguments = (): Record<string, Record<string, unknown>> => ({
  agenda_range: { start: today, end: addDays(today, 2), showAllTransactions: true },
  brain_search: { q: 'zq' },
  brain_read_note: { noteId },
  training_exercise_history: { name: 'bench press' },
  people_last_seen: { person: marker('people') },
});
const promptArguments = (): Record<string, Record<string, string>> => ({ weekly_review: { date: today } });

beforeAll(async () => {
  app = await startConnectorApp();
  owner = await connectedUser(app);
  const c = owner.client;
  const rest = owner.user.client;
  const created = async (path: string, body: Record<string, unknown>) => {
    const res = await rest.post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const day = await callOk(c, 'planning_get_today');
  today = day.date;
  const now = new Date().toISOString();
  const soon = new Date(Date.now() + 3_600_000).toISOString();

  await callOk(c, 'tasks_create', { title: `Task ${marker('planning')}`, timebox: 30, dayId: day.id });
  await callOk(c, 'training_log_session', { dayId: day.id, split: marker('health'), startTime: now, exercises: [{ name: 'bench press', sets: [{ reps: 5, load: 70 }] }] });
  await callOk(c, 'health_log_meditation', { duration: 10, type: marker('health'), dayId: day.id });
  await callOk(c, 'health_log_sleep', { duration: Number(SLEEP_HOURS), dayId: day.id });
  await callOk(c, 'nutrition_add_meal_template', { name: `Chili ${marker('food')}`, servings: 2 });
  await callOk(c, 'nutrition_generate_grocery_list', { date: today });
  await callOk(c, 'nutrition_add_grocery_items', { date: today, items: [{ name: `Beans ${marker('food')}` }] });
  await callOk(c, 'reading_add_book', { title: `Book ${marker('journal')}`, author: 'A. Author', totalPages: 300 });
  await callOk(c, 'reading_log_session', { book: marker('journal'), pagesRead: 10, duration: 15, dayId: day.id });
  noteId = (await callOk(c, 'brain_create_note', { title: `Note ${marker('journal')}`, content: marker('journal') })).id;
  await created('/api/v1/people', { name: `Carla ${marker('people')}`, birthday: `1990-${today.slice(5)}` });
  await callOk(c, 'people_log_happening', { title: `Lunch ${marker('people')}`, startTime: now });
  await callOk(c, 'projects_create', { title: `Board ${marker('projects')}` });
  await callOk(c, 'projects_add_card', { project: marker('projects'), title: `Card ${marker('projects')}`, dueDate: soon });
  await created('/api/v1/deadlines', { title: `Deadline ${marker('projects')}`, dueDate: soon });
  await created('/api/v1/accounts', { name: `Account ${marker('money')}`, type: 'checking', balance: 0, currency: 'EUR' });
  await callOk(c, 'finance_add_transaction', { accountName: marker('money'), amount: -5, description: `secret tx ${marker('money')}` });
});
afterAll(async () => {
  await owner?.client.close();
  await app?.close();
});

/** Everything a connection can read: each listed read-only tool's answer, each listed resource, each listed prompt. */
async function everythingReadable(client: Client): Promise<{ text: string; tools: string[] }> {
  const texts: string[] = [];
  const { tools } = await client.listTools();
  const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
  const args = toolArguments();
  for (const name of readOnly) texts.push(JSON.stringify(await callOk(client, name, args[name] ?? {})));
  // A grant that allows no resource (or prompt) leaves the capability out, as MCP has it.
  const offers = client.getServerCapabilities() ?? {};
  const { resources } = offers.resources ? await client.listResources() : { resources: [] };
  for (const resource of resources) texts.push(JSON.stringify(await client.readResource({ uri: resource.uri })));
  const { prompts } = offers.prompts ? await client.listPrompts() : { prompts: [] };
  const promptArgs = promptArguments();
  for (const prompt of prompts) texts.push(JSON.stringify(await client.getPrompt({ name: prompt.name, arguments: promptArgs[prompt.name] ?? {} })));
  return { text: texts.join('\n').toLowerCase(), tools: readOnly };
}

describe('a connection granted one area', () => {
  it('the seeded agenda holds the markers of six areas for a connection granted them all', async () => {
    const { entries } = await callOk(owner.client, 'agenda_range', toolArguments().agenda_range);
    const text = JSON.stringify(entries).toLowerCase();
    for (const area of SCOPE_AREAS.filter((a) => a !== 'food')) expect(text, area).toContain(marker(area));
    expect((await callOk(owner.client, 'planning_get_today')).sleepHours).toBe(Number(SLEEP_HOURS));
    expect(entries.find((e: { type: string }) => e.type === 'transaction')).toMatchObject({ area: 'money', title: expect.stringContaining('secret tx') });
  });

  it.each(SCOPE_AREAS.map((area) => [area]))('%s: sees its own data and no other area’s through any tool, resource or prompt', async (area) => {
    const provider = new TestOAuthClient(owner.user.client.cookie!, {}, { areas: [area], access: 'write' });
    const client = await connectWithOAuth(`${app.server.deps.config.baseUrl}/mcp`, provider);
    try {
      const { text, tools } = await everythingReadable(client);
      expect(tools.length).toBeGreaterThan(1);
      expect(text).toContain(marker(area));
      const leaked = SCOPE_AREAS.filter((other) => other !== area && signs(other).some((sign) => text.includes(sign)));
      expect(leaked).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
