import { EventEmitter } from 'node:events';
import type { Logger } from '../logger.js';
import { NotificationListener } from './notification-listener.js';

/**
 * Changes made by this process, by channel: every cache of the process on that channel forgets the
 * owner's entries as soon as the change commits. The database's notification reaches the other
 * instances (and this one too, a moment later); without this, a request right after the change could
 * still be answered from this instance's cache before the notification arrived.
 */
const changedHere = new EventEmitter().setMaxListeners(0);

/** Call after a change to an owner's cached rows has committed, with the channel its trigger notifies. */
export function forgetOwnerHere(channel: string, ownerId: string): void {
  changedHere.emit(channel, ownerId);
}

export interface OwnerCacheOptions {
  /** The database to LISTEN on; without it nothing is cached. */
  connectionString: string | undefined;
  /** Channel the database NOTIFYs, with the owner's id, on every change that can alter a cached answer. */
  channel: string;
  logger: Logger;
  /** Entries kept at most (a full cache drops its oldest entry). */
  maxEntries: number;
  /** An entry is read again after this long even without a notification. */
  ttlMs: number;
}

interface Entry<V> {
  ownerId: string;
  value: V;
  /** Used until then (ms since the epoch): read time + TTL, or earlier when the value says so. */
  until: number;
}

/**
 * A per-instance cache of rows that each belong to an owner (a person), dropped by owner when the
 * database NOTIFYs a change, whoever makes it (a trigger). It is used only while its listener listens
 * (emptied when it (re)connects: notifications may have been missed; bypassed while it is away), and a
 * read that was in flight when a notification arrived is not kept.
 */
export class OwnerCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped by every notification and (re)connection: a read started before one is not kept. */
  private epoch = 0;
  private readonly listener: NotificationListener | undefined;
  private listening = false;
  private readonly forgetHere = (ownerId: string) => this.forgetOwner(ownerId);

  constructor(private readonly options: OwnerCacheOptions) {
    if (options.connectionString) {
      this.listener = new NotificationListener({
        connectionString: options.connectionString,
        channel: options.channel,
        logger: options.logger,
        onNotification: (ownerId) => this.forgetOwner(ownerId),
        onListening: (listening) => {
          this.epoch++;
          this.entries.clear();
          this.listening = listening;
        },
      });
    }
  }

  /** Starts the invalidation listener (the cache is used once it listens). */
  start(): Promise<void> {
    changedHere.off(this.options.channel, this.forgetHere).on(this.options.channel, this.forgetHere);
    return this.listener?.start() ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    changedHere.off(this.options.channel, this.forgetHere);
    await this.listener?.stop();
    this.entries.clear();
  }

  /** Entries cached now (tests). */
  get size(): number {
    return this.entries.size;
  }

  forgetOwner(ownerId: string): void {
    this.epoch++;
    for (const [key, entry] of this.entries) if (entry.ownerId === ownerId) this.entries.delete(key);
  }

  /**
   * The cached value of `key`, else `read()`'s answer, kept when it names its owner and nothing was
   * invalidated meanwhile. `until` (ms since the epoch) ends the entry before its TTL would.
   */
  async get(key: string, now: number, read: () => Promise<{ ownerId: string; value: V; until?: number } | undefined>): Promise<V | undefined> {
    if (this.listening) {
      const cached = this.entries.get(key);
      if (cached && now < cached.until) return cached.value;
      if (cached) this.entries.delete(key);
    } else if (this.listener) {
      void this.start();
    }
    const epoch = this.epoch;
    const answer = await read();
    if (answer && this.listening && epoch === this.epoch) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      const until = Math.min(now + this.options.ttlMs, answer.until ?? Infinity);
      this.entries.set(key, { ownerId: answer.ownerId, value: answer.value, until });
    }
    return answer?.value;
  }
}
