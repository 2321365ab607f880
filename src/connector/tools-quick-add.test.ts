import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/**
 * Issue 37: the quick_add tool through the SDK client connected over OAuth. The scope it needs is the
 * area of what the line makes, checked before anything is read or written.
 */
type Connected = Awaited<ReturnType<typeof connectedUser>>;
let app: TestApp;
let full: Connected;
let healthOnly: Connected;
let readOnly: Connected;

beforeAll(async () => {
  app = await startConnectorApp();
  [full, healthOnly, readOnly] = await Promise.all([
    connectedUser(app),
    connectedUser(app, { areas: ['health'] }),
    connectedUser(app, { areas: ['money', 'health'], access: 'read' }),
  ]);
});
afterAll(async () => {
  await Promise.all([full?.client.close(), healthOnly?.client.close(), readOnly?.client.close()]);
  await app?.close();
});

const count = async (table: string, userId: string) => Number((await sql(app.databaseUrl, `select count(*)::int as n from ${table} where user_id = $1`, [userId]))[0]!.n);

describe('quick_add', () => {
  it('writes the record the line describes and answers it token by token', async () => {
    const answer = await callOk(full.client, 'quick_add', { text: 'water 500ml' });
    expect(answer).toMatchObject({ kind: 'water', created: true, record: { type: 'WaterIntake', fields: { volume: 500 } } });
    expect(answer.tokens.map((t: any) => t.text)).toEqual(['water', '500', 'ml']);
    expect(await count('water_intakes', full.user.id)).toBe(1);
    // Its undoToken takes the line back (docs/undo.md); another person's undo of it: not found.
    expect(answer.undoToken).toMatch(UNDO_TOKEN_SHAPE);
    expect(await callError(healthOnly.client, 'undo', { token: answer.undoToken })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await callOk(full.client, 'undo', { token: answer.undoToken })).toMatchObject({ kind: 'quick_add' });
    expect(await count('water_intakes', full.user.id)).toBe(0);
  });

  it('needs the write scope of the line\'s area, and writes nothing outside it', async () => {
    expect(await callOk(healthOnly.client, 'quick_add', { text: 'steps 8000' })).toMatchObject({ kind: 'steps', created: true });
    const refused = await callError(healthOnly.client, 'quick_add', { text: 'call mom tomorrow' });
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'planning:write' } });
    expect(await count('tasks', healthOnly.user.id)).toBe(0);
  });

  it('answers a dry run with the read scope, and refuses a write with it', async () => {
    const dry = await callOk(readOnly.client, 'quick_add', { text: 'slept 7h20', dryRun: true });
    expect(dry).toMatchObject({ kind: 'sleep', created: false, record: { id: null, fields: { duration: 7.33 } } });
    expect(await callError(readOnly.client, 'quick_add', { text: 'slept 7h20' })).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'health:write' } });
    expect(await count('sleep_entries', readOnly.user.id)).toBe(0);
  });

  it('answers NOT_UNDERSTOOD with what was understood', async () => {
    const error = await callError(full.client, 'quick_add', { text: 'blah blah' });
    expect(error.code).toBe('NOT_UNDERSTOOD');
    expect(error.details.unknown.map((t: any) => t.text)).toEqual(['blah', 'blah']);
  });
});
