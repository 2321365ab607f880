import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { createPerimeterTasks, expectGraphQLError, expectValidation, firstDay } from './planning.test-helpers.js';

/** Whatever a client sends, the planning and settings routes answer 4xx naming the field, never 500. */
let app: TestApp;
let client: HttpClient;
let day: any;
let tasks: any[];

const MEGABYTE = 'x'.repeat(1024 * 1024);

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client } = await signUp(app.url));
  day = await firstDay(client);
  tasks = await createPerimeterTasks(client, 3);
});

async function dayAsStored(): Promise<any> {
  return (await client.get(`/api/v1/days/${day.id}`)).body.data;
}

describe('oversized strings', () => {
  it('refuses 1 MB notes and titles with 400 naming the field', async () => {
    const notes = await client.patch(`/api/v1/days/${day.id}`, { notes: MEGABYTE });
    expectValidation(notes, 'notes');
    expect(notes.text.length).toBeLessThan(10_000); // the value is not echoed back
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: MEGABYTE }), 'title');
    expectValidation(await client.patch(`/api/v1/perimeter/tasks/${tasks[0].id}`, { title: MEGABYTE }), 'title');
    expectValidation(await client.patch('/api/v1/settings', { timezone: MEGABYTE }), 'timezone');
    expectValidation(await client.patch('/api/v1/settings', { weeklySplitLabels: [MEGABYTE] }), 'weeklySplitLabels');
    const gql = await client.graphql('mutation($id: UUID!, $n: String) { updateDay(dayId: $id, notes: $n) { id } }', { id: day.id, n: MEGABYTE });
    expect(expectGraphQLError(gql, 'VALIDATION_ERROR').extensions.details.errors[0].path).toEqual(['notes']);
    expect((await dayAsStored()).notes).toBeNull();
  });

  it('accepts notes up to 10000 characters, any Unicode included', async () => {
    const text = `${'é'.repeat(9_990)}🙂 ok`;
    const res = await client.patch(`/api/v1/days/${day.id}`, { notes: text });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect((await dayAsStored()).notes).toBe(text);
  });

  it('refuses text PostgreSQL cannot store (a NUL character) with 400, not 500', async () => {
    expectValidation(await client.patch(`/api/v1/days/${day.id}`, { notes: 'a\u0000b' }), 'notes');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: 'a\u0000b' }), 'title');
    expectValidation(await client.patch('/api/v1/settings', { weeklySplitLabels: ['Push\u0000'] }), 'weeklySplitLabels');
  });
});

describe('wrong shapes', () => {
  it('refuses arrays, objects and numbers where strings belong', async () => {
    for (const notes of [['a'], { a: 1 }, 1, true]) expectValidation(await client.patch(`/api/v1/days/${day.id}`, { notes }), 'notes');
    for (const title of [['a'], { a: 1 }, 1]) expectValidation(await client.post('/api/v1/perimeter/tasks', { title }), 'title');
    for (const startDate of [['2030-01-07'], { d: '2030-01-07' }]) expectValidation(await client.post('/api/v1/weeks/generate', { startDate }), 'startDate');
    expectValidation(await client.patch('/api/v1/settings', { wakeTime: ['07:00'] }), 'wakeTime');
  });

  it('refuses numbers JSON turns into Infinity or that overflow an integer', async () => {
    expectValidation(await client.request('PATCH', `/api/v1/days/${day.id}`, { rawBody: '{"sleepHours": 1e309}' }), 'sleepHours');
    expectValidation(await client.patch(`/api/v1/days/${day.id}`, { mood: 2 ** 40 }), 'mood');
    expectValidation(await client.get('/api/v1/perimeter/tasks?limit=99999999999'), 'limit');
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const rawBody of ['{"notes": ', '[1,2]', '"text"', 'null']) {
      const res = await client.request('PATCH', `/api/v1/days/${day.id}`, { rawBody });
      expect(res.status, `${rawBody}: ${res.text}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('ignores __proto__ and constructor keys and pollutes no prototype', async () => {
    const bodies = [
      '{"__proto__": {"timezone": "Mars/Base", "polluted": true}, "wakeTime": "06:00"}',
      '{"constructor": {"prototype": {"polluted": true}}, "inBedTime": "22:00"}',
    ];
    for (const rawBody of bodies) {
      const res = await client.request('PATCH', '/api/v1/settings', { rawBody });
      expect(res.status, res.text).toBeLessThan(500);
    }
    const settings = await client.get('/api/v1/settings');
    expect(settings.body.data.timezone).toBe('UTC');
    const day2 = await client.request('PATCH', `/api/v1/days/${day.id}`, { rawBody: '{"__proto__": {"userId": "x", "notes": "p"}}' });
    expect(day2.status, day2.text).toBeLessThan(500);
    const toggled = await client.request('POST', `/api/v1/checklist/${day.id}/toggle/READING`, { rawBody: '{"value": {"__proto__": {"x": 1}}}' });
    expectValidation(toggled, 'value');
    // The server runs in this process: a polluted Object.prototype would show here.
    expect(({} as any).polluted).toBeUndefined();
    expect(({} as any).timezone).toBeUndefined();
  });
});

describe('invalid UUIDs', () => {
  it('answer 400 naming the parameter in every path', async () => {
    const bad = ['nope', '123', '00000000-0000-0000-0000-00000000000g', `${day.id}x`, '%E0%A4%A', "'; drop table days; --"];
    for (const id of bad) {
      const p = encodeURIComponent(id);
      expectValidation(await client.get(`/api/v1/days/${p}`), 'dayId');
      expectValidation(await client.patch(`/api/v1/days/${p}`, { notes: 'x' }), 'dayId');
      expectValidation(await client.get(`/api/v1/checklist/${p}`), 'dayId');
      expectValidation(await client.post(`/api/v1/checklist/${p}/toggle/GYM`), 'dayId');
      expectValidation(await client.patch(`/api/v1/weeks/${p}`, { isStressWeek: true }), 'weekId');
      expectValidation(await client.patch(`/api/v1/perimeter/tasks/${p}`, { title: 'x' }), 'taskId');
      expectValidation(await client.delete(`/api/v1/perimeter/tasks/${p}`), 'taskId');
      expectValidation(await client.post(`/api/v1/perimeter/${p}`, { taskIds: tasks.map((t) => t.id) }), 'dayId');
    }
  });

  it('answer 400 naming the field in bodies', async () => {
    const ids = tasks.map((t) => t.id);
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [ids[0], ids[1], 'nope'] }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [ids[0], ids[1], 42] }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: [ids[0], ids[1], null] }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: { 0: ids[0] } }), 'taskIds');
    expectValidation(await client.post(`/api/v1/perimeter/${day.id}`, { taskIds: Array(51).fill(ids[0]) }), 'taskIds');
    expectValidation(await client.post('/api/v1/perimeter/tasks', { title: 'x', personId: 'nope' }), 'personId');
    expectValidation(await client.post(`/api/v1/checklist/${day.id}/toggle/READING`, { value: 'nope' }), 'value');
  });
});
