import { createHash } from 'node:crypto';
import type { ExecutionResult } from 'graphql';

/**
 * A subscription's results without repeats: a change to a record the answer does not show (another
 * day's checklist) reads the same answer again, which the client need not receive. A first answer
 * that is only an error (another person's id, a missing record) ends the subscription after it.
 * Hand-written like LiveTickStream so `return()` ends the source at once, even while it waits. The
 * previous answer is kept as a digest, not as its text: a subscription holds 32 bytes between events.
 */
export function dedupedResults(source: AsyncGenerator<ExecutionResult> | AsyncIterableIterator<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  let last: string | undefined;
  let ended = false;
  const end = async (): Promise<IteratorResult<ExecutionResult>> => {
    ended = true;
    await source.return?.(undefined);
    return { value: undefined, done: true };
  };
  return {
    async next() {
      for (;;) {
        if (ended) return { value: undefined, done: true };
        const step = await source.next();
        if (step.done) return step;
        const text = createHash('sha256').update(JSON.stringify(step.value)).digest('base64');
        if (text === last) continue;
        const first = last === undefined;
        last = text;
        if (first && step.value.errors?.length && step.value.data == null) void end();
        return step;
      }
    },
    return: end,
    async throw(error: unknown) {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
