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

/** A message of another instance, or null when it is not a batch (a bus shared with something else). */
export function decodeBatch(message: string): LiveBatch | null {
  try {
    const batch = JSON.parse(message) as LiveBatch;
    if (typeof batch?.userId !== 'string' || !Array.isArray(batch.changes)) return null;
    return batch;
  } catch {
    return null;
  }
}

/** Fans a received batch out to this instance's listeners; a failing listener does not stop the others. */
export class LiveListeners {
  private readonly listeners = new Set<(batch: LiveBatch) => void>();

  add(listener: (batch: LiveBatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(message: string): void {
    const batch = decodeBatch(message);
    if (!batch) return;
    for (const listener of this.listeners) {
      try {
        listener(batch);
      } catch {
        // a listener's own failure is its own (the hub logs it)
      }
    }
  }
}
