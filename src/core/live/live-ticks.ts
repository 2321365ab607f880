import type { SubscribeResolverData } from 'type-graphql';
import type { AppContext } from '../context.js';
import { UnauthorizedError } from '../errors.js';
import { EVERYTHING, MAX_CHANGES_PER_BATCH } from './change-collector.js';
import type { LiveChange } from './live-change.js';

/** What a subscription follows: the entities whose changes may change its answer. */
export interface LiveTopic {
  readonly name: string;
  affectedBy(change: LiveChange): boolean;
}

export function liveTopic(name: string, entities: readonly string[]): LiveTopic {
  const set = new Set(entities);
  return { name, affectedBy: (change) => change.entity === '*' || set.has(change.entity) };
}

/**
 * One event of a subscription: "read again", with the changes that made it (several coalesced when
 * the client was still busy with the previous answer) and when the oldest of them committed. The
 * first tick (no changes) gives the current state.
 */
export interface LiveTick {
  changes: LiveChange[];
  committedAt: number | null;
}

/**
 * The `subscribe` of a live subscription (`@Subscription({ subscribe: liveTicks(topic) })`): ticks for
 * the signed-in person's committed changes that affect `topic`. The resolver then answers what the
 * matching query answers, through the same service and loaders, on a fresh entity manager per tick.
 */
export function liveTicks(topic: LiveTopic) {
  return ({ context }: SubscribeResolverData<unknown, unknown, AppContext>): AsyncIterableIterator<LiveTick> => {
    const hub = context.deps.live;
    if (!context.auth || !hub) throw new UnauthorizedError();
    return new LiveTickStream(topic, (listener) => hub.listen(context.auth!.user.id, listener), () => context.renew?.());
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
  private pending: LiveTick | null = { changes: [], committedAt: null };
  private waiting: ((result: IteratorResult<LiveTick>) => void) | null = null;
  private readonly unlisten: () => void;
  private done = false;

  constructor(topic: LiveTopic, listen: Listen, private readonly renew: () => void) {
    this.unlisten = listen((batch) => {
      if (batch === 'gap') this.add([EVERYTHING], Date.now());
      else this.add(batch.changes.filter((change) => topic.affectedBy(change)), batch.committedAt);
    });
  }

  private add(changes: LiveChange[], committedAt: number): void {
    if (this.done || changes.length === 0) return;
    const tick = (this.pending ??= { changes: [], committedAt });
    tick.committedAt = Math.min(tick.committedAt ?? committedAt, committedAt);
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
