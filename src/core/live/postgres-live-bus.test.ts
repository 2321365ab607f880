import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger.js';
import { notify } from '../database/notify.js';
import { createDatabase, dropDatabase } from '../database/provision.js';
import { LIVE_CHANNEL, LIVE_NOTIFY_APPLICATION, PostgresLiveBus } from './postgres-live-bus.js';
import { RESYNC_MESSAGE } from './pending-notifies.js';
import type { LiveBatch } from './live-change.js';

/**
 * The PostgreSQL live bus (issue 36 item 7): the batches published in one event-loop turn go out as one
 * NOTIFY, more only past PostgreSQL's 8000-byte payload; every instance hears them in publishing order,
 * a batch waits until PostgreSQL accepted it (a NOTIFY on a killed connection is sent again, first),
 * and the writing instance's own listeners get its batches whatever its connections do.
 * Two buses (two instances) on a database of this file's own (its connections are killed), and a
 * plain LISTEN that sees each NOTIFY as sent.
 */
const serverUrl = inject('dbServerUrl');
const databaseName = `${inject('testDatabasePrefix')}livebus${randomUUID().replace(/-/g, '').slice(0, 12)}`;
let url: string;
let writer: PostgresLiveBus;
let reader: PostgresLiveBus;
let raw: pg.Client;
const writerLog: string[] = [];
const heardByWriter: LiveBatch[] = [];
const heardByReader: LiveBatch[] = [];
let readerGaps = 0;
const payloads: string[] = [];

beforeAll(async () => {
  url = await createDatabase(serverUrl, databaseName);
  writer = new PostgresLiveBus(url, createLogger('info', { write: (line: string) => void writerLog.push(line) }), () => undefined);
  reader = new PostgresLiveBus(url, createLogger('silent'), () => readerGaps++);
  writer.onBatch((batch) => heardByWriter.push(batch));
  reader.onBatch((batch) => heardByReader.push(batch));
  await Promise.all([writer.start(), reader.start()]);
  await listenRaw();
});
afterAll(async () => {
  await raw?.end().catch(() => undefined);
  await writer?.stop();
  await reader?.stop();
  await dropDatabase(serverUrl, databaseName);
});

async function listenRaw(): Promise<void> {
  raw = new pg.Client({ connectionString: url, application_name: 'live bus test' });
  raw.on('error', () => undefined); // killed with the others in the last test
  await raw.connect();
  raw.on('notification', (message) => payloads.push(message.payload ?? ''));
  await raw.query(`LISTEN ${LIVE_CHANNEL}`);
}

/** Terminates this file's database's backends matching `where` (as the outage tests kill connections); answers how many. */
async function kill(where: string, params: unknown[] = []): Promise<number> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and ${where}`, [databaseName, ...params]);
    return killed.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** Lets new connections into this file's database, or refuses them (`ALLOW_CONNECTIONS`; open ones stay). */
async function allowConnections(allow: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${databaseName}" ALLOW_CONNECTIONS ${allow}`);
  } finally {
    await admin.end();
  }
}

/** Batches of a person of one test only. */
function person(): { userId: string; batch: (ids: string[]) => LiveBatch } {
  const userId = randomUUID();
  return { userId, batch: (ids) => ({ userId, committedAt: Date.now(), changes: ids.map((id) => ({ entity: 'Task', id, kind: 'updated' as const })) }) };
}

const idsOf = (batches: LiveBatch[], userId: string) => batches.filter((b) => b.userId === userId).flatMap((b) => b.changes.map((c) => c.id));
const sentFor = (userId: string) => payloads.filter((p) => p.includes(userId));
const firstOccurrences = (ids: string[]) => [...new Set(ids)];
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('PostgreSQL live bus batching', () => {
  it('sends the batches of one turn as one NOTIFY, heard in order; the writer hears its own once', async () => {
    const { userId, batch } = person();
    const published = Array.from({ length: 20 }, (_, i) => batch([`t${i}`]));
    for (const b of published) writer.publish(b);
    const ids = published.map((b) => b.changes[0]!.id);
    await expect.poll(() => idsOf(heardByReader, userId).length).toBe(20);
    expect(idsOf(heardByReader, userId)).toEqual(ids);
    expect(sentFor(userId)).toHaveLength(1);
    // Its own batches reach the writer directly; the NOTIFY it hears back is not delivered a second time.
    await expect.poll(() => sentFor(userId).length).toBe(1);
    expect(idsOf(heardByWriter, userId)).toEqual(ids);
  });

  it('many batches in one turn: as few NOTIFYs as fit under 8000 bytes each, order kept', async () => {
    const { userId, batch } = person();
    const published = Array.from({ length: 500 }, (_, i) => batch([`task-${i}-${randomUUID()}`]));
    for (const b of published) writer.publish(b);
    await expect.poll(() => idsOf(heardByReader, userId).length, { timeout: 10_000 }).toBe(500);
    expect(idsOf(heardByReader, userId)).toEqual(published.map((b) => b.changes[0]!.id));
    const sent = sentFor(userId);
    const bytes = published.reduce((n, b) => n + Buffer.byteLength(JSON.stringify(b)) + 1, 0);
    expect(bytes).toBeGreaterThan(40_000);
    // Each full: no more messages than the bytes need (each at most 7999), far fewer than batches.
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(bytes / 7000));
    for (const payload of sent) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
  });

  it('cuts one batch over 8000 bytes into parts under it, its changes in order', async () => {
    const { userId, batch } = person();
    const ids = Array.from({ length: 300 }, (_, i) => `${i}-${randomUUID()}`);
    const big = batch(ids);
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(8000);
    writer.publish(big);
    await expect.poll(() => idsOf(heardByReader, userId).length, { timeout: 10_000 }).toBe(300);
    expect(idsOf(heardByReader, userId)).toEqual(ids);
    const sent = sentFor(userId);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const payload of sent) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
  });

  it('batches of separate turns go in separate NOTIFYs, in order', async () => {
    const { userId, batch } = person();
    writer.publish(batch(['first']));
    await nextTurn();
    writer.publish(batch(['second']));
    await expect.poll(() => idsOf(heardByReader, userId).length).toBe(2);
    expect(idsOf(heardByReader, userId)).toEqual(['first', 'second']);
    expect(sentFor(userId)).toHaveLength(2);
  });

  it('still hears a single batch per NOTIFY, as instances before batching send it, and a resync from another instance', async () => {
    const { userId, batch } = person();
    const gapsBefore = readerGaps;
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await notify(pool, LIVE_CHANNEL, JSON.stringify(batch(['alone'])));
      await notify(pool, LIVE_CHANNEL, RESYNC_MESSAGE);
    } finally {
      await pool.end();
    }
    await expect.poll(() => idsOf(heardByReader, userId)).toEqual(['alone']);
    await expect.poll(() => readerGaps).toBe(gapsBefore + 1);
  });
});

