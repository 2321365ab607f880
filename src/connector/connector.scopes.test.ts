import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { callError, callOk, connectedUser, connectWithToken, startConnectorApp } from './connector.test-helpers.js';
import { connectorTools } from './mcp/tools/index.js';
import { scopeOf } from './mcp/tools/tool.js';

/** Issue 25: what the person grants on the consent page is what the assistant can list and call. */
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
});
afterAll(async () => {
  await app?.close();
});

const token = async (form: Record<string, string>) =>
  fetch(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });

describe('a read-only connection', () => {
  it('lists no writing tool, refuses a forced write naming the scope, and stores nothing', async () => {
    const { user, client } = await connectedUser(app, { access: 'read' });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((tool) => !tool.annotations?.readOnlyHint).map((t) => t.name)).toEqual([]);
    const readable = connectorTools().filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);
    expect(tools.map((t) => t.name).sort()).toEqual(readable.sort());

    const refused = await callError(client, 'tasks_create', { title: 'Sneaky', timebox: 10 });
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'planning:write' } });
    expect(refused.message).toContain('planning:write');
    expect(await sql(app.databaseUrl, 'select id from tasks where user_id = $1', [user.id])).toEqual([]);
    expect(await sql(app.databaseUrl, 'select id from event_outbox where user_id = $1', [user.id])).toEqual([]);
    // Reads work.
    expect((await callOk(client, 'tasks_list')).tasks).toEqual([]);
    await client.close();
  });
});

describe('a connection to some areas', () => {
  it('offers the clock and those areas only', async () => {
    const { client } = await connectedUser(app, { areas: ['food'], access: 'write' });
    const listed = (await client.listTools()).tools.map((t) => t.name);
    const expected = connectorTools()
      .filter((tool) => scopeOf(tool) === null || scopeOf(tool)!.startsWith('food:'))
      .map((tool) => tool.name);
    expect(listed.sort()).toEqual(expected.sort());
    expect(listed).toContain('system_get_current_datetime');
    expect(await callError(client, 'planning_get_today')).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'planning:read' } });
    await client.close();
  });
});

describe('narrowing a connection', () => {
  it('takes effect on the next call, never widens, and another user’s connection is 404', async () => {
    const { user, client } = await connectedUser(app);
    const [connection] = (await user.client.get('/api/v1/connections')).body.data;
    expect(connection.scopes).toContain('planning:write');
    expect(await callOk(client, 'tasks_create', { title: 'Allowed', timebox: 10 })).toMatchObject({ title: 'Allowed' });

    const narrowed = await user.client.patch(`/api/v1/connections/${connection.id}`, { scopes: ['planning:read', 'food:write'] });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data.scopes).toEqual(['planning:read', 'food:read', 'food:write']);
    expect(await callError(client, 'tasks_create', { title: 'Refused', timebox: 10 })).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('tasks_list');
    expect(listed).not.toContain('tasks_create');
    expect(listed).not.toContain('log_water');

    const wider = await user.client.patch(`/api/v1/connections/${connection.id}`, { scopes: ['planning:write'] });
    expect(wider.status).toBe(400);
    expect(wider.body.error.code).toBe('VALIDATION_ERROR');
    const unknown = await user.client.patch(`/api/v1/connections/${connection.id}`, { scopes: ['everything'] });
    expect(unknown.status).toBe(400);

    const other = await connectedUser(app);
    const foreign = await other.user.client.patch(`/api/v1/connections/${connection.id}`, { scopes: ['planning:read'] });
    expect(foreign.status).toBe(404);
    expect((await user.client.get('/api/v1/connections')).body.data[0].scopes).toEqual(['planning:read', 'food:read', 'food:write']);
    await client.close();
    await other.client.close();
  });
});

describe('token requests naming scopes', () => {
  it('a refresh may ask for fewer scopes, never for more', async () => {
    const { provider, client } = await connectedUser(app, { areas: ['planning', 'food'], access: 'write' });
    const clientId = (provider.info as { client_id: string }).client_id;
    expect(provider.saved!.scope).toBe('planning:read planning:write food:read food:write');

    const beyond = await token({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: clientId, scope: 'money:read' });
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as { error: string }).error).toBe('invalid_scope');

    const fewer = await token({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: clientId, scope: 'planning:read' });
    expect(fewer.status).toBe(200);
    const tokens = (await fewer.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope).toBe('planning:read');
    provider.saveTokens({ ...tokens, token_type: 'Bearer' });
    const narrower = await connectWithToken(`${base}/mcp`, provider);
    const listed = (await narrower.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('planning_get_today');
    expect(listed).not.toContain('tasks_create');
    expect(listed.some((name) => name.startsWith('nutrition_'))).toBe(false);
    await narrower.close();
    await client.close();
  });
});
