import { createSourceEventStream, print, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { AppContext } from '../core/context.js';
import { executeSubscriptionEvent } from '../graphql/limited-execution.js';
import type { LiveTick } from '../core/live/live-ticks.js';

/** How long a finished read is kept for the person's other sockets that ask for the same tick. */
const SHARED_FOR_MS = 100;

const running = new Map<string, Promise<ExecutionResult>>();
const documentKeys = new WeakMap<object, string>();

function documentKey(args: ExecutionArgs): string {
  let key = documentKeys.get(args.document);
  if (key === undefined) documentKeys.set(args.document, (key = print(args.document)));
  return `${key}|${args.operationName ?? ''}|${JSON.stringify(args.variableValues ?? {})}`;
}

/**
 * graphql-js's `subscribe`, with each event's read shared: a person's phone and laptop following the
 * same day get the same tick for the same committed change, and one read answers both (the first
 * subscription's fresh entity manager and loaders run it). Ticks that differ (merged differently, a
 * first tick) are read apart, so sharing never changes what an answer is.
 */
export async function subscribeSharingReads(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const ticks = source as AsyncIterableIterator<LiveTick>;
  const userId = (args.contextValue as AppContext).auth?.user.id ?? '';
  const read = (tick: LiveTick): Promise<ExecutionResult> => {
    if (tick.committedAt === null) return executeSubscriptionEvent({ ...args, rootValue: tick });
    const key = `${userId}|${tick.committedAt}|${tick.changes.length}|${documentKey(args)}`;
    let result = running.get(key);
    if (!result) {
      result = executeSubscriptionEvent({ ...args, rootValue: tick });
      running.set(key, result);
      const forget = () => setTimeout(() => running.delete(key), SHARED_FOR_MS).unref();
      result.then(forget, forget);
    }
    return result;
  };
  const results: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await ticks.next();
      return step.done ? step : { value: await read(step.value), done: false };
    },
    async return() {
      await ticks.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await ticks.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return results;
    },
  };
  return results;
}