describe('PostgreSQL live bus across killed connections', () => {
  it('a NOTIFY on a killed connection waits and is sent again before anything later: another instance hears every batch, in order', async () => {
    const { userId, batch } = person();
    const ids: string[] = [];
    let publishing = true;
    const publisher = (async () => {
      for (let i = 0; publishing; i++) {
        for (let j = 0; j < 3; j++) {
          const b = batch([`n${i}-${j}`]);
          ids.push(b.changes[0]!.id);
          writer.publish(b);
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const failures = () => writerLog.filter((line) => line.includes('live notify failed')).length;
    const failuresBefore = failures();
    try {
      for (let round = 0; round < 2; round++) {
        const heard = idsOf(heardByReader, userId).length;
        await expect.poll(() => idsOf(heardByReader, userId).length, { timeout: 10_000 }).toBeGreaterThan(heard); // sending
        // The sending connection killed, and no new one let in for a while: the NOTIFYs fail and wait,
        // whether the kill met one on its way or the pool noticed it idle (the reader's LISTEN stays).
        await allowConnections(false);
        try {
          expect(await kill('application_name = $2', [LIVE_NOTIFY_APPLICATION])).toBe(1);
          await expect.poll(failures, { timeout: 10_000 }).toBeGreaterThan(failuresBefore + round);
          const waiting = ids.length;
          await expect.poll(() => ids.length, { timeout: 10_000 }).toBeGreaterThan(waiting + 1500); // half a second or more of batches published meanwhile
        } finally {
          await allowConnections(true);
        }
      }
    } finally {
      publishing = false;
      await publisher;
    }
    await expect.poll(() => firstOccurrences(idsOf(heardByReader, userId)).length, { timeout: 20_000 }).toBe(ids.length);
    // Every batch, in publishing order; one accepted just before its answer was lost may come twice.
    expect(firstOccurrences(idsOf(heardByReader, userId))).toEqual(ids);
    // The writer's own: each once, in order, though its NOTIFYs failed meanwhile.
    expect(idsOf(heardByWriter, userId)).toEqual(ids);
  }, 60_000);

  it('every connection killed (LISTEN too) while publishing: the writer hears each batch once, in order; the other instance re-reads and hears again', async () => {
    const { userId, batch } = person();
    const ids: string[] = [];
    const gapsBefore = readerGaps;
    const publishTurn = (i: number) => {
      for (let j = 0; j < 3; j++) {
        const b = batch([`k${i}-${j}`]);
        ids.push(b.changes[0]!.id);
        writer.publish(b);
      }
    };
    for (let i = 0; i < 10; i++) {
      publishTurn(i);
      await nextTurn();
    }
    // The kill and the publishing together, as in test/resilience/live-bus-outage.test.ts.
    const killing = kill('true');
    for (let i = 10; i < 40; i++) {
      publishTurn(i);
      await nextTurn();
    }
    expect(await killing).toBeGreaterThanOrEqual(3); // both listeners and the writer's sending connection
    await expect.poll(() => readerGaps, { timeout: 20_000 }).toBeGreaterThan(gapsBefore);
    // Listening again, the other instance hears what comes next.
    writer.publish(batch(['after']));
    await expect.poll(() => idsOf(heardByReader, userId).at(-1), { timeout: 20_000 }).toBe('after');
    // The writer heard every batch of its own, each once, in order: none went down with a killed connection.
    await expect.poll(() => idsOf(heardByWriter, userId).at(-1), { timeout: 20_000 }).toBe('after');
    expect(idsOf(heardByWriter, userId)).toEqual([...ids, 'after']);
    // What the reader heard is in publishing order; the rest its re-read (the gap) covers.
    const heard = firstOccurrences(idsOf(heardByReader, userId));
    expect(heard).toEqual([...ids, 'after'].filter((id) => heard.includes(id)));
  }, 60_000);
});
