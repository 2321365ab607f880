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
  affectedBy(change: LiveChange, args?: LiveArgs): boolean;
  follow(entities: Iterable<string>): void;
  readonly entities: ReadonlySet<string>;
}

export interface LiveTopicOptions {
  /** Whether a change (of a followed entity) can concern a subscription with these arguments. */
  within?: (change: LiveChange, args: LiveArgs) => boolean;
}

export function liveTopic(name: string, entities: Iterable<string>, options: LiveTopicOptions = {}): LiveTopic {
  const set = new Set(entities);
  const within = options.within;
  return {
    name,
    readsCurrentState: true,
    entities: set,
    follow: (more) => {
      for (const entity of more) set.add(entity);
    },
    affectedBy: (change, args) => change.entity === '*' || (set.has(change.entity) && (!within || !args || within(change, args))),
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
    return new LiveTickStream(topic, (listener) => hub.listen(context.auth!.user.id, listener), () => context.renew?.(), args);
  };
}

type Listen = (listener: (batch: { changes: LiveChange[]; committedAt: number } | 'gap') => void) => () => void;

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

  constructor(
    private readonly topic: LiveTopic,
    listen: Listen,
    private readonly renew: () => void,
    args?: LiveArgs,
  ) {
    this.unlisten = listen((batch) => {
      const n = numberOf(batch);
      if (batch === 'gap') this.add([EVERYTHING], Date.now(), n);
      else this.add(batch.changes.filter((change) => topic.affectedBy(change, args)), batch.committedAt, n);
    });
  }

  private add(changes: LiveChange[], committedAt: number, upTo: number): void {
    if (this.done || changes.length === 0) return;
    const tick = (this.pending ??= { changes: [], committedAt, upTo: null });
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
