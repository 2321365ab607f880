import { getNullableType, isListType, isObjectType, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { isPaged, listFields } from './list-bounds.js';
import { operationLimitError } from './operation-limits.js';

/**
 * The largest answer one operation may give, in bytes of its JSON (UTF-8, escapes included): the last
 * guard behind the list caps and the cost estimate, on every path (limited-execution.ts). The fullest
 * day the caps allow (ten training sessions of 50 exercises of 50 sets, every log full) answers about
 * 8 MB. A transport may ask for less (a live socket's event: LIVE_MAX_BUFFERED_BYTES), never more.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Characters JSON writes as an escape (`\"`, `\n`, `\u0001`, a lone surrogate): counted at six bytes. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/g;
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/** The UTF-8 bytes of `text` written as a JSON string: quotes, multibyte characters and escapes counted. */
function jsonStringBytes(text: string): number {
  // Aliases repeat one long string: measure it once.
  if (text.length > 256 && text === lastMeasured.text) return lastMeasured.bytes;
  let bytes = Buffer.byteLength(text, 'utf8') + 2;
  ESCAPED.lastIndex = 0;
  if (ESCAPED.test(text)) {
    // A pair is four bytes already; a lone half is written as \udXXX (six), the rest at most six.
    const escapes = text.match(ESCAPED)!.length - 2 * (text.match(SURROGATE_PAIR)?.length ?? 0);
    bytes += 5 * escapes;
  }
  if (text.length > 256) lastMeasured = { text, bytes };
  return bytes;
}

let lastMeasured = { text: '', bytes: 2 };

/**
 * Whether the JSON of `value` is over `max` bytes, counted without building the text and stopping once
 * past `max` (so an over-large answer costs no more walking than a just-allowed one). This is the cost
 * that counts what strings weigh: the built answer holds its strings by reference (fourteen aliases of
 * one description are one string fourteen times), so what they will weigh on the wire is paid only when
 * the answer is written out, which is after this check on every path.
 */
export function jsonBytesOver(value: unknown, max: number): boolean {
  return jsonBytesUpTo(value, max) > max;
}

/** What `value` weighs as JSON, as `jsonBytesOver` counts it; the walk stops once past `max` (the answer is then above it). */
export function jsonBytesUpTo(value: unknown, max: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') total += jsonStringBytes(item);
    else if (item === null || typeof item !== 'object') total += 8;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const element of item) stack.push(element);
    } else if (item instanceof Date) total += 27;
    else {
      total += 2;
      for (const key in item) {
        total += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    if (total > max) return total;
  }
  return total;
}

/** `16 MB`, `8 KB`: a ceiling as its refusal names it. */
function sizeName(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The result, or in its place a refusal (400, VALIDATION_ERROR) when it resolved more than
 * MAX_ANSWER_ITEMS list items or its data is over `maxBytes` (MAX_ANSWER_BYTES at most).
 */
export function limitAnswerSize(result: ExecutionResult, maxBytes = MAX_ANSWER_BYTES): ExecutionResult {
  const tooMany = result.errors?.find(isAnswerTooLarge);
  if (tooMany) return { errors: [operationLimitError(tooMany.message)] };
  const refusal = result.data ? answerWeightRefusal(result.data, maxBytes) : null;
  return refusal ? { errors: [operationLimitError(refusal)] } : result;
}

/** The refusal's message when `value` weighs more than `maxBytes` (MAX_ANSWER_BYTES at most), else null. */
export function answerWeightRefusal(value: unknown, maxBytes = MAX_ANSWER_BYTES): string | null {
  const max = Math.min(maxBytes, MAX_ANSWER_BYTES);
  return jsonBytesOver(value, max) ? `Answer size limit of ${sizeName(max)} exceeded: ask for fewer fields, fewer aliases or smaller pages.` : null;
}

/**
 * List items one operation may resolve: counted while the answer is built, so an operation is stopped
 * before its answer grows, not after. The fullest day the caps allow holds about 27,000.
 */
export const MAX_ANSWER_ITEMS = 50_000;

/** Marks the refusal of an operation past MAX_ANSWER_ITEMS, so the whole answer is replaced by it. */
class AnswerTooLargeError extends Error {}

const itemsByContext = new WeakMap<object, number>();

/**
 * Starts an execution's count (the executor calls it before each execution): a subscription runs once
 * per event on the same context, and each event is an answer of its own. One context runs one
 * execution at a time on every path (a request; a subscription's events, one after another).
 */
export function startAnswerCount(context: unknown): void {
  if (context && typeof context === 'object') itemsByContext.delete(context);
}

function countItems(context: unknown, items: unknown): void {
  if (!Array.isArray(items) || !context || typeof context !== 'object') return;
  const count = (itemsByContext.get(context) ?? 0) + items.length;
  itemsByContext.set(context, count);
  if (count > MAX_ANSWER_ITEMS) throw new AnswerTooLargeError(`Answer size limit of ${MAX_ANSWER_ITEMS} list items exceeded: ask for fewer fields, fewer aliases or smaller pages.`);
}

/**
 * Wraps the resolver of every list field that has one (a loader, a query) and of every paged field
 * (its page's `items`), adding what each answers to the operation's count (keyed by its context).
 * Lists read straight off their parent (a happening's guest ids) are bounded by that parent's count.
 */
export function countAnswerItems(schema: GraphQLSchema): GraphQLSchema {
  for (const { field } of listFields(schema)) {
    const resolve = field.resolve;
    if (resolve) field.resolve = (source, args, context, info) => settle(resolve(source, args, context, info), (items) => countItems(context, items));
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (resolve && isPaged(field) && !isListType(getNullableType(field.type))) {
        field.resolve = (source, args, context, info) => settle(resolve(source, args, context, info), (page) => countItems(context, (page as { items?: unknown } | null)?.items));
      }
    }
  }
  return schema;
}

function settle<T>(value: T | Promise<T>, check: (value: T) => void): T | Promise<T> {
  if (value instanceof Promise) {
    return value.then((resolved) => {
      check(resolved);
      return resolved;
    });
  }
  check(value);
  return value;
}

function isAnswerTooLarge(error: GraphQLError): boolean {
  return error.originalError instanceof AnswerTooLargeError;
}
