import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { sql } from '../../test/support/db.js';
import { keyHolder } from './public-api.test-helpers.js';

/**
 * What a Public API water write costs in SQL (issues 18 and 36.4): once the key and today's day id are
 * cached, one statement writing the intake and its event, nothing else. The rules still hold: the event row is
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
  it('a cached key and a cached today: one statement writing the intake and its event (no key lookup, no day lookup), then the undo token', async () => {
    // The first request reads the key and today's day and starts the instance's invalidation listeners;
    // once they listen, the next requests read neither.
    await expect
      .poll(async () => (await statementsOf(() => user.api.post('/water', { volume: 100 }))).filter((s) => !s.startsWith('with "change"') && /from api_keys|from "days"/.test(s)).length, { timeout: 10_000 })
      .toBe(0);
    const statements = await statementsOf(() => user.api.post('/water', { volume: 250 }));
    // Nothing in-process reacts to water_logged: the intake, its event and its change-feed row are one
    // statement, no transaction (docs/sync.md).
    // (Issue 36.4: the day lookup before it is gone, today's day id is cached per instance.) The answer's
    // undo token (docs/undo.md) is one INSERT after it, outside the write (issue 38: 1 statement before).
    expect(statements.map((s) => s.split(' ').slice(0, 3).join(' ')), statements.join('\n')).toEqual(['with "change" as', 'insert into "undo_tokens"']);
    // The day is locked (FOR KEY SHARE, as its foreign key's check would) before the feed row takes the
    // person's version row: a deletion of the day committing meanwhile cannot deadlock with it.
    expect(statements[0]).toMatch(/^with "change" as \(insert into "water_intakes" .*\), "event" as \(insert into "event_outbox" .*\) select lp_record_changes\(.*\)::text as cursor from \(select 1 from "days" where "id" = \$\d+ for key share\) p0$/);
  });

  it('with an Idempotency-Key (docs/idempotency.md): the claim, the write, the kept answer; a repeat claims and reads the key only', async () => {
    const keyed = { headers: { 'idempotency-key': `statements-${Date.now()}` } };
    const first = await statementsOf(() => user.api.post('/water', { volume: 250 }, keyed));
    expect(first.map((s) => s.split(' ').slice(0, 3).join(' ')), first.join('\n')).toEqual(['insert into idempotency_keys', 'with "change" as', 'insert into "undo_tokens"', 'update idempotency_keys set']);
    const repeat = await statementsOf(() => user.api.post('/water', { volume: 250 }, keyed));
    expect(repeat.map((s) => s.split(' ').slice(0, 3).join(' ')), repeat.join('\n')).toEqual(['insert into idempotency_keys', 'select fingerprint, status,']);
  });

  it('a deleted day is forgotten (the database notifies every instance): the next write lands on the new today', async () => {
    await user.api.post('/water', { volume: 100 });
    const cache = app.server.deps.todayDayIds!;
    await expect.poll(() => cache.size, { timeout: 10_000 }).toBeGreaterThan(0);
    // Plain SQL on a connection of the test's own, as an admin or another instance would delete it.
    await sql(app.databaseUrl, 'delete from weeks where user_id = $1', [user.id]);
    await expect.poll(() => cache.size, { timeout: 10_000 }).toBe(0);
    const res = await user.api.post('/water', { volume: 300 });
    expect(res.status, res.text).toBe(200);
    const day = await sql(app.databaseUrl, 'select d.user_id from water_intakes w join days d on d.id = w.day_id where w.id = $1', [res.body.data.id]);
    expect(day).toEqual([{ user_id: user.id }]);
  });
});
