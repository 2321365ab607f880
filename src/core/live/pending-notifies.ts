import { encodeBatch } from './live-bus.js';
import type { LiveBatch } from './live-change.js';

/**
 * The message that tells every instance to re-read everything (`LiveHub.gap`, a `*` change): it stands
 * for batches dropped unsent. Not a batch, so instances that do not know it ignore it.
 */
export const RESYNC_MESSAGE = '{"resync":true}';

interface Part {
  /** A batch (or a part of one) as JSON, or the resync message. */
  text: string;
  bytes: number;
}

/**
 * What an instance published and PostgreSQL has not accepted yet, in publishing order, each batch
 * already cut into parts that fit a payload. The front is sent as one message (as many parts as fit,
 * a JSON array) and leaves only when it was accepted: a failed send keeps it in front, so the next
 * attempt sends it again before anything later. Bounded: when more than `maxBytes` would wait,
 * everything waiting but the message in flight is replaced by one resync message (receivers re-read
 * instead of missing a change silently) and later batches queue behind it.
 */
export class PendingNotifies {
  private parts: Part[] = [];
  private bytes = 0;
  /** How many parts at the front make the message being sent. */
  private inFlight = 0;

  constructor(
    private readonly maxPayloadBytes: number,
    private readonly maxBytes: number,
  ) {}

  /** Parts waiting (the resync message counted as one). */
  get size(): number {
    return this.parts.length;
  }

  /** Queues the batches in order; answers how many waiting parts were replaced by a resync (0: none). */
  push(batches: readonly LiveBatch[]): number {
    let dropped = 0;
    for (const batch of batches) {
      for (const text of encodeBatch(batch, this.maxPayloadBytes - 2)) {
        const bytes = Buffer.byteLength(text);
        if (this.bytes + bytes > this.maxBytes) dropped += this.resync();
        this.parts.push({ text, bytes });
        this.bytes += bytes;
      }
    }
    return dropped;
  }

  /** Everything waiting after the message in flight becomes one resync message. */
  private resync(): number {
    const kept = this.parts.slice(0, this.inFlight);
    const dropped = this.parts.length - kept.length;
    this.parts = [...kept, { text: RESYNC_MESSAGE, bytes: Buffer.byteLength(RESYNC_MESSAGE) }];
    this.bytes = this.parts.reduce((sum, part) => sum + part.bytes, 0);
    return dropped;
  }

  /**
   * The message to send now: the resync message alone, or the longest run of batch parts at the front
   * that fits one payload, as a JSON array. Undefined when nothing waits or a message is in flight.
   */
  next(): string | undefined {
    if (this.inFlight > 0 || this.parts.length === 0) return undefined;
    if (this.parts[0]!.text === RESYNC_MESSAGE) {
      this.inFlight = 1;
      return RESYNC_MESSAGE;
    }
    let size = 2; // the brackets
    let count = 0;
    for (const part of this.parts) {
      if (part.text === RESYNC_MESSAGE) break;
      const added = part.bytes + (count > 0 ? 1 : 0);
      if (count > 0 && size + added > this.maxPayloadBytes) break;
      size += added;
      count++;
    }
    this.inFlight = count;
    return `[${this.parts.slice(0, count).map((part) => part.text).join(',')}]`;
  }

  /** PostgreSQL accepted the message in flight: it leaves the queue. */
  accepted(): void {
    for (const part of this.parts.splice(0, this.inFlight)) this.bytes -= part.bytes;
    this.inFlight = 0;
  }

  /** The message in flight was not accepted: it stays in front, to be sent again first. */
  failed(): void {
    this.inFlight = 0;
  }

  /** Drops everything (shutdown with the database away); answers how many parts. */
  clear(): number {
    const dropped = this.parts.length;
    this.parts = [];
    this.bytes = 0;
    this.inFlight = 0;
    return dropped;
  }
}
