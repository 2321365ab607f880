import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { connectWithOAuth, startConnectorApp, TestOAuthClient, toolJson } from './connector.test-helpers.js';

/** Issue 23 items 11 and 15: bad tool arguments answer docs/connector.md's `{ error: { code, message, details } }`, naming the argument. */
let app: TestApp;
let client: Client;
let userId: string;

beforeAll(async () => {
  app = await startConnectorApp();
  const user = await signUp(app.server.deps.config.baseUrl);
  userId = user.id;
  await setPlan(app.databaseUrl, user.id, 'pro');
  client = await connectWithOAuth(`${app.server.deps.config.baseUrl}/mcp`, new TestOAuthClient(user.client.cookie!));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

it('refuses arguments of the wrong type in the tools’ error shape, naming each argument', async () => {
  const result = await client.callTool({ name: 'tasks_create', arguments: { title: 'Report', timebox: 'long' } });
  expect(result.isError).toBe(true);
  expect(toolJson(result)).toEqual({
    error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('timebox'), details: { errors: [{ path: ['timebox'], message: expect.any(String) }] } },
  });
});

it('refuses NUL and a lone surrogate with the argument’s path, storing nothing', async () => {
  for (const title of ['Report\u0000', 'Report\ud800']) {
    const result = await client.callTool({ name: 'tasks_create', arguments: { title, timebox: 30 } });
    expect(result.isError, JSON.stringify(title)).toBe(true);
    expect(toolJson(result).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['title'], message: expect.stringContaining('must not contain') }] } });
  }
  const rows = await sql(app.databaseUrl, 'select title from tasks where user_id = $1', [userId]);
  expect(rows).toEqual([]);
});

it('answers the same rule with the same words as GraphQL and REST (one validation vocabulary)', async () => {
  const user = await signUp(app.server.deps.config.baseUrl);
  await setPlan(app.databaseUrl, user.id, 'pro');
  const own = await connectWithOAuth(`${app.server.deps.config.baseUrl}/mcp`, new TestOAuthClient(user.client.cookie!));
  try {
    const cases: { title: string; words: string }[] = [
      { title: '   ', words: 'title must not be blank' },
      { title: '', words: 'title must not be empty' },
      { title: 'x'.repeat(501), words: 'title must be at most 500 characters' },
    ];
    for (const { title, words } of cases) {
      const tool = toolJson(await own.callTool({ name: 'tasks_create', arguments: { title, timebox: 30 } }));
      const rest = await user.client.post('/api/v1/tasks', { title, timebox: 30 });
      expect(rest.status).toBe(400);
      expect(JSON.stringify(rest.body.error), words).toContain(words);
      expect(tool.error.details.errors.map((e: { message: string }) => e.message), words).toContain(words);
    }
    const day = (await user.client.get('/api/v1/days/today')).body.data;
    const graphql = await user.client.graphql('mutation($d: UUID!) { logMood(dayId: $d, mood: 11, energy: 5) { id } }', { d: day.id });
    expect(JSON.stringify(graphql.body.errors)).toContain('mood must be 1 to 10');
    const tool = toolJson(await own.callTool({ name: 'log_mood', arguments: { mood: 11, energy: 5 } }));
    expect(tool.error.details.errors).toEqual([{ path: ['mood'], message: 'mood must be 1 to 10' }]);
    // Each field named once (issue 34: it read "mood mood must be 1 to 10").
    expect(tool.error.message).toBe('Invalid arguments: mood must be 1 to 10');
  } finally {
    await own.close();
  }
});

it('a writing tool called again with its clientRequestId answers the first answer and writes once (docs/idempotency.md)', async () => {
  const count = async () => Number((await sql<{ n: string }>(app.databaseUrl, 'select count(*)::text as n from water_intakes where user_id = $1', [userId]))[0]!.n);
  const call = (args: Record<string, unknown>) => client.callTool({ name: 'log_water', arguments: args });
  const first = await call({ volume: 330, clientRequestId: 'shortcut-7' });
  expect(first.isError).toBeFalsy();
  const again = await call({ volume: 330, clientRequestId: 'shortcut-7' });
  expect(again.structuredContent).toEqual(first.structuredContent);
  expect(await count()).toBe(1);
  expect(toolJson(await call({ volume: 500, clientRequestId: 'shortcut-7' })).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  // Without an id, or with another, each call writes.
  await call({ volume: 330 });
  await call({ volume: 330, clientRequestId: 'shortcut-8' });
  expect(await count()).toBe(3);
});
