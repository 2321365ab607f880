import type { LiveBatch } from './live-change.js';

/**
 * Carries committed changes between the instances of the service: every instance publishes the batches
 * its own transactions commit and hears every instance's (its own included), in publishing order per
 * publisher. Backed by Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY.
 */
export interface LiveBus {
  readonly name: 'redis' | 'postgres';
  publish(batch: LiveBatch): void;
  /** `listener` hears every batch; the answer stops it. */
  onBatch(listener: (batch: LiveBatch) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; Redis has no such limit but a batch of
 * thousands of changes (an import) is better cut too. Splits a batch into messages under `maxBytes`.
 */
export function encodeBatch(batch: LiveBatch, maxBytes = 7000): string[] {
  const whole = JSON.stringify(batch);
  if (Buffer.byteLength(whole) <= maxBytes) return [whole];
  const frame = Buffer.byteLength(JSON.stringify({ ...batch, changes: [] }));
  const messages: string[] = [];
  let part: LiveBatch = { ...batch, changes: [] };
  let size = frame;
  for (const change of batch.changes) {
    const bytes = Buffer.byteLength(JSON.stringify(change)) + 1;
    if (size + bytes > maxBytes && part.changes.length > 0) {
      messages.push(JSON.stringify(part));
      part = { ...batch, changes: [] };
      size = frame;
    }
    part.changes.push(change);
    size += bytes;
  }
  if (part.changes.length) messages.push(JSON.stringify(part));
  return messages;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7999;

function isBatch(value: unknown): value is LiveBatch {
  const batch = value as LiveBatch | null;
  return typeof batch?.userId === 'string' && Array.isArray(batch.changes);
}

/**
 * The batches of a message, in order: an array of batches, or one batch (as Redis carries them, and as
 * instances before issue 36 sent them); none when it is neither (a bus shared with something else).
 */
export function decodeBatches(message: string): LiveBatch[] {
  try {
    const value: unknown = JSON.parse(message);
    return (Array.isArray(value) ? value : [value]).filter(isBatch);
  } catch {
    return [];
  }
}

/**
 * Collects what is published during one event-loop turn (the commits whose answers arrived together)
 * and hands it on at the turn's end (`setImmediate`), in publishing order: one message for many commits.
 */
export class TurnBatches {
  private queued: LiveBatch[] = [];
  private scheduled = false;

  constructor(private readonly send: (batches: LiveBatch[]) => void) {}

  push(batch: LiveBatch): void {
    this.queued.push(batch);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Hands on what waits now (at the turn's end, and when the bus stops). */
  flush(): void {
    this.scheduled = false;
    const batches = this.queued;
    if (batches.length === 0) return;
    this.queued = [];
    this.send(batches);
  }
}

/** Fans a received batch out to this instance's listeners; a failing listener does not stop the others. */
export class LiveListeners {
  private readonly listeners = new Set<(batch: LiveBatch) => void>();

  add(listener: (batch: LiveBatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The batches of a message heard on the bus. */
  deliver(message: string): void {
    for (const batch of decodeBatches(message)) this.deliverBatch(batch);
  }

  deliverBatch(batch: LiveBatch): void {
    for (const listener of this.listeners) {
      try {
        listener(batch);
      } catch {
        // a listener's own failure is its own (the hub logs it)
      }
    }
  }
}
