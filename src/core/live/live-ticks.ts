import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubscribeResolverData } from 'type-graphql';
import type { AppContext } from '../context.js';
import { UnauthorizedError } from '../errors.js';
import { EVERYTHING, MAX_CHANGES_PER_BATCH } from './change-collector.js';
import type { LiveChange } from './live-change.js';

/** A subscription's arguments, as graphql-js passes them to `subscribe`. */
export type LiveArgs = Readonly<Record<string, unknown>>;

/**
 * What a subscription follows: the entities whose changes may change its answer, and (`within`) which
 * of those changes can concern the subscription's arguments (a change to another day's records does
 * not re-read a day). Other domains add the records they show in its answer (`follow`), gathered by
 * the composition, so a field added elsewhere is followed without a hand-kept list here.
 */
export interface LiveTopic {
  readonly name: string;
  /** False when the answer is the tick's changes themselves (the "my changes" feed): no read to share. */
  readonly readsCurrentState: boolean;
  /** `resolved`: what `resolve` read for these arguments; undefined while not known (then any followed change). */
  affectedBy(change: LiveChange, args?: LiveArgs, resolved?: unknown): boolean;
  follow(entities: Iterable<string>): void;
  readonly entities: ReadonlySet<string>;
  resolve?: LiveTopicOptions['resolve'];
  /** Whether a change makes what `resolve` read stale (the followed week created or removed). */
  resolveAgainOn?(change: LiveChange): boolean;
}

export interface LiveTopicOptions {
  /**
   * Whether a change (of a followed entity) can concern a subscription with these arguments, and what
   * `resolve` read for them (only called once it is known).
   */
  within?: (change: LiveChange, args: LiveArgs, resolved: unknown) => boolean;
  /**
   * For arguments a change cannot name itself (a week's start date, where changes name day ids): the
   * records they stand for, read when the subscription starts and again after a creation or removal of
   * a `resolvedFrom` entity. Until it answers, every followed change re-reads.
   */
  resolve?: (args: LiveArgs, em: EntityManager, userId: string) => Promise<unknown>;
  resolvedFrom?: readonly string[];
}

export function liveTopic(name: string, entities: Iterable<string>, options: LiveTopicOptions = {}): LiveTopic {
  const set = new Set(entities);
  const { within, resolve } = options;
  const resolvedFrom = new Set(options.resolvedFrom ?? []);
  return {
    name,
    readsCurrentState: true,
    entities: set,
    follow: (more) => {
      for (const entity of more) set.add(entity);
    },
    affectedBy: (change, args, resolved) =>
      change.entity === '*' || (set.has(change.entity) && (!within || !args || (resolve !== undefined && resolved === undefined) || within(change, args, resolved))),
    ...(resolve ? { resolve, resolveAgainOn: (change: LiveChange) => change.entity === '*' || (resolvedFrom.has(change.entity) && change.kind !== 'updated') } : {}),
  };
}

/**
 * Committed batches numbered in the order this instance heard them: a read started after batch n was
 * heard shows its changes, so it answers every subscription of the same query waiting for n or older.
 * The hub hands one batch object to all of a person's listeners, so they all see the same number.
 */
const batchNumbers = new WeakMap<object, number>();
let lastBatchNumber = 0;
let gapNumber: number | null = null;

function numberOf(batch: object | 'gap'): number {
  if (batch === 'gap') {
    // One 'gap' is handed to every listener in one synchronous loop: one number for all of them.
    if (gapNumber === null) {
      gapNumber = ++lastBatchNumber;
      queueMicrotask(() => (gapNumber = null));
    }
    return gapNumber;
  }
  let n = batchNumbers.get(batch);
  if (n === undefined) batchNumbers.set(batch, (n = ++lastBatchNumber));
  return n;
}

/** The number of the newest batch heard so far: what a read starting now is guaranteed to show. */
export function heardBatches(): number {
  return lastBatchNumber;
}

/**
 * One event of a subscription: "read again", with the changes that made it (several coalesced when
 * the client was still busy with the previous answer) and when the oldest of them committed. The
 * first tick (no changes) gives the current state.
 */
export interface LiveTick {
  changes: LiveChange[];
  committedAt: number | null;
  /**
   * The newest batch it includes (`heardBatches()` numbering); null for the first tick and for topics
   * whose answer is the tick itself. A read started after that batch was heard answers this tick.
   */
  upTo: number | null;
  /**
   * The newest change-feed cursor of the batches it includes (docs/sync.md): a client that applied this
   * tick syncs from it with no gap and no duplicate. Null when none of them recorded a cursor, or when a
   * batch may have been missed (a bus gap): then the client syncs from the cursor it had.
   */
  cursor?: string | null;
  /**
   * What the resolver keeps between reads of this person's subscriptions of the same query and
   * arguments (whether its last page was past the end): a hint for a cheaper read, never needed for
   * a right answer. Given by the shared executor (src/live/shared-execution.ts); absent elsewhere.
   */
  kept?: Map<string, unknown>;
}

