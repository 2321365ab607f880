import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { Week } from '../../planning/week.entity.js';
import { findRow, queryRows, readRows } from './read-rows.js';

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
