import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp } from '../../../test/support/http-client.js';
import { sql } from '../../../test/support/db.js';
import { recordStatements } from '../../../test/support/statement-counter.js';
import type { Orm } from '../database/orm.js';
import { connectAppOrm } from '../../app/database.js';
import { WaterIntake } from '../../wellness/water-intake.entity.js';
import type { EventName } from './event-catalog.js';
import { FactDispatcher, type Fact } from './fact-dispatcher.js';
import { insertWithEvent } from './record-event.js';

/**
 * insertWithEvent (issue 18): a record and its event in one statement when nothing in-process reacts to
 * the event, in a transaction with the reactors otherwise; either way both rows or neither.
 */
let app: TestApp;
let userId: string;
let dayId: string;
beforeAll(async () => {
  app = await startTestApp();
  const user = await signUp(app.url);
  userId = user.id;
  dayId = (await user.client.get('/api/v1/days/today')).body.data.id;
});
afterAll(async () => {
  await app?.close();
});

const intakeOf = (orm: Orm, volume: number) => orm.em.fork().create(WaterIntake, { userId, dayId, volume, time: new Date(), notes: 'test' }, { persist: false });

async function rowsOf(intakeId: string) {
  const intakes = await sql(app.databaseUrl, 'select volume, notes from water_intakes where id = $1', [intakeId]);
  // Not dispatched_at: the app's outbox dispatcher may have sent the event on by the time this reads.
  const events = await sql(app.databaseUrl, `select event, data from event_outbox where data->>'intakeId' = $1`, [intakeId]);
  return { intakes, events };
}

function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const recorder = recordStatements();
  return work()
    .finally(() => recorder.stop())
    .then(() => recorder.statements.map((s) => s.replace(/\s+/g, ' ').trim()));
}

describe('insertWithEvent', () => {
  it('with no reactor for the event: one statement writes the record and the event row, as em.insert would', async () => {
    const orm = app.server.orm;
    const intake = intakeOf(orm, 330);
    const statements = await statementsDuring(() => insertWithEvent(orm.em.fork(), intake, userId, 'water_logged', { intakeId: intake.id, amount: 330, loggedAt: '2026-11-24T08:00:00.000Z' }));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with "change" as \(insert into "water_intakes"/);
    expect(await rowsOf(intake.id)).toEqual({
      intakes: [{ volume: 330, notes: 'test' }],
      events: [{ event: 'water_logged', data: { intakeId: intake.id, amount: 330, loggedAt: '2026-11-24T08:00:00.000Z' } }],
    });
  });

  it('writes neither row when the event cannot be written', async () => {
    const orm = app.server.orm;
    const intake = intakeOf(orm, 440);
    const tooLong = 'x'.repeat(80) as EventName; // event is varchar(64)
    await expect(insertWithEvent(orm.em.fork(), intake, userId, tooLong, { intakeId: intake.id } as never)).rejects.toThrow();
    expect(await rowsOf(intake.id)).toEqual({ intakes: [], events: [] });
  });

  it('inside the caller transaction: both rows commit or roll back with it', async () => {
    const orm = app.server.orm;
    const intake = intakeOf(orm, 550);
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await insertWithEvent(tx, intake, userId, 'water_logged', { intakeId: intake.id, amount: 550, loggedAt: '2026-11-24T08:00:00.000Z' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await rowsOf(intake.id)).toEqual({ intakes: [], events: [] });
  });

  it('with a reactor for the event: a transaction, and the reactor sees the fact before it commits', async () => {
    // An ORM of its own on the app's database, with a reactor to water_logged (the app registers none).
    const orm = await connectAppOrm(app.databaseUrl);
    const seen: { fact: Fact; inTransaction: boolean; intakeVisible: number }[] = [];
    orm.em.getEventManager().registerSubscriber(
      new FactDispatcher([
        {
          reactsTo: (name) => name === 'water_logged',
          async react(em, facts) {
            for (const fact of facts) {
              const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from water_intakes where id = ?', [(fact.data as { intakeId: string }).intakeId]);
              seen.push({ fact, inTransaction: em.isInTransaction(), intakeVisible: row!.n });
            }
          },
        },
      ]),
    );
    try {
      const intake = intakeOf(orm, 660);
      const statements = await statementsDuring(() => insertWithEvent(orm.em.fork(), intake, userId, 'water_logged', { intakeId: intake.id, amount: 660, loggedAt: '2026-11-24T08:00:00.000Z' }));
      expect(statements.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['BEGIN;', 'insert into "water_intakes"', 'insert into "event_outbox"', 'select count(*)::int as', 'COMMIT;']);
      expect(seen).toEqual([{ fact: expect.objectContaining({ name: 'water_logged', userId }), inTransaction: true, intakeVisible: 1 }]);
      expect((await rowsOf(intake.id)).events).toHaveLength(1);
    } finally {
      await orm.close();
    }
  });
});
