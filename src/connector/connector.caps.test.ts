import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan, sql } from '../../test/support/db.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { DAY_TASKS_MAX } from '../tasks/task.types.js';
import { DAY_ENTRIES_MAX } from '../planning/day-record.entity.js';
import { connectWithOAuth, TestOAuthClient, toolJson, startConnectorApp } from './connector.test-helpers.js';

let app: TestApp;
let client: Client;
let userId: string;
let day: string;

beforeAll(async () => {
  app = await startConnectorApp();
  const user = await signUp(app.server.deps.config.baseUrl);
  userId = user.id;
  await setPlan(app.databaseUrl, user.id, 'pro');
  [day] = await weekDayIds(user.client, '2026-11-23');
  client = await connectWithOAuth(`${app.server.deps.config.baseUrl}/mcp`, new TestOAuthClient(user.client.cookie!));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

it("refuses the assistant's task and water log past the day caps, as the app's own calls are refused", async () => {
  await sql(
    app.databaseUrl,
    `insert into tasks (id, created_at, updated_at, user_id, title, timebox, status, day_id) select gen_random_uuid(), now(), now(), $1, 'Task', 30, 'todo', $2 from generate_series(1, $3)`,
    [userId, day, DAY_TASKS_MAX],
  );
  const task = await client.callTool({ name: 'tasks_create', arguments: { title: 'One more', timebox: 30, dayId: day } });
  expect(task.isError).toBe(true);
  expect(toolJson(task).error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'A day can hold at most 200 tasks', details: { rule: 'day_task_limit' } });

  await sql(
    app.databaseUrl,
    `insert into water_intakes (id, created_at, updated_at, user_id, day_id, volume, time) select gen_random_uuid(), now(), now(), $1, $2, 250, now() from generate_series(1, $3)`,
    [userId, day, DAY_ENTRIES_MAX],
  );
  const water = await client.callTool({ name: 'log_water', arguments: { volume: 250, dayId: day } });
  expect(water.isError).toBe(true);
  expect(toolJson(water).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'day_entry_limit' } });
});
