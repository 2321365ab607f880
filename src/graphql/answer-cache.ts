import type { AnswerCacheSettings } from '../core/config.js';

/*
 * Repeated reads from memory (issue 36 item 8): the answers of cacheable queries (cacheable-operation.ts),
 * kept per instance by person, operation and arguments, each with the person's data version read before
 * it was computed (src/core/database/data-version.ts). Only repeated reads are kept: a key's first read
 * runs as before and is only noted (no version read, nothing stored), its second reads the version and
 * keeps the answer. A request reads the version again (one indexed statement) and is answered from
 * memory only when it is unchanged: a write committed on any instance,
 * by any path, has raised it in its own transaction, so a stale answer is never served, and a write on
 * one instance is seen by the next read on another at once. The live feed (the bus every instance
 * hears) drops a person's entries when their changes commit; that only frees memory early, correctness
 * never waits for it. Bounded: entries and bytes, least recently used dropped first.
 */

interface Entry {
  person: string;
  /** Null: the key was read once, nothing is kept yet. */
  version: string | null;
  /** The answer's `data`, frozen: every hit hands out the same object. */
  data: unknown;
  bytes: number;
}

/** What a noted key (no answer) is counted as weighing, on top of its key. */
const NOTE_BYTES = 64;

export interface AnswerCacheCounts {
  hits: number;
  misses: number;
  /** Misses that found an entry of an older data version. */
  stale: number;
  /** Entries dropped to stay within the caps. */
  evictions: number;
}

/** One answer may weigh this share of the whole at most (a few large answers cannot flush the rest). */
const LARGEST_SHARE = 8;

export class AnswerCache {
  /** In use order: the first is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private readonly keysByPerson = new Map<string, Set<string>>();
  private weight = 0;
  readonly counts: AnswerCacheCounts = { hits: 0, misses: 0, stale: 0, evictions: 0 };

  constructor(private readonly settings: AnswerCacheSettings) {}

  get enabled(): boolean {
    return this.settings.maxEntries > 0 && this.settings.maxBytes > 0;
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Their weight as JSON, in bytes (as answer-size.ts counts it). */
  get bytes(): number {
    return this.weight;
  }

  /** The heaviest answer kept, in bytes. */
  get largestAnswerBytes(): number {
    return Math.floor(this.settings.maxBytes / LARGEST_SHARE);
  }

  /**
   * Whether `key` was read before (it is noted or kept); a first read is noted now, and the caller runs
   * it without reading the version (and keeps nothing).
   */
  seen(person: string, key: string): boolean {
    const id = entryId(person, key);
    if (this.entries.has(id)) return true;
    this.counts.misses++;
    this.add(id, { person, version: null, data: undefined, bytes: id.length + NOTE_BYTES });
    return false;
  }

  /** The answer kept for `key` at `version`, or undefined (an entry of another version is dropped). */
  get(person: string, key: string, version: string): unknown {
    const id = entryId(person, key);
    const entry = this.entries.get(id);
    if (entry && entry.version === version) {
      this.entries.delete(id);
      this.entries.set(id, entry);
      this.counts.hits++;
      return entry.data;
    }
    this.counts.misses++;
    if (entry?.version) this.counts.stale++;
    return undefined;
  }

  /** Keeps `data` (frozen here) for `key`, computed after `version` was read; `bytes` its JSON weight. */
  set(person: string, key: string, version: string, data: unknown, bytes: number): void {
    if (!this.enabled || bytes > this.largestAnswerBytes) return;
    this.add(entryId(person, key), { person, version, data: deepFreeze(data), bytes });
  }

  private add(id: string, entry: Entry): void {
    const before = this.entries.get(id);
    if (before) this.remove(id, before);
    this.entries.set(id, entry);
    this.weight += entry.bytes;
    const person = entry.person;
    let keys = this.keysByPerson.get(person);
    if (!keys) this.keysByPerson.set(person, (keys = new Set()));
    keys.add(id);
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.settings.maxEntries && this.weight <= this.settings.maxBytes) break;
      this.remove(oldest, entry);
      this.counts.evictions++;
    }
  }

  /** Drops a person's answers (their changes committed somewhere); their keys stay noted as read before. */
  forgetPerson(person: string): void {
    const keys = this.keysByPerson.get(person);
    if (!keys) return;
    for (const id of keys) {
      const entry = this.entries.get(id);
      if (!entry?.version) continue;
      this.weight -= entry.bytes - (id.length + NOTE_BYTES);
      entry.bytes = id.length + NOTE_BYTES;
      entry.version = null;
      entry.data = undefined;
    }
  }

  clear(): void {
    this.entries.clear();
    this.keysByPerson.clear();
    this.weight = 0;
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.weight -= entry.bytes;
    const keys = this.keysByPerson.get(entry.person);
    keys?.delete(id);
    if (keys?.size === 0) this.keysByPerson.delete(entry.person);
  }
}

function entryId(person: string, key: string): string {
  return `${person}\u0000${key}`;
}

/** Freezes an answer's objects and arrays: a caller that would change a shared answer fails loudly instead. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const key in item) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}

declare module '../core/context.js' {
  interface AppDeps {
    /** This instance's cache of repeated read answers (absent: nothing is cached). */
    answerCache?: AnswerCache;
  }
}
