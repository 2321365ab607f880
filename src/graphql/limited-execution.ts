import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import type { AppContext } from '../core/context.js';
import { readDataVersion } from '../core/database/data-version.js';
import type { AnswerCache } from './answer-cache.js';
import { answerWeightRefusal, jsonBytesUpTo, limitAnswerSize, MAX_ANSWER_BYTES, startAnswerCount } from './answer-size.js';
import { isCacheableOperation } from './cacheable-operation.js';
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
 * calls `executeWithinLimits` or `subscribeWithinLimits` and inherits all three. A query the domains
 * declared cacheable (cacheable-operation.ts) by a signed-in person is answered from the instance's
 * answer cache (answer-cache.ts) while the person's data version is unchanged. The connector's
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

/** A query or mutation: refused when over a limit, else answered from the cache or run (compiled) and its answer bounded. */
export function executeWithinLimits(args: ExecutionArgs, ceiling: AnswerCeiling = {}): MaybePromise<ExecutionResult> {
  const refusal = operationRefusal(args);
  if (refusal) return { errors: [refusal] };
  const maxBytes = ceiling.maxBytes ?? MAX_ANSWER_BYTES;
  const cached = cachedAnswerOf(args, maxBytes);
  return cached ? executeCached(args, maxBytes, cached) : executeCounted(args, maxBytes);
}

interface CachedAnswer {
  cache: AnswerCache;
  context: AppContext;
  person: string;
  key: string;
}

/** Small numbers for schemas and parsed documents (Apollo and the REST routes reuse a document object). */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;

function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = nextIdentity++));
  return id;
}

/**
 * Where a cacheable operation's answer is kept: a signed-in session's person (an API key's calls are
 * not cached), the schema, the document (its shape), the operation, the transport's ceiling and the
 * variables. Null when the operation is not cacheable or the app has no cache.
 */
function cachedAnswerOf(args: ExecutionArgs, maxBytes: number): CachedAnswer | null {
  const context = args.contextValue as AppContext | undefined;
  const cache = context?.deps?.answerCache;
  const person = context?.auth?.user?.id;
  if (!cache?.enabled || !person || context.apiKey || !isCacheableOperation(args.schema, args.document, args.operationName)) return null;
  const key = `${identityOf(args.schema)}:${identityOf(args.document)}:${args.operationName ?? ''}:${maxBytes}:${JSON.stringify(args.variableValues ?? {})}`;
  return { cache, context, person, key };
}

/**
 * A first read runs as before (noted only). A repeated one reads the person's data version first (one
 * primary-key read, its own round trip: no data statement may see an older state than it), then takes
 * the answer kept at that version, or runs the operation and keeps its answer at that version: a write
 * that commits meanwhile raises the version, so what was read after it is never served as current.
 */
function executeCached(args: ExecutionArgs, maxBytes: number, cached: CachedAnswer): MaybePromise<ExecutionResult> {
  if (!cached.cache.seen(cached.person, cached.key)) return executeCounted(args, maxBytes);
  return executeRepeated(args, maxBytes, cached);
}

async function executeRepeated(args: ExecutionArgs, maxBytes: number, { cache, context, person, key }: CachedAnswer): Promise<ExecutionResult> {
  const version = await readDataVersion(context.em, person);
  const data = cache.get(person, key, version);
  if (data !== undefined) return { data: data as ExecutionResult['data'] };
  const result = await executeCounted(args, maxBytes);
  if (!result.errors && result.data) cache.set(person, key, version, result.data, jsonBytesUpTo(result.data, cache.largestAnswerBytes));
  return result;
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
