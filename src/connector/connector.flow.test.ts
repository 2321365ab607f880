import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { FINGERPRINT_FIELDS } from '../brain/forms/form-submit.service.js';
import { connectorTools } from './mcp/tools/index.js';
import { connectWithOAuth, connectWithToken, rawMcp, TestOAuthClient, toolJson, startConnectorApp } from './connector.test-helpers.js';
import type { AgendaEntryType } from '../agenda/agenda.types.js';
import { AGENDA_ENTRY_AREAS } from './scopes/answer-areas.js';

let app: TestApp;
let base: string;
let mcpUrl: string;
let user: { client: HttpClient; id: string; email: string; password: string };
let provider: TestOAuthClient;
let client: Client;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
  mcpUrl = `${base}/mcp`;
  user = await signUp(base);
  await setPlan(app.databaseUrl, user.id, 'pro');
  provider = new TestOAuthClient(user.client.cookie!);
  client = await connectWithOAuth(mcpUrl, provider);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

const EXPECTED_TOOLS = {
  system_get_current_datetime: { readOnlyHint: true, destructiveHint: false, idempotentHint: false },
  planning_get_today: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  checklist_toggle: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  tasks_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  tasks_create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  tasks_update_status: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  log_water: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  log_mood: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  agenda_range: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  brain_form_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  brain_form_make: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  brain_form_update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  brain_form_publish: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  brain_form_submit: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  brain_form_delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
};

