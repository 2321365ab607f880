import { describe, expect, it } from 'vitest';
import type { LiveBatch } from './live-change.js';
import { PendingNotifies, RESYNC_MESSAGE } from './pending-notifies.js';

/**
 * The queue of what waits for PostgreSQL (issue 36 item 7): in publishing order, the front kept until
 * accepted, bounded by a resync message. No database: the PostgreSQL bus's tests send through it.
 */
const batch = (id: string): LiveBatch => ({ userId: 'u', committedAt: 0, changes: [{ entity: 'Task', id, kind: 'updated' }] });
const ids = (message: string | undefined) => (message === RESYNC_MESSAGE ? ['resync'] : (JSON.parse(message!) as LiveBatch[]).flatMap((b) => b.changes.map((c) => c.id)));
const bytesOf = (id: string) => Buffer.byteLength(JSON.stringify(batch(id)));

describe('PendingNotifies', () => {
  it('sends the front as one message and keeps it until accepted: a failed one comes first again', () => {
    const queue = new PendingNotifies(7999, 1_000_000);
    queue.push([batch('a'), batch('b')]);
    expect(ids(queue.next())).toEqual(['a', 'b']);
    queue.push([batch('c')]);
    expect(queue.next()).toBeUndefined(); // one message on its way at a time
    queue.failed();
    expect(ids(queue.next())).toEqual(['a', 'b', 'c']);
    queue.accepted();
    expect(queue.size).toBe(0);
    expect(queue.next()).toBeUndefined();
  });

  it('fills a message up to the payload limit, in order', () => {
    const size = bytesOf('x0');
    const perMessage = Math.floor((200 - 2 + 1) / (size + 1));
    const queue = new PendingNotifies(200, 1_000_000);
    queue.push(Array.from({ length: 5 }, (_, i) => batch(`x${i}`)));
    const first = queue.next()!;
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(200);
    expect(ids(first)).toEqual(Array.from({ length: perMessage }, (_, i) => `x${i}`));
    queue.accepted();
    expect(ids(queue.next())[0]).toBe(`x${perMessage}`);
  });

  it('past its bound, what waits becomes one resync; the message on its way stays, later batches queue behind', () => {
    const size = bytesOf('a0');
    const queue = new PendingNotifies(7999, size * 4);
    queue.push([batch('a0'), batch('a1')]);
    expect(ids(queue.next())).toEqual(['a0', 'a1']); // on its way
    expect(queue.push([batch('a2'), batch('a3')])).toBe(0);
    expect(queue.push([batch('a4')])).toBe(2); // a2 and a3 replaced
    queue.failed();
    expect(ids(queue.next())).toEqual(['a0', 'a1']); // the resync is a message of its own
    queue.accepted();
    expect(queue.next()).toBe(RESYNC_MESSAGE);
    queue.accepted();
    expect(ids(queue.next())).toEqual(['a4']);
    queue.accepted();
    expect(queue.size).toBe(0);
  });

  it('stays bounded however long nothing is accepted', () => {
    const queue = new PendingNotifies(7999, 10_000);
    for (let i = 0; i < 10_000; i++) queue.push([batch(`b${i}`)]);
    expect(queue.size).toBeLessThanOrEqual(Math.ceil(10_000 / bytesOf('b0')) + 1);
    expect(queue.next()).toBe(RESYNC_MESSAGE);
  });
});
