import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { connectWithOAuth, startConnectorApp, TestOAuthClient, toolJson } from './connector.test-helpers.js';

/** Issue 23 items 11 and 15: bad tool arguments answer the README's `{ error: { code, message, details } }`, naming the argument. */
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
