import { getNullableType, isListType, isObjectType, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { isPaged, listFields } from './list-bounds.js';
import { operationLimitError } from './operation-limits.js';

/**
 * The largest answer one operation may give, in characters of its JSON (about bytes for ASCII text):
 * the last guard behind the list caps and the cost estimate. The fullest day the caps allow (ten
 * training sessions of 50 exercises of 50 sets, every log full) answers about 8 MB.
 */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;

/**
 * The JSON length of `value`, counted without building the text, stopping once past `max` (so an
 * over-large answer costs no more walking than a just-allowed one). Strings count their length and
 * quotes (escapes are not counted), numbers and literals their usual width.
 */
export function jsonLengthOver(value: unknown, max: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length + 3;
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
    if (total > max) return true;
  }
  return false;
}

/**
 * The result, or in its place a refusal (400, VALIDATION_ERROR) when it resolved more than
 * MAX_ANSWER_ITEMS list items or its data is over MAX_ANSWER_CHARS.
 */
export function limitAnswerSize(result: ExecutionResult, max = MAX_ANSWER_CHARS): ExecutionResult {
  const tooMany = result.errors?.find(isAnswerTooLarge);
  if (tooMany) return { errors: [operationLimitError(tooMany.message)] };
  if (!result.data || !jsonLengthOver(result.data, max)) return result;
  const megabytes = Math.round(max / (1024 * 1024));
  return { errors: [operationLimitError(`Answer size limit of ${megabytes} MB exceeded: ask for fewer fields, fewer aliases or smaller pages.`)] };
}

/**
 * List items one operation may resolve: counted while the answer is built, so an operation is stopped
 * before its answer grows, not after. The fullest day the caps allow holds about 27,000.
 */
export const MAX_ANSWER_ITEMS = 50_000;

/** Marks the refusal of an operation past MAX_ANSWER_ITEMS, so the whole answer is replaced by it. */
class AnswerTooLargeError extends Error {}

const itemsByContext = new WeakMap<object, number>();

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
