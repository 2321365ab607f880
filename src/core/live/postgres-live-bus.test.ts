import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp } from '../../../test/support/test-app.js';
import { createLogger } from '../logger.js';
import { notify } from '../database/notify.js';
import { LIVE_CHANNEL, PostgresLiveBus } from './postgres-live-bus.js';
import type { LiveBatch } from './live-change.js';

/**
 * The PostgreSQL live bus sends the batches published in one event-loop turn as one NOTIFY (issue 36),
 * more only past PostgreSQL's 8000-byte payload, and every instance hears them in publishing order.
 * Two buses on the test database (two instances), and a plain LISTEN that sees each NOTIFY as sent.
 */
let url: string;
let writer: PostgresLiveBus;
let reader: PostgresLiveBus;
let raw: pg.Client;
const heard: LiveBatch[] = [];
const payloads: string[] = [];

beforeAll(async () => {
  url = (await sharedTestApp()).databaseUrl;
  const logger = createLogger('silent');
  writer = new PostgresLiveBus(url, logger, () => undefined);
  reader = new PostgresLiveBus(url, logger, () => undefined);
  reader.onBatch((batch) => heard.push(batch));
  await Promise.all([writer.start(), reader.start()]);
  raw = new pg.Client({ connectionString: url });
  await raw.connect();
  raw.on('notification', (message) => payloads.push(message.payload ?? ''));
  await raw.query(`LISTEN ${LIVE_CHANNEL}`);
});
afterAll(async () => {
  await raw?.end();
  await writer?.stop();
  await reader?.stop();
});

/** Batches of a person of this test only (the shared app's own writes use the channel too). */
function person(): { userId: string; batch: (ids: string[]) => LiveBatch } {
  const userId = randomUUID();
  return { userId, batch: (ids) => ({ userId, committedAt: Date.now(), changes: ids.map((id) => ({ entity: 'Task', id, kind: 'updated' as const })) }) };
}

const heardBy = (userId: string) => heard.filter((b) => b.userId === userId);
const sentFor = (userId: string) => payloads.filter((p) => p.includes(userId));

describe('PostgreSQL live bus batching', () => {
  it('sends the batches of one turn as one NOTIFY, heard in order', async () => {
    const { userId, batch } = person();
    const published = Array.from({ length: 20 }, (_, i) => batch([`t${i}`]));
    for (const b of published) writer.publish(b);
    await expect.poll(() => heardBy(userId).length).toBe(20);
    expect(heardBy(userId).map((b) => b.changes[0]!.id)).toEqual(published.map((b) => b.changes[0]!.id));
    expect(sentFor(userId)).toHaveLength(1);
  });

  it('many batches in one turn: as few NOTIFYs as fit under 8000 bytes each, order kept', async () => {
    const { userId, batch } = person();
    const published = Array.from({ length: 500 }, (_, i) => batch([`task-${i}-${randomUUID()}`]));
    for (const b of published) writer.publish(b);
    await expect.poll(() => heardBy(userId).length, { timeout: 10_000 }).toBe(500);
    expect(heardBy(userId).map((b) => b.changes[0]!.id)).toEqual(published.map((b) => b.changes[0]!.id));
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
    await expect.poll(() => heardBy(userId).flatMap((b) => b.changes).length, { timeout: 10_000 }).toBe(300);
    expect(heardBy(userId).flatMap((b) => b.changes.map((c) => c.id))).toEqual(ids);
    const sent = sentFor(userId);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const payload of sent) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
  });

  it('batches of separate turns go in separate NOTIFYs, in order', async () => {
    const { userId, batch } = person();
    writer.publish(batch(['first']));
    await new Promise((resolve) => setImmediate(resolve));
    writer.publish(batch(['second']));
    await expect.poll(() => heardBy(userId).length).toBe(2);
    expect(heardBy(userId).map((b) => b.changes[0]!.id)).toEqual(['first', 'second']);
    expect(sentFor(userId)).toHaveLength(2);
  });

  it('still hears a single batch per NOTIFY, as instances before batching send it', async () => {
    const { userId, batch } = person();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await notify(pool, LIVE_CHANNEL, JSON.stringify(batch(['alone'])));
    } finally {
      await pool.end();
    }
    await expect.poll(() => heardBy(userId).map((b) => b.changes[0]!.id)).toEqual(['alone']);
  });
});
