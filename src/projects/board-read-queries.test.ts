import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';

/**
 * Reading a board costs a fixed number of SQL statements however many columns and tasks it holds: the
 * columns of every board asked for come in one statement, the tasks of every column in one more.
 */
let app: TestApp;
let client: HttpClient;
let small: string;
let large: string;
const LARGE_COLUMNS = 8;
const LARGE_TASKS = 40;

async function newProject(title: string): Promise<string> {
  const res = await client.post('/api/v1/projects', { title });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

beforeAll(async () => {
  app = await startTestApp();
  ({ client } = await signUp(app.url));
  small = await newProject('small');
  expect((await client.post(`/api/v1/projects/${small}/tasks`, { title: 'only' })).status).toBe(201);

  large = await newProject('large');
  const columns = Array.from({ length: LARGE_COLUMNS }, (_, i) => ({ name: `c${i}` }));
  const current = (await client.get(`/api/v1/projects/${large}/board`)).body.data.columns;
  const patched = await client.patch(`/api/v1/projects/${large}/board`, {
    columns: [...current.map((c: any) => ({ id: c.id, name: c.name })), ...columns.slice(current.length)],
  });
  expect(patched.status, patched.text).toBe(200);
  const ids = patched.body.data.columns.map((c: any) => c.id);
  for (let i = 0; i < LARGE_TASKS; i++) {
    const t = await client.post(`/api/v1/projects/${large}/tasks`, { title: `t${i}` });
    expect(t.status, t.text).toBe(201);
    const moved = await client.post(`/api/v1/projects/${large}/tasks/${t.body.data.id}/move`, { columnId: ids[i % ids.length], order: 0 });
    expect(moved.status, moved.text).toBe(200);
  }
  for (let i = 0; i < 3; i++) await newProject(`more${i}`);
});
afterAll(async () => {
  await app?.close();
});

/** The statements the server runs for one request (background work is not counted: test/support/statement-counter.ts). */
async function measure(send: () => Promise<{ status: number; text: string; body: any }>): Promise<{ count: number; sql: string[]; body: any }> {
  const recorder = recordStatements();
  const res = await send().finally(() => recorder.stop());
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  expect(res.body.errors, res.text.slice(0, 500)).toBeUndefined();
  return { count: recorder.statements.length, sql: recorder.statements, body: res.body };
}

const BOARD_QUERY = `query($id: UUID!) { project(projectId: $id) { title board { columns { id name order tasks { id title order status } } } } }`;

describe('SQL statements per board read', () => {
  it('GET /projects/:projectId/board costs the same for 1 task in 3 columns and 40 tasks in 8', async () => {
    const one = await measure(() => client.get(`/api/v1/projects/${small}/board`));
    const many = await measure(() => client.get(`/api/v1/projects/${large}/board`));
    expect(many.body.data.columns).toHaveLength(LARGE_COLUMNS);
    expect(many.body.data.columns.flatMap((c: any) => c.tasks)).toHaveLength(LARGE_TASKS);
    console.info(`REST GET /projects/:id/board: ${one.count} statements (1 task), ${many.count} (${LARGE_TASKS} tasks)\n  ${many.sql.map((s) => s.slice(0, 120)).join('\n  ')}`);
    expect(many.count, `${one.sql.join('\n')}\n---\n${many.sql.join('\n')}`).toBe(one.count);
    expect(one.count, one.sql.join('\n')).toBe(3);
  });

  it('the GraphQL project with its board, and every project with its board, cost a fixed count', async () => {
    const one = await measure(() => client.graphql(BOARD_QUERY, { id: small }));
    const many = await measure(() => client.graphql(BOARD_QUERY, { id: large }));
    expect(many.body.data.project.board.columns.flatMap((c: any) => c.tasks)).toHaveLength(LARGE_TASKS);
    expect(many.count, many.sql.join('\n')).toBe(one.count);
    const all = await measure(() => client.graphql('{ projects { items { title board { columns { name tasks { title } } } } } }'));
    expect(all.body.data.projects.items).toHaveLength(5);
    console.info(`GraphQL project board: ${one.count} statements (1 task), ${many.count} (${LARGE_TASKS} tasks); all 5 projects with boards: ${all.count}`);
    expect(all.count, all.sql.join('\n')).toBe(one.count);
  });
});
