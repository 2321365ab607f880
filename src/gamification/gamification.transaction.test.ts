import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { EVENT_NAMES, isEventName } from '../core/events/event-catalog.js';
import { inSavepoint, recordFact } from '../core/events/fact-dispatcher.js';
import { recordEvent } from '../core/events/record-event.js';
import { allOutboxEvents, outboxEvents } from '../../test/support/expectations.js';
import { farDays, toggle } from './gamification.test-helpers.js';

/**
 * The core subscription: facts reach the reactor in the transaction that records them, whether that
 * is a plain flush, a transaction or a nested one, and vanish with a rolled-back transaction.
 */
let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

async function grants(userId: string): Promise<{ action: string; source_id: string; xp: number }[]> {
  return app.server.orm.em.fork().getConnection().execute('select action, source_id, xp from gamification_xp_grants where user_id = ? order by granted_at', [userId]);
}

const cardio = (sessionId: string) => ({ sessionId, loggedAt: new Date().toISOString() });

describe('the fact dispatcher', () => {
  it('a plain flush, a transaction and a nested transaction each carry their facts to the reactor', async () => {
    const { id } = await signUp(app.url);
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const em = app.server.orm.em.fork();
    recordEvent(em, id, 'cardio_logged', cardio(a));
    await em.flush();
    await em.fork().transactional(async (tx) => {
      recordEvent(tx, id, 'cardio_logged', cardio(b));
    });
    await em.fork().transactional(async (outer) => {
      await outer.transactional(async (inner) => {
        recordEvent(inner, id, 'cardio_logged', cardio(c));
      });
    });
    expect(await grants(id)).toEqual([a, b, c].map((s) => ({ action: 'cardio', source_id: s, xp: 15 })));
  });

  it('a savepoint rolled back inside a committed transaction grants nothing for its facts (inSavepoint)', async () => {
    const { id } = await signUp(app.url);
    const [refused, kept] = [randomUUID(), randomUUID()];
    await app.server.orm.em.fork().transactional(async (tx) => {
      await expect(
        inSavepoint(tx, async (sp) => {
          recordEvent(sp, id, 'cardio_logged', cardio(refused));
          await sp.flush();
          throw new Error('refused row');
        }),
      ).rejects.toThrow('refused row');
      recordEvent(tx, id, 'cardio_logged', cardio(kept));
    });
    expect(await grants(id)).toEqual([{ action: 'cardio', source_id: kept, xp: 15 }]);
    expect((await outboxEvents(app, id, 'cardio_logged')).map((e) => e.data.sessionId)).toEqual([kept]);
  });

  it('a rolled-back transaction grants nothing, and its facts do not leak into the next one', async () => {
    const { id } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        recordEvent(tx, id, 'cardio_logged', cardio(randomUUID()));
        await tx.flush();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await grants(id)).toEqual([]);
    expect(await allOutboxEvents(app, id)).toEqual([]);
    const next = randomUUID();
    await em.transactional(async (tx) => {
      recordEvent(tx, id, 'cardio_logged', cardio(next));
    });
    expect((await grants(id)).map((g) => g.source_id)).toEqual([next]);
  });

  it('internal facts are never outbox rows and never subscribable names', async () => {
    const { client, id } = await signUp(app.url);
    const [day] = await farDays(client);
    await toggle(client, day.id, 'MAKE_BED');
    await toggle(client, day.id, 'MAKE_BED'); // checklist_item_unticked: an internal fact
    const em = app.server.orm.em.fork();
    await em.transactional(async (tx) => {
      recordFact(tx, id, 'journal_entry_created', { entryId: randomUUID() });
      recordEvent(tx, id, 'water_logged', { intakeId: randomUUID(), amount: 250, loggedAt: new Date().toISOString() });
    });
    const names = (await allOutboxEvents(app, id)).map((e) => e.event);
    expect(names).toEqual(['checklist_completed', 'achievement_unlocked', 'water_logged', 'achievement_unlocked']);
    expect(names.every((n) => (EVENT_NAMES as readonly string[]).includes(n))).toBe(true);
    expect(EVENT_NAMES).not.toContain('checklist_item_unticked');
    for (const name of ['journal_entry_created', 'checklist_item_unticked', 'task_reopened', 'day_reopened']) expect(isEventName(name)).toBe(false);
    expect((await grants(id)).map((g) => g.action)).toEqual(['journal']);
  });
});
