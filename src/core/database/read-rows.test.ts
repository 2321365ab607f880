import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { Week } from '../../planning/week.entity.js';
import { findRow, queryRows, readRows } from './read-rows.js';
import { inlineParameters } from './read-batch.js';
import { recordStatements } from '../../../test/support/statement-counter.js';

let app: TestApp;
let userId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ id: userId } = await signUp(app.url));
});

afterAll(async () => {
  await app?.close();
});

describe('plain reads on the ORM connection', () => {
  it('read the entity shape: property names, dates as YYYY-MM-DD, timestamps as Date', async () => {
    const em = app.server.orm.em.fork();
    const week = em.create(Week, { userId, startDate: '2026-03-02', endDate: '2026-03-08' });
    await em.flush();
    const row = await findRow(app.server.orm.em.fork(), Week, { userId, startDate: '2026-03-02' });
    expect(row).toMatchObject({ id: week.id, userId, startDate: '2026-03-02', endDate: '2026-03-08', isStressWeek: false });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(row!.createdAt.getTime()).toBe(week.createdAt.getTime());
    expect(await readRows(app.server.orm.em.fork(), Week, { where: 'id', values: [week.id, MISSING_ID] })).toHaveLength(1);
    expect(await findRow(app.server.orm.em.fork(), Week, { userId, startDate: '2026-03-09' })).toBeUndefined();
  });

  it('run inside an open transaction on its connection: they see its uncommitted rows, which roll back with it', async () => {
    const failure = new Error('roll back');
    let insideTransaction: unknown[] = [];
    await expect(
      app.server.orm.em.fork().transactional(async (tx) => {
        tx.create(Week, { userId, startDate: '2026-04-06', endDate: '2026-04-12' });
        await tx.flush();
        insideTransaction = await readRows(tx, Week, { where: 'userId', values: [userId] });
        // Another connection does not see the row before the commit.
        expect(await findRow(app.server.orm.em.fork(), Week, { userId, startDate: '2026-04-06' })).toBeUndefined();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(insideTransaction.map((w) => (w as Week).startDate)).toContain('2026-04-06');
    expect(await findRow(app.server.orm.em.fork(), Week, { userId, startDate: '2026-04-06' })).toBeUndefined();
  });

  it('hand connections back to the pool, also when a statement fails', async () => {
    const em = app.server.orm.em.fork();
    for (let i = 0; i < 30; i++) await expect(queryRows(em, 'select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect(await queryRows(em, 'select $1::int as n', [7])).toEqual([{ n: 7 }]);
  });
});

describe('reads that start together share one round trip', () => {
  const TRICKY = `it's a \\ back'slash; drop table weeks; --`;

  it('answer each caller its own rows, as the same statements alone would', async () => {
    const em = app.server.orm.em.fork();
    const statements: [string, unknown[]][] = [
      ['select $1::text as t, $2::int as n', [TRICKY, 7]],
      ['select $1::text[] as list, $2::boolean as b, $3::text as missing', [['a"b', "c'd", 'e,f', TRICKY, null], true, null]],
      ['select $1::timestamptz as at, $2::numeric as x', [new Date('2026-03-02T10:20:30.456Z'), 1.5]],
      ['select $1::jsonb as doc', [{ a: [1, "q'uote"] }]],
    ];
    const alone = [];
    for (const [sql, params] of statements) alone.push(await queryRows(em, sql, params));
    const recorder = recordStatements();
    const together = await Promise.all(statements.map(([sql, params]) => queryRows(em, sql, params))).finally(() => recorder.stop());
    expect(together).toEqual(alone);
    expect(together[0]).toEqual([{ t: TRICKY, n: 7 }]);
    expect(recorder.roundTrips).toHaveLength(1);
    expect(recorder.statements).toHaveLength(statements.length);
  });

  it('a failing statement fails only its caller', async () => {
    const em = app.server.orm.em.fork();
    const [ok, failing, other] = await Promise.allSettled([
      queryRows(em, 'select $1::int as n', [1]),
      queryRows(em, 'select * from no_such_table where id = $1', [MISSING_ID]),
      queryRows(em, 'select $1::int as n', [2]),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: [{ n: 1 }] });
    expect(failing.status).toBe('rejected');
    expect(String((failing as PromiseRejectedResult).reason)).toMatch(/no_such_table/);
    expect(other).toEqual({ status: 'fulfilled', value: [{ n: 2 }] });
    // A value pg cannot serialise fails only its caller too.
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const [unserialisable, beside] = await Promise.allSettled([queryRows(em, 'select $1::jsonb as d', [circular]), queryRows(em, 'select $1::int as n', [3])]);
    expect(String((unserialisable as PromiseRejectedResult).reason)).toMatch(/circular/i);
    expect(beside).toEqual({ status: 'fulfilled', value: [{ n: 3 }] });
  });

  it('statements that may hold a $n outside a placeholder or a second statement, and binary values, run alone', () => {
    expect(inlineParameters('select $1::int as n', [1])).toBe(`select '1'::int as n`);
    expect(inlineParameters(`select $1::text || '$2' as t`, ['a', 'b'])).toBeNull();
    expect(inlineParameters('select $$x$$ || $1 as t', ['a'])).toBeNull();
    expect(inlineParameters('select 1 as "a$1"', [])).toBeNull();
    expect(inlineParameters('select $1::bytea as b', [Buffer.from('x')])).toBeNull();
    expect(inlineParameters('select $2::int as n', [1])).toBeNull();
    expect(inlineParameters('select $1::int as n; select 2', [1])).toBeNull();
  });

  it('inside a transaction each read runs on the transaction\'s connection, one by one', async () => {
    await app.server.orm.em.fork().transactional(async (tx) => {
      const recorder = recordStatements();
      await Promise.all([queryRows(tx, 'select $1::int as n', [1]), queryRows(tx, 'select $1::int as n', [2])]).finally(() => recorder.stop());
      expect(recorder.roundTrips).toHaveLength(2);
      // A read alone is prepared on its connection once, and reused.
      await queryRows(tx, 'select $1::int as n', [3]);
      const prepared = await queryRows(tx, `select count(*)::int as n from pg_prepared_statements where statement = 'select $1::int as n'`);
      expect(prepared).toEqual([{ n: 1 }]);
    });
  });
});