/**
 * The `subscribe` of a live subscription (`@Subscription({ subscribe: liveTicks(topic) })`): ticks for
 * the signed-in person's committed changes that affect `topic`. The resolver then answers what the
 * matching query answers, through the same service and loaders, on a fresh entity manager per tick.
 */
export function liveTicks(topic: LiveTopic) {
  return ({ context, args }: SubscribeResolverData<unknown, LiveArgs, AppContext>): AsyncIterableIterator<LiveTick> => {
    const hub = context.deps.live;
    if (!context.auth || !hub) throw new UnauthorizedError();
    const userId = context.auth.user.id;
    const resolve = topic.resolve && (() => topic.resolve!(args, context.em.fork(), userId));
    return new LiveTickStream(topic, (listener) => hub.listen(userId, listener), () => context.renew?.(), args, resolve);
  };
}

type Listen = (listener: (batch: { changes: LiveChange[]; committedAt: number; cursor?: string } | 'gap') => void) => () => void;

/** A tick's cursor after a batch joins it: the newer one; null for good once a gap joined (nothing vouches for it). */
function newerCursor(current: string | null | undefined, cursor: string | 'gap' | undefined): string | null | undefined {
  if (cursor === 'gap' || current === null) return null;
  if (cursor === undefined) return current;
  return current === undefined || BigInt(cursor) > BigInt(current) ? cursor : current;
}

/**
 * A hand-written async iterator rather than an async generator: a generator waiting for the next change
 * would run its `finally` (unsubscribe) only after that change came, and graphql-ws ends a subscription
 * by calling `return()` at any time. Ticks waiting while the client is busy are merged into one, so
 * what one subscription holds is bounded whatever the rate of changes.
 */
export class LiveTickStream implements AsyncIterableIterator<LiveTick> {
  private pending: LiveTick | null = { changes: [], committedAt: null, upTo: null };
  private waiting: ((result: IteratorResult<LiveTick>) => void) | null = null;
  private readonly unlisten: () => void;
  private done = false;

  /** What `resolve` read for the arguments; undefined while not known. */
  private resolved: unknown = undefined;
  private resolving = 0;

  constructor(
    private readonly topic: LiveTopic,
    listen: Listen,
    private readonly renew: () => void,
    args?: LiveArgs,
    private readonly resolve?: () => Promise<unknown>,
  ) {
    this.unlisten = listen((batch) => {
      const n = numberOf(batch);
      const changes = batch === 'gap' ? [EVERYTHING] : batch.changes.filter((change) => topic.affectedBy(change, args, this.resolved));
      if (changes.some((change) => topic.resolveAgainOn?.(change))) this.resolveArgs();
      this.add(changes, batch === 'gap' ? Date.now() : batch.committedAt, n, batch === 'gap' ? 'gap' : batch.cursor);
    });
    this.resolveArgs();
  }

  /** Reads what the arguments stand for; meanwhile every followed change re-reads. The newest read wins. */
  private resolveArgs(): void {
    if (!this.resolve || this.done) return;
    const attempt = ++this.resolving;
    this.resolved = undefined;
    this.resolve().then(
      (resolved) => attempt === this.resolving && (this.resolved = resolved),
      () => undefined, // left unknown: every followed change re-reads, as before
    );
  }

  private add(changes: LiveChange[], committedAt: number, upTo: number, cursor: string | 'gap' | undefined): void {
    if (this.done || changes.length === 0) return;
    const tick = (this.pending ??= { changes: [], committedAt, upTo: null });
    tick.cursor = newerCursor(tick.cursor, cursor);
    tick.committedAt = Math.min(tick.committedAt ?? committedAt, committedAt);
    if (this.topic.readsCurrentState) tick.upTo = Math.max(tick.upTo ?? upTo, upTo);
    tick.changes = tick.changes.length + changes.length > MAX_CHANGES_PER_BATCH ? [EVERYTHING] : tick.changes.concat(changes);
    this.flush();
  }

  private flush(): void {
    if (!this.waiting || !this.pending) return;
    const resolve = this.waiting;
    const tick = this.pending;
    this.waiting = null;
    this.pending = null;
    this.renew();
    resolve({ value: tick, done: false });
  }

  next(): Promise<IteratorResult<LiveTick>> {
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.flush();
    });
  }

  return(): Promise<IteratorResult<LiveTick>> {
    if (!this.done) {
      this.done = true;
      this.unlisten();
      this.waiting?.({ value: undefined, done: true });
      this.waiting = null;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<LiveTick>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
