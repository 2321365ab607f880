import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { keyHolder } from './public-api.test-helpers.js';

/**
 * What a Public API water write costs in SQL (issue 18): once the key is cached, the day lookup and one
 * statement writing the intake and its event, nothing else. The rules still hold: the event row is
 * written (water_logged), the day is the key owner's today.
 */
let app: TestApp;
let user: Awaited<ReturnType<typeof keyHolder>>;
beforeAll(async () => {
  app = await startTestApp();
  user = await keyHolder(app);
});
afterAll(async () => {
  await app?.close();
});

/** The statements of one request, spaces collapsed (background work is not counted: test/support/statement-counter.ts). */
async function statementsOf(request: () => Promise<{ status: number; text: string }>): Promise<string[]> {
  const recorder = recordStatements();
  try {
    const res = await request();
    expect(res.status, res.text).toBe(200);
  } finally {
    recorder.stop();
  }
  return recorder.statements.map((s) => s.replace(/\s+/g, ' ').trim());
}

describe('POST /api/public/v1/water statements', () => {
  it('a cached key: the day lookup, then one statement writing the intake and its event (one ownership check, no key lookup)', async () => {
    // The first request reads the key and starts the instance's invalidation listener; once it listens,
    // the next read of the key is cached.
    await expect
      .poll(async () => (await statementsOf(() => user.api.post('/water', { volume: 100 }))).filter((s) => /from api_keys/.test(s)).length, { timeout: 10_000 })
      .toBe(0);
    const statements = await statementsOf(() => user.api.post('/water', { volume: 250 }));
    // Nothing in-process reacts to water_logged: the intake and its event are one statement, no transaction.
    expect(statements.map((s) => s.split(' ').slice(0, 3).join(' ')), statements.join('\n')).toEqual(['select t."id" as', 'with "change" as']);
    expect(statements[0]).toMatch(/from "days" as t where t."user_id" = \$1 and t."date" = \$2/);
    expect(statements[1]).toMatch(/^with "change" as \(insert into "water_intakes" .*\) insert into "event_outbox" /);
    expect(statements.some((s) => /api_keys/.test(s))).toBe(false);
  });
});
