import { createSourceEventStream, GraphQLError, print, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { AppContext } from '../core/context.js';
import { RateLimitError } from '../core/errors.js';
import { executeSubscriptionEvent } from '../graphql/limited-execution.js';
import { heardBatches, type LiveTick } from '../core/live/live-ticks.js';

/** How long a finished read is kept for the person's subscriptions of the same query that are still behind. */
const SHARED_FOR_MS = 1000;

/** One person's running subscriptions of one query with the same arguments, on any of their sockets. */
interface SharedQuery {
  subscribers: number;
  /** The newest read and the newest batch heard when it started: it shows that batch and all before. */
  latest: { shows: number; result: Promise<ExecutionResult> } | null;
  /** What the query's resolver keeps between reads (`LiveTick.kept`). */
  kept: Map<string, unknown>;
}

const queriesByPerson = new Map<string, Map<string, SharedQuery>>();
const documentTexts = new WeakMap<object, string>();

function queryKey(args: ExecutionArgs): string {
  let text = documentTexts.get(args.document);
  if (text === undefined) documentTexts.set(args.document, (text = print(args.document)));
  return `${text}|${args.operationName ?? ''}|${JSON.stringify(args.variableValues ?? {})}`;
}

function budgetError(max: number): ExecutionResult {
  const message = `At most ${max} different live subscriptions per person; identical ones on several sockets count once`;
  return { errors: [new GraphQLError(message, { originalError: new RateLimitError(message) })] };
}

/**
 * graphql-js's `subscribe`, each event run by the one executor (src/graphql/limited-execution.ts) and
 * read once per person: the person's subscriptions of the same query and arguments, on any socket, share
 * one read per change. A tick says the newest batch it includes; a read started after that batch was
 * heard shows it, so it answers every such tick however the ticks were merged. A person may run at
 * most `maxDistinctSubscriptionsPerUser` different ones, so one change re-reads at most that many for
 * them, whatever the number of sockets (the per-person budget). First ticks, and topics whose answer is
 * the tick itself (`upTo` null), are read apart.
 */
export async function subscribeSharingReads(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const context = args.contextValue as AppContext;
  const userId = context.auth?.user.id ?? '';
  const key = queryKey(args);
  let mine = queriesByPerson.get(userId);
  const max = context.deps.config.live.maxDistinctSubscriptionsPerUser;
  if (!mine?.has(key) && (mine?.size ?? 0) >= max) return budgetError(max);

  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const ticks = source as AsyncIterableIterator<LiveTick>;
  // Counted again after the await: another socket may have taken the last place meanwhile.
  mine = queriesByPerson.get(userId);
  if (!mine) queriesByPerson.set(userId, (mine = new Map()));
  let shared = mine.get(key);
  if (!shared) {
    if (mine.size >= max) {
      await ticks.return?.();
      return budgetError(max);
    }
    mine.set(key, (shared = { subscribers: 0, latest: null, kept: new Map() }));
  }
  shared.subscribers++;
  const person = mine;
  const query = shared;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (--query.subscribers > 0) return;
    person.delete(key);
    if (person.size === 0 && queriesByPerson.get(userId) === person) queriesByPerson.delete(userId);
  };

  const read = (tick: LiveTick): Promise<ExecutionResult> => {
    if (tick.upTo === null) return executeSubscriptionEvent({ ...args, rootValue: { ...tick, kept: query.kept } });
    const latest = query.latest;
    if (latest && latest.shows >= tick.upTo) return latest.result;
    const result = executeSubscriptionEvent({ ...args, rootValue: { ...tick, kept: query.kept } });
    const started = (query.latest = { shows: heardBatches(), result });
    // Kept a moment for the subscriptions of a slower socket, then let go (results can be large).
    const forget = () => setTimeout(() => query.latest === started && (query.latest = null), SHARED_FOR_MS).unref();
    result.then(forget, forget);
    return result;
  };
  const results: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await ticks.next();
      if (step.done) {
        release();
        return step;
      }
      return { value: await read(step.value), done: false };
    },
    async return() {
      release();
      await ticks.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      release();
      await ticks.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return results;
    },
  };
  return results;
}