describe('the whole OAuth flow with the SDK client', () => {
  it('registered the client dynamically, used PKCE S256 and the /mcp resource, and stores only hashes', async () => {
    const info = provider.info as { client_id: string; client_secret?: string };
    expect(info.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(info.client_secret).toBeUndefined(); // a public client (token_endpoint_auth_method none)
    const url = provider.lastAuthorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${base}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(mcpUrl);
    expect(url.searchParams.get('client_id')).toBe(info.client_id);
    const tokens = provider.saved!;
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.expires_in).toBeLessThanOrEqual(3600);
    expect(tokens.access_token).toMatch(/^lpat_/);
    expect(tokens.refresh_token).toMatch(/^lprt_/);
    const rows = await sql(app.databaseUrl, 'select token_hash, kind, resource, expires_at from oauth_tokens');
    expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(tokens.access_token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(tokens.access_token);
    expect(rows.every((r) => r.resource === mcpUrl)).toBe(true);
    const access = rows.find((r) => r.kind === 'access')!;
    expect(new Date(access.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    const codes = await sql(app.databaseUrl, 'select code_hash, used_at from oauth_codes');
    expect(codes).toHaveLength(1);
    expect(codes[0]!.used_at).not.toBeNull();
  });

  it('lists every tool with a title, annotations and a JSON schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(connectorTools().map((t) => t.name).sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean), openWorldHint: false });
      if (tool.name in EXPECTED_TOOLS) expect(tool.annotations, tool.name).toMatchObject(EXPECTED_TOOLS[tool.name as keyof typeof EXPECTED_TOOLS]);
      // A read-only tool is never destructive.
      if (tool.annotations!.readOnlyHint) expect(tool.annotations!.destructiveHint, tool.name).toBe(false);
    }
    expect(Object.keys(EXPECTED_TOOLS).every((name) => tools.some((t) => t.name === name))).toBe(true);
    const create = tools.find((t) => t.name === 'tasks_create')!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['title', 'timebox']));
    const update = tools.find((t) => t.name === 'tasks_update_status')!;
    expect((update.inputSchema.properties as any).status.enum).toEqual(['todo', 'doing', 'done', 'deferred']);
  });

  it('calls every tool through the same services as the app', async () => {
    await user.client.patch('/api/v1/settings', { timezone: 'Europe/Paris' });

    const now = toolJson(await client.callTool({ name: 'system_get_current_datetime', arguments: {} }));
    expect(now.timezone).toBe('Europe/Paris');
    expect(Math.abs(Date.parse(now.utc) - Date.now())).toBeLessThan(60_000);
    expect(now.local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/);
    expect(Date.parse(now.local)).toBe(Date.parse(now.utc));
    expect(now.weekday).toBe(new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', weekday: 'long' }).format(new Date(now.utc)));
    expect(now.date).toBe(now.local.slice(0, 10));

    const created = await client.callTool({ name: 'tasks_create', arguments: { title: 'Write the report', timebox: 45 } });
    expect(created.isError).toBeFalsy();
    const task = toolJson(created);
    expect(task).toMatchObject({ title: 'Write the report', timebox: 45, status: 'todo' });

    const deferredWithout = await client.callTool({ name: 'tasks_update_status', arguments: { taskId: task.id, status: 'deferred' } });
    expect(deferredWithout.isError).toBe(true);
    expect(toolJson(deferredWithout).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(toolJson(deferredWithout).error.message).toMatch(/nextStep/);

    const deferred = toolJson(await client.callTool({ name: 'tasks_update_status', arguments: { taskId: task.id, status: 'deferred', nextStep: 'Outline section 1' } }));
    expect(deferred).toMatchObject({ status: 'deferred', nextStep: 'Outline section 1' });
    const done = toolJson(await client.callTool({ name: 'tasks_update_status', arguments: { taskId: task.id, status: 'done', expectedVersion: deferred.version } }));
    expect(done).toMatchObject({ status: 'done', version: deferred.version + 1 });
    // A stale version (docs/concurrency.md) is refused with the current task, nothing written.
    const stale = await client.callTool({ name: 'tasks_update_status', arguments: { taskId: task.id, status: 'todo', expectedVersion: deferred.version } });
    expect(stale.isError).toBe(true);
    expect(toolJson(stale).error).toMatchObject({ code: 'VERSION_CONFLICT' });

    const listed = toolJson(await client.callTool({ name: 'tasks_list', arguments: { status: 'done' } }));
    expect(listed.tasks.map((t: any) => t.id)).toEqual([task.id]);
    expect(listed.meta).toMatchObject({ page: 1, total: 1 });

    const toggled = toolJson(await client.callTool({ name: 'checklist_toggle', arguments: { key: 'MAKE_BED' } }));
    expect(toggled).toMatchObject({ key: 'MAKE_BED', completed: true, required: true, version: expect.any(Number) });
    // A version other than the item's own flips nothing back (docs/concurrency.md).
    const staleToggle = await client.callTool({ name: 'checklist_toggle', arguments: { key: 'MAKE_BED', expectedVersion: toggled.version + 1 } });
    expect(toolJson(staleToggle).error).toMatchObject({ code: 'VERSION_CONFLICT', details: { current: { key: 'MAKE_BED', completed: true, version: toggled.version } } });
    const water = toolJson(await client.callTool({ name: 'log_water', arguments: { volume: 500 } }));
    expect(water).toMatchObject({ volume: 500 });
    const mood = toolJson(await client.callTool({ name: 'log_mood', arguments: { mood: 7, energy: 6 } }));
    expect(mood).toMatchObject({ mood: 7, energy: 6 });

    const today = toolJson(await client.callTool({ name: 'planning_get_today', arguments: {} }));
    expect(today.date).toBe(now.date);
    expect(today.id).toBe(toggled.dayId);
    expect(today).toMatchObject({ mood: 7, energy: 6, minimumMode: false, completed: false });
    expect(today.checklist.find((i: any) => i.key === 'MAKE_BED')).toMatchObject({ completed: true, version: toggled.version });
    expect(today.checklist.filter((i: any) => i.required)).toHaveLength(10);
    expect(today.perimeterTasks).toEqual([]);
    expect(today.bedtimeTargets).toMatchObject({ wakeTime: expect.any(String), inBedTime: expect.any(String), lightsOutTime: expect.any(String), stressWeek: false });

    // The same events as the app's own writes.
    const events = await sql(app.databaseUrl, 'select event from event_outbox where user_id = $1 order by occurred_at', [user.id]);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['task_created', 'task_completed', 'checklist_completed', 'water_logged']));

    // And the app sees what the assistant did.
    const viaRest = await user.client.get('/api/v1/days/today');
    expect(viaRest.body.data.mood).toBe(7);

    // The agenda shows the task the assistant put on today, exactly as GET /agenda/range does.
    await client.callTool({ name: 'tasks_update_status', arguments: { taskId: task.id, status: 'todo' } });
    const onToday = await user.client.patch(`/api/v1/tasks/${task.id}`, { dayId: today.id });
    expect(onToday.status).toBe(200);
    const range = { start: today.date, end: `${today.date}T23:59:59` };
    const agenda = toolJson(await client.callTool({ name: 'agenda_range', arguments: range }));
    const viaAgendaRoute = await user.client.get(`/api/v1/agenda/range?start=${range.start}&end=${range.end}`);
    // The same entries as the app's, each with the area it belongs to (what a grant filters by).
    expect(agenda.entries.map(({ area, ...entry }: { area: string }) => entry)).toEqual(viaAgendaRoute.body.data);
    expect(agenda.entries.map((e: { area: string }) => e.area)).toEqual(agenda.entries.map((e: { type: AgendaEntryType }) => AGENDA_ENTRY_AREAS[e.type]));
    expect(agenda.entries).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'task', sourceId: task.id, allDay: true })]));
    const badRange = await client.callTool({ name: 'agenda_range', arguments: { start: range.end, end: range.start } });
    expect(badRange.isError).toBe(true);
    expect(toolJson(badRange).error).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('works with Brain forms through the same services as REST: make, update, publish, submit (with its event), list, delete', async () => {
    const made = toolJson(
      await client.callTool({
        name: 'brain_form_make',
        arguments: {
          name: 'Quiz night',
          createDatabase: { name: 'Quiz answers' },
          config: { showQuizScore: true, fields: [{ key: 'capital', label: 'Capital of France?', type: 'select', options: ['Paris', 'Lyon'], correct: 'Paris', required: true }] },
        },
      }),
    );
    expect(made).toMatchObject({ name: 'Quiz night', published: false });
    const viaRest = await user.client.get(`/api/v1/brain/forms/${made.id}`);
    expect(viaRest.body.data).toMatchObject({ id: made.id, name: 'Quiz night', databaseId: made.databaseId });

    expect(toolJson(await client.callTool({ name: 'brain_form_update', arguments: { formId: made.id, name: 'Quiz night 2' } }))).toMatchObject({ name: 'Quiz night 2' });
    const published = toolJson(await client.callTool({ name: 'brain_form_publish', arguments: { formId: made.id, published: true } }));
    expect(published.publicSlug).toEqual(expect.any(String));

    // The form's rules hold for the assistant too: a required field missing is the Brain VALIDATION code.
    const missing = await client.callTool({ name: 'brain_form_submit', arguments: { formId: made.id, values: {} } });
    expect(missing.isError).toBe(true);
    expect(toolJson(missing).error.code).toBe('VALIDATION');
    const submitted = toolJson(await client.callTool({ name: 'brain_form_submit', arguments: { formId: made.id, values: { capital: 'Paris' }, respondentName: 'Claude' } }));
    expect(submitted.quiz).toEqual({ score: 1, max: 1, pct: 100 });
    expect(submitted.record.id).toEqual(expect.any(String));
    const [event] = await sql(app.databaseUrl, "select data from event_outbox where user_id = $1 and event = 'brain_form_submitted'", [user.id]);
    expect(event!.data).toMatchObject({ formId: made.id, formName: 'Quiz night 2', publicSlug: published.publicSlug, recordId: submitted.record.id, respondentName: 'Claude', quiz: { score: 1, max: 1, pct: 100 } });
    for (const field of FINGERPRINT_FIELDS) expect(event!.data.values, field).not.toHaveProperty(field);

    expect(toolJson(await client.callTool({ name: 'brain_form_list', arguments: {} })).forms.map((f: any) => f.id)).toEqual([made.id]);
    expect(toolJson(await client.callTool({ name: 'brain_form_delete', arguments: { formId: made.id } }))).toMatchObject({ id: made.id });
    expect((await user.client.get(`/api/v1/brain/forms/${made.id}`)).status).toBe(404);
    expect(toolJson(await client.callTool({ name: 'brain_form_list', arguments: {} })).forms).toEqual([]);
  });

  it('answers bad arguments and a missing task as isError results, not transport errors', async () => {
    const bad = await client.callTool({ name: 'log_water', arguments: { volume: -1 } });
    expect(bad.isError).toBe(true);
    const missing = await client.callTool({ name: 'tasks_update_status', arguments: { taskId: '00000000-0000-4000-8000-000000000000', status: 'done' } });
    expect(missing.isError).toBe(true);
    expect(toolJson(missing).error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('rotates refresh tokens; reusing an old one revokes the whole family', async () => {
    const info = provider.info!;
    const first = provider.saved!;
    const second = await refreshAuthorization(base, { clientInformation: info, refreshToken: first.refresh_token!, resource: mcpUrl });
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await rawMcp(mcpUrl, second.access_token)).status).toBe(200);

    const third = await refreshAuthorization(base, { clientInformation: info, refreshToken: second.refresh_token!, resource: mcpUrl });
    expect((await rawMcp(mcpUrl, third.access_token)).status).toBe(200);

    // The first refresh token again: refused, and every token of the family with it.
    await expect(refreshAuthorization(base, { clientInformation: info, refreshToken: first.refresh_token!, resource: mcpUrl })).rejects.toThrow(/already used/);
    expect((await rawMcp(mcpUrl, third.access_token)).status).toBe(401);
    await expect(refreshAuthorization(base, { clientInformation: info, refreshToken: third.refresh_token!, resource: mcpUrl })).rejects.toThrow(/revoked/);

    // A new authorization starts a new family; the connection is the same one.
    const again = new TestOAuthClient(user.client.cookie!);
    again.info = info;
    const reconnected = await connectWithOAuth(mcpUrl, again);
    expect((await reconnected.listTools()).tools.length).toBe(connectorTools().length);
    await reconnected.close();
    const connections = await user.client.get('/api/v1/connections');
    expect(connections.body.data).toHaveLength(1);
    provider.saved = again.saved;
    const fresh = await connectWithToken(mcpUrl, provider);
    expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
    await fresh.close();
  });
});
