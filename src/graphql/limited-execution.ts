import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import { answerWeightRefusal, limitAnswerSize, MAX_ANSWER_BYTES, startAnswerCount } from './answer-size.js';
import { executeCompiled } from './compiled-execute.js';
import { operationLimitViolation } from './operation-limits.js';

/*
 * The one executor. Every operation the service runs goes through here, whatever carried it: /graphql
 * (compiled-gateway.ts), both REST surfaces and the Public API (rest/sofa-surface.ts), subscription
 * events over graphql-ws (src/live/graphql-ws-server.ts) and over Server-Sent Events
 * (src/live/events-stream.routes.ts). Each gets the same limits, in this order:
 *   1. the operation's shape and estimated cost, before anything runs (operation-limits.ts);
 *   2. list items counted while the answer is built (answer-size.ts, MAX_ANSWER_ITEMS);
 *   3. the answer's bytes, strings weighed as they will be written, before it is written
 *      (answer-size.ts, MAX_ANSWER_BYTES, or the transport's smaller ceiling).
 * A refused operation or event answers one VALIDATION_ERROR in place of its data. A new transport
 * calls `executeWithinLimits` or `subscribeWithinLimits` and inherits all three. The connector's
 * tools run no GraphQL operation (fixed shapes, capped lists): their answers get the byte ceiling
 * through `answerCeilingRefusal` (src/connector/mcp/tools/run-tool.ts).
 */

type MaybePromise<T> = Promise<T> | T;

/** A transport's own ceiling on one answer (a socket's event); MAX_ANSWER_BYTES is never exceeded. */
export interface AnswerCeiling {
  maxBytes?: number;
}

/** The first operation limit `args` breaks, or null (cached per document: cheap to ask twice). */
export function operationRefusal(args: ExecutionArgs): GraphQLError | null {
  return operationLimitViolation(args.schema, args.document, args.operationName, args.variableValues);
}

function executeCounted(args: ExecutionArgs, maxBytes: number): MaybePromise<ExecutionResult> {
  startAnswerCount(args.contextValue);
  const result = executeCompiled(args);
  return result instanceof Promise ? result.then((r) => limitAnswerSize(r, maxBytes)) : limitAnswerSize(result, maxBytes);
}

/** A query or mutation: refused when over a limit, else run (compiled) and its answer bounded. */
export function executeWithinLimits(args: ExecutionArgs, ceiling: AnswerCeiling = {}): MaybePromise<ExecutionResult> {
  const refusal = operationRefusal(args);
  if (refusal) return { errors: [refusal] };
  return executeCounted(args, ceiling.maxBytes ?? MAX_ANSWER_BYTES);
}

/** An answer built without an operation (a connector tool's): the ceiling's refusal message, or null. */
export function answerCeilingRefusal(value: unknown, ceiling: AnswerCeiling = {}): string | null {
  return answerWeightRefusal(value, ceiling.maxBytes ?? MAX_ANSWER_BYTES);
}

/** Each subscription's ceiling, by its context (one context per subscription). */
const ceilingsByContext = new WeakMap<object, number>();

function ceilingOf(context: unknown): number {
  return (context && typeof context === 'object' ? ceilingsByContext.get(context) : undefined) ?? MAX_ANSWER_BYTES;
}

/**
 * One event of a subscription (`rootValue` is the event): run like a query, with the ceiling its
 * subscription was opened with. An over-large event answers the refusal as its one error, so the
 * client gets an error event instead of the frame, and the subscription goes on.
 */
export function executeSubscriptionEvent(args: ExecutionArgs): Promise<ExecutionResult> {
  return Promise.resolve(executeCounted(args, ceilingOf(args.contextValue)));
}

type EventStream = AsyncIterableIterator<ExecutionResult>;
export type Subscribe = (args: ExecutionArgs) => Promise<EventStream | ExecutionResult>;

/** graphql-js's `subscribe` with each event run by `executeSubscriptionEvent` (no reads shared). */
export const subscribeEachEvent: Subscribe = async (args) => {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const events = source as AsyncIterableIterator<unknown>;
  const results: EventStream = {
    async next() {
      const step = await events.next();
      return step.done ? step : { value: await executeSubscriptionEvent({ ...args, rootValue: step.value }), done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return results;
    },
  };
  return results;
};

/**
 * A subscription: refused when over a limit, else its event stream, each event run through
 * `executeSubscriptionEvent` within `ceiling`. `subscribe` makes the stream (src/live shares one read
 * between a person's sockets); it must run each event through `executeSubscriptionEvent`.
 */
export async function subscribeWithinLimits(args: ExecutionArgs, ceiling: AnswerCeiling = {}, subscribe: Subscribe = subscribeEachEvent): Promise<EventStream | ExecutionResult> {
  const refusal = operationRefusal(args);
  if (refusal) return { errors: [refusal] };
  const context = args.contextValue;
  if (context && typeof context === 'object') ceilingsByContext.set(context, Math.min(ceiling.maxBytes ?? MAX_ANSWER_BYTES, MAX_ANSWER_BYTES));
  return subscribe(args);
}
